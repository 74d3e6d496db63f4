// POST/PUT/PATCH/DELETE on events: TEC's write rules over wp/v2, all-or-nothing across upstream calls.

import { linkTags } from '../cache/links.ts';
import { softChange } from '../cache/soft.ts';
import type { RequestContext } from '../context.ts';
import type { ArgsOf } from '../contract/args.ts';
import type { eventWriteArgs } from '../contract/events.ts';
import { eventRecord, sentAsIsOf } from '../contract/records.ts';
import { normaliseEventDates, publicationDate } from '../dates/index.ts';
import type { Deps } from '../deps.ts';
import {
  ApiError,
  couldNot,
  eventInTrash,
  eventNotFound,
  forbidden,
  invalidParams,
  linkedRemoved,
} from '../http/errors.ts';
import { type FieldValue, readRecord, writeRecord } from '../mapping/codec.ts';
import type { TaxonomySource } from '../mapping/schema.ts';
import { resolveImage } from '../media/sideload.ts';
import { deleteInScope, inScope } from '../recurrence/scoped.ts';
import { ruleValues } from '../recurrence/values.ts';
import { splitCurrency } from '../serialize/cost.ts';
import type { SiteInfo } from '../serialize/index.ts';
import { serializeEvent } from '../serialize/index.ts';
import type { Caller } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import { refusal, trashFailed } from '../wp/errors.ts';
import type { WpPost, WpTerm } from '../wp/types.ts';
import { mayPublish, requireCaller, requireEditor } from '../write/caller.ts';
import { scaleStatus } from '../write/status.ts';
import { createPost, newUndo, type Undo, type UndoStep, undoing, withStamp } from '../write/undo.ts';
import { holdWritten } from './held.ts';
import { resolveLinked } from './linked.ts';
import { keepOrganizerOrder } from './organizer-order.ts';
import { readEventPost } from './read-post.ts';
import { relatedOf } from './related.ts';

type WriteArgs = ArgsOf<ReturnType<typeof eventWriteArgs>>;

/** What an event write stores as sent (title, texts, author, website, flags); the rest is worked out below. */
const SENT = sentAsIsOf(eventRecord);

/** ids, slugs or names; unknown names become new terms (recorded in `undo`); unknown numeric ids are skipped. */
async function resolveTerms(
  deps: Deps,
  ctx: RequestContext,
  tax: TaxonomySource,
  values: string[],
  undo: Undo,
): Promise<number[]> {
  const terms = await deps.terms.all(tax, ctx.language);
  const ids: number[] = [];
  /** A term this copy did not know was made or found: the copy is stale. */
  let stale = false;
  for (const v of values) {
    const t =
      terms.find((x) => x.slug === v) ??
      (/^\d+$/.test(v)
        ? terms.find((x) => x.id === Number(v))
        : terms.find((x) => x.name.toLowerCase() === v.toLowerCase()));
    if (t) ids.push(t.id);
    else if (!/^\d+$/.test(v)) {
      const made = await undo
        .create(
          'terms',
          tax.restBase,
          (meta) =>
            deps.wp.request<WpTerm>({
              path: `/wp/v2/${tax.restBase}`,
              method: 'POST',
              body: withStamp({ name: v }, meta),
              // Without the caller's signal: seen through if the caller hangs up (see creatingAsCaller).
              as: { credentials: ctx.credentials },
            }),
          ctx.signal,
        )
        .then((res) => res.body.id)
        .catch((err: unknown) => {
          // Someone added it since this copy of the terms was read: the name is theirs, used and never undone.
          const existing =
            err instanceof ApiError && err.code === 'term_exists' ? err.data.term_id : undefined;
          if (typeof existing === 'number') return existing;
          throw err;
        });
      stale = true;
      ids.push(made);
    }
  }
  if (stale) deps.terms.invalidate(tax);
  return [...new Set(ids)];
}

/** The stored cost rows and, when the cost names its currency (`"20$"`), TEC's symbol and position meta. */
function costValues(v: unknown): Record<string, FieldValue | undefined> {
  if (v === undefined) return {};
  if (v === null) return { cost: '' };
  if (typeof v === 'object' && !Array.isArray(v))
    throw invalidParams({ cost: 'cost must be a string or a list.' });
  const costs = Array.isArray(v) ? v.map(String) : [String(v)];
  const currency = splitCurrency(costs);
  // One row holds them all (TEC stores a row per value): joined as a range, which TEC's parser splits again
  // (", " would not: "10," is not numeric to PHP, so TEC would drop every value but the last).
  if (!currency) return { cost: costs.join(' - ') };
  return {
    cost: currency.values.join(' - '),
    currency_symbol: currency.symbol,
    currency_position: currency.position,
  };
}

