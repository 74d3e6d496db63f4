// What a write created on the way (nested venues, organizers, terms, uploads, the event itself), kept where a crash
// cannot lose it, so that a write that fails, or a process that dies mid-write, leaves nothing behind once
// WordPress answers again. The rule: every create carries the token of its write (WRITE_META, sent in the create
// request itself), and a rollback deletes only what carries that token, read back before each delete (the caller's
// too). A create whose answer never came (WordPress died or timed out) is looked for by its token, never by a title
// or a name. Where the site does not register the token, only ids the creates' own answers named are deleted, and a
// lost create is logged for the operator instead.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { ApiError, aborted } from '../http/errors.ts';
import { ANY_EVENT_STATUSES } from '../index/facets.ts';
import type { IndexRegistry } from '../index/registry.ts';
import type { LinkedCatalog } from '../linked/catalog.ts';
import type { Logger } from '../log.ts';
import { readRecord } from '../mapping/codec.ts';
import type { Mapping } from '../mapping/schema.ts';
import type { SharedRedis } from '../shared-redis.ts';
import type { WpClient } from '../wp/client.ts';
import { asCaller, type WpResponse } from '../wp/client.ts';
import type { SiteFacts } from '../wp/probe.ts';
import { WRITE_META, WRITE_QUERY } from '../wp/probe.ts';
import type { TermCache } from '../wp/terms.ts';
import type { WpPost } from '../wp/types.ts';
import { putBack, type UndoRestore } from './restore.ts';

export interface UndoStep {
  restBase: string;
  id: number;
}

const stepKey = (s: UndoStep) => `${s.restBase}:${s.id}`;

/** A create whose answer was lost: whatever it made in `restBase` carries the write's token. */
export interface UndoProbe {
  restBase: string;
  /** When its answer was lost (ms since epoch): until WordPress can no longer be carrying it out, it is looked for. */
  lostAt?: number;
}

/**
 * How long after its answer was lost a create may still land: WordPress had the upstream timeout to carry it out,
 * plus slack. Not finding its token before then proves nothing; the rollback waits (the sweep looks again).
 */
/**
 * What undoing a write reads and changes (the gateway's `Deps` has all of it): WordPress, the mapping and the site's
 * facts, the event indexes, the term cache and venue catalog to refresh, the response cache to drop removed events.
 */
export interface UndoDeps {
  wp: WpClient;
  mapping: Mapping;
  site: SiteFacts;
  indexes: IndexRegistry;
  log: Logger;
  terms: TermCache;
  catalog: LinkedCatalog;
  cache?: { forgetEvents(ids: readonly number[]): Promise<void> };
  undo?: UndoJournal;
}
const landsWithin = (deps: UndoDeps): number => (deps.wp.options?.timeoutMs ?? 10_000) + 5_000;

/** The meta a create sends: the write's token, or nothing where the site does not register it. */
export type Stamp = Record<string, string>;

interface Entry {
  posts: UndoStep[];
  terms: UndoStep[];
  probes: UndoProbe[];
  /** The record an update writes to: whatever it links to after all is kept. */
  target?: UndoStep;
  /** Events this undo removed already (the event index may list them a little longer). */
  gone?: number[];
  /** What the write links to without having made it (a claim): another write's rollback leaves it. */
  uses?: UndoStep[];
  /** What this undo is about to delete: a write that would link to it backs off. */
  removing?: UndoStep[];
  /** Records the write changed, and how to put each back (src/write/restore.ts). */
  restores?: UndoRestore[];
  /** When a sweep may take the entry (ms since epoch): a live write keeps pushing it ahead. */
  due: number;
}

/**
 * A write that fails now may have been carried out by WordPress: no answer, a server error, a cut body, or the
 * caller hanging up. Only a refusal (a 4xx answer) says nothing was made.
 */
export const mayHaveWritten = (err: unknown): boolean =>
  !(err instanceof ApiError && err.status < 500 && err.status !== 499);

/**
 * A lost create that WordPress may still be carrying out: one it had not finished when the gateway stopped waiting
 * (a timeout, or a call left behind). One it answered with a server error or a cut answer was over; one that could
 * not reach it, or died with it, will never land.
 */
const mayStillLand = (err: unknown): boolean =>
  !(err instanceof ApiError) || err.status === 504 || err.status === 499;

/** An entry of a write in progress is renewed every third of this; the entry of a dead process is due after it. */
export const UNDO_LEASE_MS = 10_000;

