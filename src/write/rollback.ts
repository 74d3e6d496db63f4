// Undoing a failed write: lost creates looked for by the write's token, each record read back before it is deleted,
// and what other writes claim or events still use left in place.
import type { RequestContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { ANY_EVENT_STATUSES } from '../index/facets.ts';
import { readRecord } from '../mapping/codec.ts';
import { WRITE_META, WRITE_QUERY } from '../wp/probe.ts';
import type { WpPost } from '../wp/types.ts';
import {
  LATE_CHECK_MS,
  LATE_WATCH_MS,
  landsWithin,
  stamps,
  stepKey,
  type Undo,
  type UndoDeps,
  type UndoProbe,
  type UndoStep,
} from './journal.ts';
import { putBack } from './restore.ts';

/** Whether a record as wp/v2 shows it in the edit context carries `token`. */
const carries = (r: { meta?: unknown }, token: string): boolean =>
  !!r.meta && typeof r.meta === 'object' && (r.meta as Record<string, unknown>)[WRITE_META] === token;

const isTerms = (deps: UndoDeps, restBase: string): boolean =>
  restBase === deps.mapping.event.categories?.restBase || restBase === deps.mapping.event.tags?.restBase;

/** What a lost create of `restBase` made, if WordPress made it: the records carrying the write's token. */
async function found(deps: UndoDeps, token: string, p: UndoProbe): Promise<number[]> {
  const terms = isTerms(deps, p.restBase);
  const res = await deps.wp.list<{ id: number; meta?: unknown }>({
    path: `/wp/v2/${p.restBase}`,
    query: {
      [WRITE_QUERY]: token,
      per_page: 100,
      context: 'edit',
      _fields: 'id,meta',
      ...(terms ? { hide_empty: false } : p.restBase === 'media' ? {} : { status: 'any' }),
    },
    as: 'service',
  });
  // The filter narrows the list; the meta proves it (a site whose plugin ignored the filter would list everything).
  return res.items.filter((r) => carries(r, token)).map((r) => r.id);
}

/**
 * Whether `step` may be deleted: it carries the write's token, read back now as the service (`gone` when it no
 * longer exists, undefined when WordPress did not answer). Where the site registers no token, only ids that came
 * back in the create's own answer are steps at all, and they are their own proof.
 */
async function proof(
  deps: UndoDeps,
  undo: Undo,
  step: UndoStep,
  carrying: (restBase: string) => Promise<Set<number>>,
): Promise<boolean | 'gone' | undefined> {
  if (!stamps(deps)) return true;
  try {
    // One list per rest base tells for all its steps; a step missing from it is read on its own (gone, trashed…).
    if ((await carrying(step.restBase)).has(step.id)) return true;
    const res = await deps.wp.request<{ meta?: unknown }>({
      path: `/wp/v2/${step.restBase}/${step.id}`,
      query: { context: 'edit', _fields: 'id,meta' },
      as: 'service',
    });
    return carries(res.body, undo.token);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 410)) return 'gone';
    return undefined;
  }
}

/** Ids that must stay: what the updated record links to, and venues, organizers and terms events use. */
async function inUse(deps: UndoDeps, undo: Undo, removedEvents: Set<number>): Promise<Set<string>> {
  // Keyed by rest base: a term and a venue may have the same id.
  const keep = new Set<string>();
  const { mapping } = deps;
  const taxonomies = [mapping.event.categories, mapping.event.tags].flatMap((t) => (t ? [t] : []));
  if (undo.target) {
    const post = await deps.wp
      .request<WpPost>({
        path: `/wp/v2/${undo.target.restBase}/${undo.target.id}`,
        query: { context: 'edit' },
        as: 'service',
      })
      .then((r) => r.body)
      .catch(() => undefined);
    if (post) {
      if (post.featured_media) keep.add(stepKey({ restBase: 'media', id: post.featured_media }));
      for (const t of taxonomies)
        for (const id of (post[t.restBase] as number[] | undefined) ?? [])
          keep.add(stepKey({ restBase: t.restBase, id }));
      if (undo.target.restBase === mapping.event.restBase) {
        const r = readRecord(mapping, 'event', post) as Record<string, unknown>;
        for (const kind of ['venue', 'organizer'] as const) {
          for (const id of [r[kind]].flat()) {
            if (typeof id === 'number') keep.add(stepKey({ restBase: mapping[kind].restBase, id }));
          }
        }
      }
    }
  }
  // A retry of a write cut short may already have taken over its venue (duplicates are reused): the event index
  // knows, at once for writes through the gateway.
  const index = deps.indexes.all()[0];
  const steps = [...undo.posts];
  const linked = (kind: 'venue' | 'organizer') => steps.some((s) => s.restBase === mapping[kind].restBase);
  // Another instance's write that claimed a venue and has finished since is not in this index until its poll. Twice:
  // a refresh already under way (which the first call joins) may have read WordPress before that write's event.
  if (index && (linked('venue') || linked('organizer')))
    for (let i = 0; i < 2; i++) await index.refresh().catch(() => 0);
  for (const kind of ['venue', 'organizer'] as const) {
    if (!index || !linked(kind)) continue;
    for (const id of index.linkedTo(
      kind,
      { statuses: ANY_EVENT_STATUSES, page: 1, perPage: 1 },
      removedEvents,
    ))
      keep.add(stepKey({ restBase: mapping[kind].restBase, id }));
  }
  for (const step of undo.terms) {
    const used = await deps.wp
      .list({
        path: `/wp/v2/${mapping.event.restBase}`,
        query: { [step.restBase]: step.id, status: 'any', per_page: 1, _fields: 'id' },
        as: 'service',
      })
      .catch(() => ({ items: [] as Array<{ id: number }> }));
    if (used.items.some((e) => !removedEvents.has((e as { id: number }).id))) keep.add(stepKey(step));
  }
  return keep;
}