/**
 * What TEC's update does with a field the caller did not send (tec-contract.md §5), for UPDATE_SEMANTICS=replace:
 * flags false, cost, website and image cleared, organizers unlinked. The time zone (the site's), `all_day` (false)
 * and the status (TEC's scaling of an omitted one) are worked out with the dates and the status below.
 */
const REPLACED: Record<string, FieldValue> = {
  show_map: false,
  show_map_link: false,
  hide_from_listings: false,
  sticky: false,
  featured: false,
  website: '',
  cost: '',
  currency_symbol: '',
  currency_position: '',
  organizer: [],
};

/** Whether a wall clock (`Y-m-d H:i:s`) is at this time of day. */
const at = (wall: string, time: string): boolean => wall.slice(11) === time;

/**
 * Whether an all-day event stays all day when an update sends new times but no `all_day`. The times sent are what
 * the caller asked for and must read back as sent: the event stays all day only when they already fit one (a start
 * at 00:00:00, an end at 23:59:59); otherwise it becomes a timed event, as TEC's update (which resets an omitted
 * `all_day` to false) makes it.
 */
function staysAllDay(a: WriteArgs, dates: { start: string; end: string }): boolean {
  if (a.start_date !== undefined && !at(dates.start, '00:00:00')) return false;
  if (a.end_date !== undefined && !at(dates.end, '23:59:59')) return false;
  return true;
}

/**
 * The calendar values of a write: only what was sent (plus what the dates imply), or TEC's defaults in replace.
 * `links`: the terms, venues, organizers and image the write sends, to claim before the event is written.
 */
async function valuesOf(
  deps: Deps,
  ctx: RequestContext,
  caller: Caller,
  a: WriteArgs,
  body: Record<string, unknown>,
  current: WpPost | undefined,
  undo: Undo,
): Promise<{ payload: Record<string, unknown>; links: UndoStep[] }> {
  const { mapping, site } = deps;
  const replace = current !== undefined && deps.updateSemantics === 'replace';
  const sent = a as Record<string, FieldValue | undefined>;
  const v: Record<string, FieldValue | undefined> = {
    ...(replace ? REPLACED : {}),
    ...Object.fromEntries(SENT.filter((k) => sent[k] !== undefined).map((k) => [k, sent[k]])),
    ...costValues(a.cost),
  };
  if (body.slug !== undefined || (!current && a.slug !== undefined)) v.slug = a.slug;
  const canPublish = mayPublish(deps, caller);
  if (a.status !== undefined || !current || replace) v.status = scaleStatus(a.status, canPublish);
  if (replace && a.image === undefined && mapping.event.fields.image) v.image = 0;

  const datesSent = [a.start_date, a.end_date, a.all_day, a.timezone].some((x) => x !== undefined);
  if (!current || datesSent || replace) {
    const old = current ? (readRecord(mapping, 'event', current) as Record<string, FieldValue>) : {};
    const wasAllDay = !replace && old.all_day === true;
    const dates = (allDay: boolean) => {
      const res = normaliseEventDates(
        {
          start_date: a.start_date ?? String(old.start_date ?? ''),
          end_date: a.end_date ?? String(old.end_date ?? old.start_date ?? ''),
          all_day: allDay,
          // Replace: an omitted time zone is the site's, as TEC's update sets it.
          timezone: a.timezone ?? (!replace && typeof old.timezone === 'string' ? old.timezone : undefined),
        },
        { timezone: site.timezone },
        deps.now(),
      );
      if (!res.ok) throw res.error;
      return res.dates;
    };
    let allDay = a.all_day ?? wasAllDay;
    let d = dates(allDay);
    if (a.all_day === undefined && wasAllDay && (a.start_date !== undefined || a.end_date !== undefined)) {
      const asSent = dates(false);
      if (!staysAllDay(a, asSent)) {
        allDay = false;
        d = asSent;
      }
    }
    Object.assign(v, {
      start_date: d.start,
      end_date: d.end,
      utc_start_date: d.startUtc,
      utc_end_date: d.endUtc,
      duration: String(d.duration),
      timezone: d.timezone,
      timezone_abbr: d.timezoneAbbr,
      all_day: allDay,
    });
  }
  // A series' rule, read for the start being written (src/recurrence/values.ts): before anything linked is made.
  Object.assign(v, ruleValues(deps, a.recurrence, v, current));
  if (a.date !== undefined) v.date = publicationDate(a.date, site.timezone, deps.now(), 'date');
  if (a.date_utc !== undefined) v.date_utc = publicationDate(a.date_utc, 'UTC', deps.now(), 'date_utc');

  const linkedStatus = canPublish ? 'publish' : 'draft';
  if (body.venue !== undefined) {
    const ids = await resolveLinked(deps, ctx, caller, 'venue', body.venue, linkedStatus, undo);
    v.venue = ids[0] ?? null;
  }
  if (body.organizer !== undefined) {
    v.organizer = await resolveLinked(deps, ctx, caller, 'organizer', body.organizer, linkedStatus, undo);
  }
  // Last, once everything else is valid: a URL is fetched and uploaded (and removed again if the write fails).
  if (a.image !== undefined) v.image = await resolveImage(deps, ctx, caller, 'event', a.image, undo);
  const out: Record<string, unknown> = writeRecord(mapping, 'event', v);
  const links: UndoStep[] = [];
  for (const kind of ['venue', 'organizer'] as const)
    for (const id of [v[kind]].flat())
      if (typeof id === 'number' && id > 0) links.push({ restBase: mapping[kind].restBase, id });
  if (typeof v.image === 'number' && v.image > 0) links.push({ restBase: 'media', id: v.image });
  for (const name of ['categories', 'tags'] as const) {
    const tax = mapping.event[name];
    const values = a[name];
    if (!tax || values === undefined) continue;
    const ids = await resolveTerms(deps, ctx, tax, values, undo);
    out[tax.restBase] = ids;
    for (const id of ids) links.push({ restBase: tax.restBase, id });
  }
  return { payload: out, links };
}