/** The entries of writes in progress or left to undo: a Redis hash when configured and up, else this process. */
export class UndoJournal {
  readonly #memory = new Map<string, Entry>();
  readonly #redis?: SharedRedis;
  /** Writes in progress in this process: their entries are renewed every third of the lease. */
  readonly #live = new Set<Undo>();
  #beat?: NodeJS.Timeout;
  /** How long an entry of a write in progress stays out of sweeps without a heartbeat (its process died). */
  readonly leaseMs: number;

  constructor(redis?: SharedRedis, leaseMs = UNDO_LEASE_MS) {
    this.#redis = redis;
    this.leaseMs = leaseMs;
  }

  /** `undo` runs (true) or ended (false); while any runs, a heartbeat keeps their entries from sweeps. */
  live(undo: Undo, running: boolean): void {
    if (running) this.#live.add(undo);
    else this.#live.delete(undo);
    if (this.#live.size && !this.#beat) {
      this.#beat = setInterval(() => {
        for (const u of this.#live) void u.save();
      }, this.leaseMs / 3);
      this.#beat.unref();
    } else if (!this.#live.size && this.#beat) {
      clearInterval(this.#beat);
      this.#beat = undefined;
    }
  }

  get #key() {
    return `${this.#redis?.prefix ?? ''}undo`;
  }

  /** A new write; `stamped`: its creates carry its token (the site registers WRITE_META). */
  begin(stamped = true): Undo {
    return new Undo(this, undefined, undefined, stamped);
  }

  /** The write of an entry taken by `due`, to undo again (its id is its token). */
  resume(id: string, e: Entry): Undo {
    return new Undo(this, id, e);
  }

  async put(id: string, entry: Entry): Promise<void> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        await r.cmd.hset(this.#key, id, JSON.stringify(entry));
        this.#memory.delete(id);
        return;
      } catch {
        // Redis went away mid-call: this process keeps the entry.
      }
    }
    this.#memory.set(id, entry);
  }

  /** Lets other instances' sweeps take `id` again when it is due (its sweep here is over for now). */
  async release(id: string): Promise<void> {
    const r = this.#redis;
    if (r?.up()) await r.cmd.del(`${this.#key}:claim:${id}`).catch(() => {});
  }

  async drop(id: string): Promise<void> {
    this.#memory.delete(id);
    const r = this.#redis;
    if (r?.up()) await r.cmd.hdel(this.#key, id).catch(() => {});
  }

  /** Entries due now, each claimed for `holdMs` (another instance's sweep skips it meanwhile). */
  async due(now: number, holdMs = 30_000): Promise<Array<[string, Entry]>> {
    const out: Array<[string, Entry]> = [];
    for (const [id, e] of this.#memory) {
      if (e.due > now) continue;
      this.#memory.set(id, { ...e, due: now + holdMs });
      out.push([id, e]);
    }
    const r = this.#redis;
    if (!r?.up()) return out;
    try {
      const all = await r.cmd.hgetall(this.#key);
      for (const [id, text] of Object.entries(all)) {
        const e = JSON.parse(text) as Entry;
        if (e.due > now) continue;
        const mine = await r.cmd.set(`${this.#key}:claim:${id}`, '1', 'PX', holdMs, 'NX');
        if (mine === 'OK') out.push([id, e]);
      }
    } catch {
      // Redis away: its entries wait for the next sweep.
    }
    return out;
  }

  /** Every entry but `except`'s: this process's and, when Redis is up, every instance's (rejects when it fails). */
  async #entries(except?: string): Promise<Entry[]> {
    const out = [...this.#memory].flatMap(([id, e]) => (id === except ? [] : [e]));
    const r = this.#redis;
    if (r?.up()) {
      const all = await r.cmd.hgetall(this.#key);
      for (const [id, text] of Object.entries(all)) if (id !== except) out.push(JSON.parse(text) as Entry);
    }
    return out;
  }

  /** Ids of `restBase` that entries hold to remove: not to be offered for reuse (an upload found by its URL). */
  async pending(restBase: string, except?: string): Promise<Set<number>> {
    const out = new Set<number>();
    for (const e of await this.#entries(except).catch(() => []))
      for (const s of e.posts) if (s.restBase === restBase) out.add(s.id);
    return out;
  }

  /**
   * What the other entries claim (`uses`: writes linking to records they did not make) and are about to delete
   * (`removing`), as `restBase:id` keys. Read after writing one's own claims or removals (see {@link Undo.claim}).
   */
  async others(except: string): Promise<{ uses: Set<string>; removing: Set<string> }> {
    const uses = new Set<string>();
    const removing = new Set<string>();
    for (const e of await this.#entries(except)) {
      for (const s of e.uses ?? []) uses.add(stepKey(s));
      for (const s of e.removing ?? []) removing.add(stepKey(s));
    }
    return { uses, removing };
  }

  /** Entries waiting (in progress or left to undo), for metrics and tests. */
  async size(): Promise<number> {
    const r = this.#redis;
    const shared = r?.up() ? await r.cmd.hlen(this.#key).catch(() => 0) : 0;
    return shared + this.#memory.size;
  }
}

/** Whether the site registers WRITE_META, so that what the gateway creates carries its write's token. */
const stamps = (deps: Partial<Pick<UndoDeps, 'site'>>): boolean => deps.site?.writeMeta === true;

/** A write's record: in the journal when the gateway has one. */
export const newUndo = (deps: Pick<UndoDeps, 'undo' | 'site'>): Undo =>
  deps.undo?.begin(stamps(deps)) ?? new Undo(undefined, undefined, undefined, stamps(deps));

/** One write's record of what it created. Without a journal (tests' own UndoDeps) it lives in memory only. */
export class Undo {
  readonly posts: UndoStep[] = [];
  readonly terms: UndoStep[] = [];
  readonly probes: UndoProbe[] = [];
  target?: UndoStep;
  readonly gone: number[] = [];
  /** What the write links to without having made it: see {@link claim}. */
  readonly uses: UndoStep[] = [];
  /** What its rollback is about to delete: see {@link rollback}. */
  readonly removing: UndoStep[] = [];
  /** Records the write changed (not made): put back by a rollback before anything made is removed. */
  readonly restores: UndoRestore[] = [];
  readonly #id: string;
  readonly #journal?: UndoJournal;
  readonly #stamped: boolean;

  constructor(journal?: UndoJournal, id: string = randomUUID(), e?: Omit<Entry, 'due'>, stamped = true) {
    this.#journal = journal;
    this.#id = id;
    this.#stamped = stamped;
    if (e) {
      this.posts.push(...e.posts);
      this.terms.push(...e.terms);
      this.probes.push(...e.probes);
      this.target = e.target;
      this.gone.push(...(e.gone ?? []));
      this.restores.push(...(e.restores ?? []));
    }
  }

  /** The token every record this write creates carries (WRITE_META): the write's id. */
  get token(): string {
    return this.#id;
  }

  /**
   * Runs the create `send` with the meta that marks what it makes as this write's, noted first as a probe (written
   * down before WordPress sees it), then as the id it made. A refusal leaves nothing to note; a lost answer leaves
   * the probe. A caller that hung up before the create was sent sends nothing and notes nothing.
   */
  async create<T extends { id: number }>(
    kind: 'posts' | 'terms',
    restBase: string,
    send: (meta: Stamp) => Promise<WpResponse<T>>,
    signal?: AbortSignal,
  ): Promise<WpResponse<T>> {
    if (signal?.aborted) throw aborted();
    const p: UndoProbe = { restBase };
    this.probes.push(p);
    await this.save();
    const forget = () => this.probes.splice(this.probes.indexOf(p), 1);
    let res: WpResponse<T>;
    try {
      res = await send(this.#stamped ? { [WRITE_META]: this.#id } : {});
    } catch (err) {
      if (!mayHaveWritten(err)) forget();
      else if (mayStillLand(err)) p.lostAt = Date.now();
      await this.save();
      throw err;
    }
    forget();
    this[kind].push({ restBase, id: res.body.id });
    await this.save();
    return res;
  }

  /** Nothing made, nothing being made: nothing to undo. */
  get empty(): boolean {
    return !this.posts.length && !this.terms.length && !this.probes.length && !this.restores.length;
  }

  /** Nothing to keep in the journal: nothing to undo, claimed or being removed. */
  get #idle(): boolean {
    return this.empty && !this.uses.length && !this.removing.length;
  }

  /**
   * Claims `links`, the records the write is about to link to, less what it made itself; resolves to those of them
   * another write's rollback is deleting. Two writes to one shared journal, each writing down its own intent before
   * reading the other's (a claim here, a removal in {@link rollback}): whichever reads second sees the first, so a
   * rollback never deletes a record a write has claimed and found not being removed. Without a journal, or with
   * Redis down, the claim holds in this process only.
   */
  async claim(links: readonly UndoStep[]): Promise<UndoStep[]> {
    const own = new Set([...this.posts, ...this.terms].map(stepKey));
    const uses = links.filter((s) => !own.has(stepKey(s)));
    this.uses.splice(0, this.uses.length, ...uses);
    if (!this.#journal || !uses.length) return [];
    await this.save();
    // Redis failing here: the write's look at what still exists (src/events/write.ts) is what is left.
    const others = await this.#journal.others(this.#id).catch(() => undefined);
    return uses.filter((s) => others?.removing.has(stepKey(s)));
  }

  /** Writes the entry down; due after the lease (a crash), or at `due` (a failure left steps to retry). */
  async save(due?: number): Promise<void> {
    const j = this.#journal;
    if (!j) return;
    // Nothing noted: nothing to keep alive either.
    j.live(this, due === undefined && !this.#idle);
    if (this.#idle) return j.drop(this.#id);
    const { posts, terms, probes, target, gone, uses, removing, restores } = this;
    const entry = { posts, terms, probes, target, gone, uses, removing, restores };
    await j.put(this.#id, { ...entry, due: due ?? Date.now() + j.leaseMs });
    // Left for a later sweep: at its due time, not once a claim taken now runs out.
    if (due !== undefined) await j.release(this.#id);
  }

  /** `restBase:id` keys of what other writes claim (read after this undo wrote down what it is removing). */
  async claimedByOthers(): Promise<Set<string>> {
    return this.#journal ? (await this.#journal.others(this.#id)).uses : new Set();
  }

  /** The write is answered: what it made stays. */
  async done(): Promise<void> {
    this.#journal?.live(this, false);
    await this.#journal?.drop(this.#id);
  }
}

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
    } catch {
      left.push(p);
    }
  }
  undo.probes.push(...left);
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
  // What is left is tried again by the next sweep.
  await undo.save(Date.now() + 5_000);
}

/**
 * The caller's credentials and language for a create, without the caller's abort signal: a create once sent is seen
 * through even when the caller hangs up, so that its answer says what it made and the rollback removes exactly that.
 * Abandoned, it would be a lost create, which WordPress may carry out after the rollback looked for it. (Undo.create
 * sends nothing once the caller is gone.)
 */
export const creatingAsCaller = (ctx: RequestContext): ReturnType<typeof asCaller> => ({
  ...asCaller(ctx),
  signal: undefined,
});

/** A create's body with the write's token added to its `meta` (unchanged when there is no token to send). */
export const withStamp = (body: Record<string, unknown>, stamp: Stamp): Record<string, unknown> =>
  Object.keys(stamp).length
    ? { ...body, meta: { ...(body.meta as Record<string, unknown> | undefined), ...stamp } }
    : body;

/** Creates a post of `restBase` as the caller, stamped with and noted in `undo` (found by its token if lost). */
export function createPost(
  deps: UndoDeps,
  ctx: RequestContext,
  undo: Undo,
  restBase: string,
  body: Record<string, unknown>,
): Promise<WpResponse<WpPost>> {
  return undo.create(
    'posts',
    restBase,
    (stamp) =>
      deps.wp.request<WpPost>({
        path: `/wp/v2/${restBase}`,
        method: 'POST',
        body: withStamp(body, stamp),
        ...creatingAsCaller(ctx),
      }),
    ctx.signal,
  );
}

/**
 * Runs a write that records its creations in `undo`: when it answers, what it made stays; when it throws, `before`
 * runs (putting back what it changed), what it made is removed, and the error goes out through `map`.
 */
export async function undoing<T>(
  deps: UndoDeps,
  ctx: RequestContext,
  undo: Undo,
  run: () => Promise<T>,
  opts: { before?: () => Promise<void>; map?: (err: unknown) => unknown } = {},
): Promise<T> {
  try {
    const answer = await run();
    await undo.done();
    return answer;
  } catch (err) {
    await opts.before?.();
    await rollback(deps, undo, ctx);
    throw opts.map ? opts.map(err) : err;
  }
}

/** Entries a sweep undoes at once. */
const SWEEP_PARALLEL = 4;

/** Takes the journal's due entries (failed undos, writes whose process died) and undoes them as the service. */
export async function sweep(deps: UndoDeps): Promise<number> {
  const journal = deps.undo;
  if (!journal) return 0;
  const due = await journal.due(Date.now());
  const queue = [...due];
  // A few at a time: after an outage every failed write of the burst is due at once, each a dozen upstream calls.
  await Promise.all(
    Array.from({ length: Math.min(SWEEP_PARALLEL, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [id, e] = next;
        // A create still open when its process died was sent before its last heartbeat (a lease before it was due).
        for (const p of e.probes) p.lostAt ??= e.due - journal.leaseMs;
        await rollback(deps, journal.resume(id, e));
      }
    }),
  );
  return due.length;
}