/**
 * Removes what a failed write made, with the caller's credentials (when there is a caller) and then the service
 * account's. Lost creates are looked for first, by the write's token. Whatever cannot be done now (WordPress still
 * away) stays in the journal for the next sweep.
 */
export async function rollback(deps: UndoDeps, undo: Undo, ctx?: RequestContext): Promise<void> {
  // Refused before anything was made (most failures): nothing to look at.
  if (undo.empty) return undo.done();
  // What it changed goes back first; WordPress not answering leaves the rest for the sweep too.
  if (!(await putBack(deps, undo, ctx))) return undo.save(Date.now() + 5_000);
  const left: UndoProbe[] = [];
  const known = new Set([...undo.posts, ...undo.terms].map(stepKey));
  for (const p of undo.probes.splice(0)) {
    if (!stamps(deps)) {
      // Nothing could tell the gateway's record from an editor's: never guess, say it.
      deps.log.warn(
        { restBase: p.restBase, write: undo.token },
        `a create whose answer was lost may have made a record that nothing proves the gateway's (the site does not register ${WRITE_META}): left for the operator`,
      );
      continue;
    }
    try {
      const ids = await found(deps, undo.token, p);
      for (const id of ids) {
        const step = { restBase: p.restBase, id };
        if (known.has(stepKey(step))) continue;
        known.add(stepKey(step));
        (isTerms(deps, p.restBase) ? undo.terms : undo.posts).push(step);
      }
      // Not there yet, but WordPress may still be carrying it out: looked for again.
      if (!ids.length && Date.now() < (p.lostAt ?? 0) + landsWithin(deps)) left.push(p);
      // Past that, a create WordPress was still carrying out may land yet: watched for, apart from the rest.
      else if (!ids.length && p.lostAt !== undefined)
        undo.late.push({ restBase: p.restBase, lostAt: p.lostAt, until: Date.now() + LATE_WATCH_MS });
    } catch {
      left.push(p);
    }
  }
  undo.probes.push(...left);
  await lookForLate(deps, undo, known);
  if (undo.probes.length) {
    // A create that lands later may link what is here (an event its venue): nothing is removed or let go until
    // every lost create is found or can no longer land; the sweep takes it up again.
    await undo.save(Date.now() + 5_000);
    return;
  }
  const events = deps.mapping.event.restBase;
  /** The ids of a rest base that carry this write's token, listed once per rollback. */
  const listed = new Map<string, Promise<Set<number>>>();
  const carrying = (restBase: string): Promise<Set<number>> => {
    let ids = listed.get(restBase);
    if (!ids) {
      ids = found(deps, undo.token, { restBase }).then((found) => new Set(found));
      // A failed list is asked again by the next step.
      ids.catch(() => listed.delete(restBase));
      listed.set(restBase, ids);
    }
    return ids;
  };
  const remove = async (step: UndoStep): Promise<boolean> => {
    // Proven before any delete, the caller's too: a create's answer alone is not proof, since WordPress answers a
    // term create that raced another of the same name with the older term (wp_insert_term folds the newer into it).
    const proven = await proof(deps, undo, step, carrying);
    if (proven === 'gone') return true;
    // WordPress did not answer: asked again by the next sweep.
    if (proven === undefined) return false;
    if (!proven) {
      deps.log.warn(
        { ...step, write: undo.token },
        'rollback step does not carry its write token: not deleted, left for the operator',
      );
      return true;
    }
    for (const as of ctx
      ? ([{ credentials: ctx.credentials }, 'service'] as const)
      : (['service'] as const)) {
      try {
        await deps.wp.request({
          path: `/wp/v2/${step.restBase}/${step.id}`,
          method: 'DELETE',
          query: { force: true },
          as,
        });
        return true;
      } catch (err) {
        if (err instanceof ApiError && (err.status === 404 || err.status === 410)) return true;
        deps.log.warn({ err, ...step }, 'rollback step failed');
      }
    }
    return false;
  };
  // The event first: once it is gone, what it linked to is no longer in use.
  const removedEvents = new Set<number>(undo.gone);
  const removedNow: number[] = [];
  for (const step of undo.posts.filter((s) => s.restBase === events && !removedEvents.has(s.id))) {
    if (await remove(step)) removedNow.push(step.id);
  }
  if (removedNow.length) {
    // Gone from WordPress for good: a poll would not tell (deleted posts are not listed), so say it here.
    for (const index of deps.indexes.all()) for (const id of removedNow) index.remove(id);
    await deps.cache?.forgetEvents(removedNow).catch(() => undefined);
  }
  for (const id of removedNow) removedEvents.add(id);
  undo.gone.splice(0, undo.gone.length, ...removedEvents);
  if (undo.posts.some((s) => s.restBase === events && !removedEvents.has(s.id))) {
    // The event is still there and holds its venue and terms in use: all of it waits for the next sweep.
    await undo.save(Date.now() + 5_000);
    return;
  }
  // Its events are gone: what they would have linked to is no longer this write's to hold.
  undo.uses.length = 0;
  const rest = [...undo.posts.filter((s) => s.restBase !== events), ...undo.terms].reverse();
  // What is about to go, written down before the claims are read (see Undo.claim): a write claiming one of these
  // from now on backs off, and one that claimed it before is seen below.
  undo.removing.splice(0, undo.removing.length, ...rest);
  if (rest.length) await undo.save();
  const claimed = rest.length ? await undo.claimedByOthers().catch(() => undefined) : new Set<string>();
  if (!claimed) {
    // The claims could not be read: nothing is deleted on a guess; the sweep tries again.
    undo.removing.length = 0;
    await undo.save(Date.now() + 5_000);
    return;
  }
  // Read after the claims: a write whose claim ended before they were read has its event in WordPress by now.
  const keep = await inUse(deps, undo, removedEvents);
  deps.log.debug(
    { posts: undo.posts, terms: undo.terms, probes: undo.probes, keep: [...keep], claimed: [...claimed] },
    'undoing a write',
  );
  const touched = { terms: undo.terms.length > 0, posts: undo.posts.length > 0 };
  const failed: UndoStep[] = [];
  // Claimed by a write in progress: looked at again by the sweep, once that write has linked it or given it up.
  const held = rest.filter((s) => claimed.has(stepKey(s)));
  for (const step of rest) {
    if (held.includes(step) || keep.has(stepKey(step))) continue;
    if (!(await remove(step))) failed.push(step);
  }
  undo.removing.length = 0;
  const stays = (s: UndoStep) =>
    failed.includes(s) || held.includes(s) || (s.restBase === events && !removedEvents.has(s.id));
  const posts = undo.posts.filter(stays);
  const terms = undo.terms.filter(stays);
  undo.posts.splice(0, undo.posts.length, ...posts);
  undo.terms.splice(0, undo.terms.length, ...terms);
  if (touched.terms) deps.terms.invalidate();
  // Removed venues or organizers must not be offered as duplicates by a catalog read after the rollback.
  if (touched.posts) for (const kind of ['venue', 'organizer'] as const) deps.catalog.invalidate(kind);
  // What is left is tried again by the next sweep; lost creates alone are looked for less often.
  await undo.save(Date.now() + (undo.posts.length || undo.terms.length ? 5_000 : LATE_CHECK_MS));
}

/**
 * Looks again for the lost creates past the time they could land: what one made after all becomes a step of the
 * rollback (removed with the same proof as the rest); one still not found when its watch ends is left to the operator.
 */
async function lookForLate(deps: UndoDeps, undo: Undo, known: Set<string>): Promise<void> {
  const watched = undo.late.splice(0);
  for (const p of watched) {
    let ids: number[];
    try {
      ids = await found(deps, undo.token, p);
    } catch {
      undo.late.push(p);
      continue;
    }
    for (const id of ids) {
      const step = { restBase: p.restBase, id };
      if (known.has(stepKey(step))) continue;
      known.add(stepKey(step));
      (isTerms(deps, p.restBase) ? undo.terms : undo.posts).push(step);
      deps.log.warn({ ...step, write: undo.token }, 'a create of a failed write landed late: it is removed');
    }
    if (ids.length) continue;
    if (Date.now() < p.until) undo.late.push(p);
    else
      deps.log.error(
        { restBase: p.restBase, write: undo.token, lostAt: new Date(p.lostAt ?? 0).toISOString() },
        `a create of a failed write was never seen: if it lands, its record carries ${WRITE_META}=${undo.token}; left for the operator`,
      );
  }
}