/**
 * The event's values, with what it links to claimed (see Undo.claim): from then on no other write's rollback
 * deletes them. A record another write's rollback is removing, or has removed since a cache offered it, is not
 * linked: WordPress would drop a deleted term silently (201 with `tags: []`) and keep a deleted venue's id. The
 * caches are read again and the values resolved once more, making what is missing under this write's own token;
 * a second loss fails the write, which then leaves nothing.
 */
export async function claimedValues(
  deps: Deps,
  ctx: RequestContext,
  caller: Caller,
  a: WriteArgs,
  body: Record<string, unknown>,
  current: WpPost | undefined,
  undo: Undo,
): Promise<Record<string, unknown>> {
  for (let round = 1; ; round++) {
    const { payload, links } = await valuesOf(deps, ctx, caller, a, body, current, undo);
    const removing = await undo.claim(links);
    const lost = [...removing, ...(await missing(deps, ctx, undo.uses))];
    if (!lost.length) return payload;
    deps.log.info({ lost, write: undo.token, round }, 'a record this write would link to is being removed');
    for (const tax of [deps.mapping.event.categories, deps.mapping.event.tags])
      if (tax && lost.some((s) => s.restBase === tax.restBase)) deps.terms.invalidate(tax);
    for (const kind of ['venue', 'organizer'] as const) {
      const ids = lost.filter((s) => s.restBase === deps.mapping[kind].restBase).map((s) => s.id);
      if (ids.length) deps.catalog.invalidate(kind, ids);
    }
    if (round === 2) throw linkedRemoved();
    // The rollback deleting it is under way: its deletes are a few WordPress calls.
    if (removing.length) await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Which of `steps` no longer exist in WordPress, read after they were claimed: a rollback may have deleted one
 * before the claim while a cache of this instance still offered it.
 */
async function missing(deps: Deps, ctx: RequestContext, steps: readonly UndoStep[]): Promise<UndoStep[]> {
  const service = !!deps.wp.options.serviceAuth;
  const byBase = Map.groupBy(steps, (s) => s.restBase);
  const found = await Promise.all(
    [...byBase].map(async ([restBase, group]) => {
      const ids = group.map((s) => s.id);
      const terms = isTermBase(deps, restBase);
      if (!service && !terms) {
        // Read one by one as the caller: a record the caller may not read is there all the same.
        const there = await Promise.all(
          ids.map((id) =>
            deps.wp
              .request({ path: `/wp/v2/${restBase}/${id}`, query: { _fields: 'id' }, ...asCaller(ctx) })
              .then(
                () => true,
                (err: unknown) => !(err instanceof ApiError && (err.status === 404 || err.status === 410)),
              ),
          ),
        );
        return ids.filter((_, i) => there[i]);
      }
      const res = await deps.wp.list<{ id: number }>({
        path: `/wp/v2/${restBase}`,
        query: {
          include: ids,
          per_page: 100,
          _fields: 'id',
          ...(terms ? { hide_empty: false } : restBase === 'media' ? {} : { status: 'any' }),
        },
        as: service ? 'service' : 'anonymous',
      });
      return res.items.map((x) => x.id);
    }),
  );
  const there = new Set(
    [...byBase.keys()].flatMap((restBase, i) => (found[i] ?? []).map((id) => `${restBase}:${id}`)),
  );
  return steps.filter((s) => !there.has(`${s.restBase}:${s.id}`));
}

const isTermBase = (deps: Deps, restBase: string): boolean =>
  restBase === deps.mapping.event.categories?.restBase || restBase === deps.mapping.event.tags?.restBase;

/** `created`: the write made the event (an update or delete of an event the index did not hold drops hard). */
export async function respond(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  post: WpPost,
  status: number,
  created = false,
) {
  const index = await deps.indexes.forLanguage(ctx.language);
  const before = index.get(post.id);
  const after = index.upsert(post);
  const related = await relatedOf(deps, ctx, [post]);
  const body = serializeEvent(post, related, { mapping: deps.mapping, site, context: 'write' });
  return {
    status,
    body,
    tags: linkTags(before, after),
    soft: softChange(before, after, created || before !== undefined),
    // The written event as the public reads it: the next list miss needs no upstream read for it.
    afterDrop: () => holdWritten(deps, ctx, post),
  };
}

export async function createEvent(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  a: WriteArgs,
  body: Record<string, unknown>,
) {
  const caller = await requireEditor(deps, ctx, 'event');
  const undo = newUndo(deps);
  return undoing(
    deps,
    ctx,
    undo,
    async () => {
      const payload = await claimedValues(deps, ctx, caller, a, body, undefined, undo);
      const res = await createPost(deps, ctx, undo, deps.mapping.event.restBase, payload);
      return respond(deps, ctx, site, res.body, 201, true);
    },
    { map: (err) => refusal(err, true) },
  );
}

export async function updateEvent(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  a: WriteArgs,
  body: Record<string, unknown>,
  scope?: unknown,
) {
  const caller = await requireCaller(deps, ctx);
  // A series or one of its occurrences: written with its scope, or as the post it names, in the series' turn
  // (src/recurrence/).
  return inScope(KIT, deps, ctx, site, caller, id, a, body, scope, (current) =>
    updatePost(deps, ctx, site, caller, current, a, body),
  );
}

/** The update of one post, `current` as read for it. */
async function updatePost(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  caller: Caller,
  current: WpPost,
  a: WriteArgs,
  body: Record<string, unknown>,
) {
  const id = current.id;
  const undo = newUndo(deps);
  // Whatever the event links to when the update's answer is lost stays (WordPress may have saved it).
  undo.target = { restBase: deps.mapping.event.restBase, id };
  let restoreOrganizers: (() => Promise<void>) | undefined;
  return undoing(
    deps,
    ctx,
    undo,
    async () => {
      const payload = await claimedValues(deps, ctx, caller, a, body, current, undo);
      restoreOrganizers = await keepOrganizerOrder(deps, ctx, id, current, payload);
      const res = await deps.wp.update<WpPost>({
        path: `/wp/v2/${deps.mapping.event.restBase}/${id}`,
        method: 'POST',
        body: payload,
        ...asCaller(ctx),
      });
      return respond(deps, ctx, site, res.body, 200);
    },
    {
      before: async () => {
        await restoreOrganizers?.().catch((e: unknown) =>
          deps.log.warn({ err: e, id }, 'restoring organizers failed'),
        );
      },
      map: (err) => refusal(err, true),
    },
  );
}

export async function deleteEvent(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  scope?: unknown,
) {
  await requireCaller(deps, ctx);
  // A series or one of its occurrences: deleted with its scope (src/recurrence/).
  const scoped = await deleteInScope(KIT, deps, ctx, site, id, scope);
  if (scoped) return scoped;
  const current = await readEventPost(deps, ctx, id, { context: 'edit' }).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'event-no-longer-available') {
      throw eventInTrash(id);
    }
    if (err instanceof ApiError && err.code === 'event-not-accessible') throw forbidden(true);
    throw err;
  });
  if (current.status === 'trash') {
    throw eventInTrash(id);
  }
  try {
    const res = await deps.wp.request<WpPost>({
      path: `/wp/v2/${deps.mapping.event.restBase}/${id}`,
      method: 'DELETE',
      ...asCaller(ctx),
    });
    return await respond(deps, ctx, site, res.body, 200);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw eventNotFound(id);
    if (err instanceof ApiError && err.code === 'rest_already_trashed') {
      throw eventInTrash(id);
    }
    if (trashFailed(err)) throw couldNot('delete', 'event', undefined, 500);
    throw refusal(err, true);
  }
}

/** What the writes with a scope (src/recurrence/) use of the event write. */
const KIT = { values: claimedValues, respond };
