// Updates with a scope: one occurrence (an override), this and the following ones (a split), or the whole series.
//
// Every step is written down before it is sent (src/recurrence/journal.ts): a failure or a crash part way is rolled
// back to the series as it was. Creates come first and the series' own change last, so that what readers see of
// the series changes with its last step.
import type { RequestContext } from '../context.ts';
import { msOfUtcWall, utcWallOf } from '../dates/utc-wall.ts';
import type { Deps } from '../deps.ts';
import { invalidParams } from '../http/errors.ts';
import { writeRecord } from '../mapping/codec.ts';
import type { SiteInfo } from '../serialize/index.ts';
import type { Caller } from '../wp/caller.ts';
import { refusal } from '../wp/errors.ts';
import type { WpPost } from '../wp/types.ts';
import { flat, norm } from '../write/restore.ts';
import { createPost, newUndo, type Undo, undoing } from '../write/undo.ts';
import { changeEvent } from './journal.ts';
import { continueFrom, endBefore, shiftDates, shiftedMs } from './split.ts';
import { linksOf, overridesOf, seriesStartOf } from './store.ts';
import type { Scope, Series, Target } from './target.ts';
import { copyBody, mergeBodies, occurrenceDates, ruleBody, wallShift, withBody } from './values.ts';
import { answerMany, type Kit } from './write-answer.ts';

type Args = Record<string, unknown> & { recurrence?: unknown };
type Occurrence = Target & { kind: 'series' | 'occurrence' };

/** The meta keys and post fields a change to a series never carries over to its overrides as they are. */
function ownKeys(deps: Deps): Set<string> {
  const keys = new Set(['slug', 'date', 'date_gmt']);
  const f = deps.mapping.event.fields as Record<string, { meta?: string } | undefined>;
  for (const name of [
    'start_date',
    'end_date',
    'utc_start_date',
    'utc_end_date',
    'duration',
    'timezone',
    'timezone_abbr',
    'all_day',
    'recurrence',
    'series_parent',
    'recurrence_id',
    'series_previous',
  ])
    if (f[name]?.meta) keys.add(`meta.${f[name]!.meta}`);
  return keys;
}

/** The new slug of a post made from a series for one date (WordPress makes it unique). */
const slugFor = (series: WpPost, date: string) => (series.slug ? { slug: `${series.slug}-${date}` } : {});

/**
 * The occurrence's own dates (as stored values and as a write body), and what was sent read against them, as an
 * update of the occurrence's own post would read it: the start of an override and of a split alike.
 */
async function atOccurrence(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  caller: Caller,
  { series, ms }: Occurrence,
  a: Args,
  body: Record<string, unknown>,
  undo: Undo,
) {
  const dates = occurrenceDates(deps, series.post, ms);
  const datesBody = writeRecord(deps.mapping, 'event', dates);
  const payload = await kit.values(
    deps,
    ctx,
    caller,
    a as never,
    body,
    withBody(series.post, datesBody),
    undo,
  );
  return { dates, datesBody, payload };
}

/** `this`: the override of one occurrence, made from the series with what was sent written over it. */
async function makeOverride(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  caller: Caller,
  t: Occurrence,
  a: Args,
  body: Record<string, unknown>,
) {
  const { series, ms } = t;
  const undo = newUndo(deps);
  return undoing(
    deps,
    ctx,
    undo,
    async () => {
      const { dates, datesBody, payload } = await atOccurrence(kit, deps, ctx, caller, t, a, body, undo);
      const links = writeRecord(deps.mapping, 'event', {
        series_parent: series.post.id,
        recurrence_id: utcWallOf(ms),
      });
      const full = mergeBodies(
        copyBody(deps, series.post),
        datesBody,
        slugFor(series.post, String(dates.start_date).slice(0, 10)),
        payload,
        links,
      );
      const res = await createPost(deps, ctx, undo, deps.mapping.event.restBase, full);
      return answerMany(kit, deps, ctx, site, res.body, [], 200, true);
    },
    { map: (err) => refusal(err, true) },
  );
}

/** `following`: the series ends before the occurrence, and a new series (its continuation) starts from it. */
async function split(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  caller: Caller,
  t: Occurrence,
  a: Args,
  body: Record<string, unknown>,
) {
  const { series, ms } = t;
  const overrides = (await overridesOf(deps, ctx, series.post.id)).filter(
    (o) => msOfUtcWall(linksOf(deps, o).recurrenceId ?? '') >= ms,
  );
  const undo = newUndo(deps);
  return undoing(
    deps,
    ctx,
    undo,
    async () => {
      const { dates, datesBody, payload } = await atOccurrence(kit, deps, ctx, caller, t, a, body, undo);
      let next = mergeBodies(copyBody(deps, series.post), datesBody, payload);
      const nextStart = seriesStartOf(deps, withBody(series.post, next));
      const shift = wallShift(String(dates.start_date), nextStart.start);
      // A rule sent is the new series' own (checked for its start); else the series' rule goes on from here.
      const rule =
        a.recurrence === undefined ? continueFrom(series.rule, series.start, ms, shift) : undefined;
      next = mergeBodies(
        next,
        slugFor(series.post, nextStart.start.slice(0, 10)),
        ruleBody(deps, rule, { series_previous: series.post.id }),
      );
      const made = (await createPost(deps, ctx, undo, deps.mapping.event.restBase, next)).body;
      const moved: WpPost[] = [];
      for (const o of overrides) {
        const was = msOfUtcWall(linksOf(deps, o).recurrenceId!);
        const links = {
          series_parent: made.id,
          recurrence_id: utcWallOf(shiftedMs(was, series.start, nextStart, shift)),
        };
        moved.push(await changeEvent(deps, ctx, undo, o, writeRecord(deps.mapping, 'event', links)));
      }
      const ended = await changeEvent(
        deps,
        ctx,
        undo,
        series.post,
        ruleBody(deps, endBefore(series.rule, series.start, ms)),
      );
      return answerMany(kit, deps, ctx, site, made, [ended, ...moved], 200, true);
    },
    { map: (err) => refusal(err, true) },
  );
}

/**
 * `all` on a series with overrides: the series changes, and each override takes the change of every field it had
 * not changed itself (a title it kept follows the series'; one it changed stays its own). Moving the series' start
 * moves the rule's dates and the overrides' original starts with it, and the dates of overrides that had not moved.
 */
async function updateAll(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  caller: Caller,
  series: Series,
  overrides: WpPost[],
  a: Args,
  body: Record<string, unknown>,
) {
  const undo = newUndo(deps);
  undo.target = { restBase: deps.mapping.event.restBase, id: series.post.id };
  return undoing(
    deps,
    ctx,
    undo,
    async () => {
      let payload = await kit.values(deps, ctx, caller, a as never, body, series.post, undo);
      const after = seriesStartOf(deps, withBody(series.post, payload));
      const shift = after.allDay === series.start.allDay ? wallShift(series.start.start, after.start) : 0;
      if (a.recurrence === undefined && shift !== 0)
        payload = mergeBodies(payload, ruleBody(deps, shiftDates(series.rule, shift)));
      const own = ownKeys(deps);
      const changed: WpPost[] = [];
      for (const o of overrides) {
        const change: Record<string, unknown> = {};
        for (const [key, value] of flat(payload)) {
          if (own.has(key)) continue;
          // Kept as the series had it: follows the series.
          if (norm(valueAt(o, key)) !== norm(valueAt(series.post, key))) continue;
          if (key.startsWith('meta.')) change.meta = { ...(change.meta as object), [key.slice(5)]: value };
          else change[key] = value;
        }
        let oBody = change;
        if (shift !== 0) {
          const links = linksOf(deps, o);
          const was = msOfUtcWall(links.recurrenceId!);
          const now = shiftedMs(was, series.start, after, shift);
          const movedSeries = withBody(series.post, payload);
          const kept =
            String(seriesStartOf(deps, o).start) ===
            String(occurrenceDates(deps, series.post, was).start_date);
          oBody = mergeBodies(
            oBody,
            kept ? writeRecord(deps.mapping, 'event', occurrenceDates(deps, movedSeries, now)) : {},
            writeRecord(deps.mapping, 'event', { recurrence_id: utcWallOf(now) }),
          );
        }
        if (Object.keys(oBody).length) changed.push(await changeEvent(deps, ctx, undo, o, oBody));
      }
      const updated = await changeEvent(deps, ctx, undo, series.post, payload);
      return answerMany(kit, deps, ctx, site, updated, changed, 200);
    },
    { map: (err) => refusal(err, true) },
  );
}

const valueAt = (post: WpPost, key: string): unknown =>
  key.startsWith('meta.') ? (post.meta as Record<string, unknown> | undefined)?.[key.slice(5)] : post[key];

/**
 * An update of a series or one of its occurrences with `scope`; undefined when the plain update of the post addressed
 * does it (an override's own post, a series without overrides).
 */
export async function updateScoped(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  caller: Caller,
  t: Occurrence,
  scope: Scope,
  a: Args,
  body: Record<string, unknown>,
): Promise<{ post?: WpPost; answer?: Awaited<ReturnType<typeof answerMany>> }> {
  if (scope === 'this') {
    if (a.recurrence !== undefined)
      throw invalidParams({
        recurrence: 'recurrence cannot be set on one occurrence: use scope=all or following.',
      });
    // The occurrence has its own post: updated as any event is.
    if (t.override) return { post: t.override };
    return { answer: await makeOverride(kit, deps, ctx, site, caller, t, a, body) };
  }
  if (scope === 'following') return { answer: await split(kit, deps, ctx, site, caller, t, a, body) };
  const overrides = await overridesOf(deps, ctx, t.series.post.id);
  // Moving the start moves the rule's dates: that is this write's, even without overrides.
  const moves = ['start_date', 'end_date', 'all_day', 'timezone'].some((k) => a[k] !== undefined);
  if (!overrides.length && !(moves && a.recurrence === undefined)) return { post: t.series.post };
  return { answer: await updateAll(kit, deps, ctx, site, caller, t.series, overrides, a, body) };
}
