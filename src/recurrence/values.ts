// The stored values of a series write: the rule sent, an occurrence's own dates, and a new post copying a series.
import { DateTime } from 'luxon';
import { fromUtc, normaliseEventDates, toUtc } from '../dates/index.ts';
import { msOfUtcWall, utcWallOf } from '../dates/utc-wall.ts';
import type { Deps } from '../deps.ts';
import { invalidParams } from '../http/errors.ts';
import { type FieldValue, readRecord, writeRecord } from '../mapping/codec.ts';
import type { WpPost } from '../wp/types.ts';
import { canonicalText, parseRecurrence, type Rule, type SeriesStart } from './rule.ts';
import { limitsOf, linksOf, mapsRecurrence, RECURRENCE_FIELDS, seriesStartOf } from './store.ts';

type Values = Record<string, FieldValue | undefined>;

/**
 * The `recurrence` value a create or update stores, validated for the event's start (`v`, the dates being written,
 * else `current`'s): the canonical text, or nothing for an absent rule. A bad rule is a 400 naming `recurrence`.
 */
export function ruleValues(
  deps: Pick<Deps, 'mapping' | 'site' | 'recurrenceMaxCount'>,
  input: unknown,
  v: Values,
  current: WpPost | undefined,
): Values {
  if (input === undefined) return {};
  const links = current ? linksOf(deps, current) : {};
  if (input === null || input === '') {
    if (links.text) {
      throw invalidParams({
        recurrence:
          'recurrence cannot be taken off a series: delete its later occurrences (scope=following) or the series.',
      });
    }
    return {};
  }
  if (!mapsRecurrence(deps))
    throw invalidParams({
      recurrence: "recurrence is not stored by this site's mapping (see docs/setup.md).",
    });
  if (links.seriesParent !== undefined)
    throw invalidParams({
      recurrence: 'recurrence cannot be set on one occurrence: update the series (scope=all or following).',
    });
  const old = current ? seriesStartOf(deps, current) : undefined;
  const start: SeriesStart = {
    start: String(v.start_date ?? old?.start ?? ''),
    timezone: String(v.timezone ?? old?.timezone ?? deps.site.timezone),
    allDay: v.all_day !== undefined ? v.all_day === true : (old?.allDay ?? false),
  };
  const r = parseRecurrence(input, start, limitsOf(deps));
  if (!r.ok) throw invalidParams({ recurrence: `recurrence: ${r.reason}.` });
  return { recurrence: canonicalText(r.rule) };
}

/** The stored text of a rule, as the mapping writes it (a body's `meta`). */
export const ruleBody = (deps: Pick<Deps, 'mapping'>, rule: Rule | undefined, links: Values = {}) =>
  writeRecord(deps.mapping, 'event', { ...(rule ? { recurrence: canonicalText(rule) } : {}), ...links });

const WALL = 'yyyy-MM-dd HH:mm:ss';

/** The date values of the occurrence of `series` that starts at `ms`: the series' length, in its zone. */
export function occurrenceDates(
  deps: Pick<Deps, 'mapping' | 'site' | 'now'>,
  series: WpPost,
  ms: number,
): Values {
  const s = seriesStartOf(deps, series);
  const v = readRecord(deps.mapping, 'event', series) as Record<string, FieldValue>;
  const startWall = fromUtc(utcWallOf(ms), s.timezone);
  let endWall: string;
  if (s.allDay) {
    const days = DateTime.fromSQL(String(v.end_date).slice(0, 10)).diff(
      DateTime.fromSQL(String(v.start_date).slice(0, 10)),
      'days',
    ).days;
    endWall = `${DateTime.fromSQL(startWall.slice(0, 10)).plus({ days }).toFormat('yyyy-MM-dd')} 23:59:59`;
  } else {
    // From the local dates (a mapping need not store the UTC copies).
    const utc = (wall: FieldValue | undefined) => msOfUtcWall(toUtc(String(wall), s.timezone));
    const length = utc(v.end_date) - utc(v.start_date);
    endWall = fromUtc(utcWallOf(ms + (Number.isFinite(length) ? length : 0)), s.timezone);
  }
  const res = normaliseEventDates(
    { start_date: startWall, end_date: endWall, all_day: s.allDay, timezone: s.timezone },
    { timezone: deps.site.timezone },
    deps.now(),
  );
  if (!res.ok) throw res.error;
  const d = res.dates;
  return {
    start_date: d.start,
    end_date: d.end,
    utc_start_date: d.startUtc,
    utc_end_date: d.endUtc,
    duration: String(d.duration),
    timezone: d.timezone,
    timezone_abbr: d.timezoneAbbr,
    all_day: s.allDay,
  };
}

/** Fields a copy of a series never takes over: its identity, publication dates and links. */
const NOT_COPIED = new Set<string>([
  'slug',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  ...RECURRENCE_FIELDS,
]);

/** The wp/v2 body of a new event that is `post` as it stands (its fields and terms), without its rule or links. */
export function copyBody(deps: Pick<Deps, 'mapping'>, post: WpPost): Record<string, unknown> {
  const v = readRecord(deps.mapping, 'event', post) as Values;
  for (const k of Object.keys(v)) if (NOT_COPIED.has(k)) delete v[k];
  const body = writeRecord(deps.mapping, 'event', v);
  // A null deletes a row; a new post has none, and WordPress refuses to delete what an integer key does not hold.
  const meta = body.meta as Record<string, unknown> | undefined;
  if (meta) body.meta = Object.fromEntries(Object.entries(meta).filter(([, x]) => x !== null));
  for (const tax of [deps.mapping.event.categories, deps.mapping.event.tags])
    if (tax) body[tax.restBase] = (post[tax.restBase] as number[] | undefined) ?? [];
  return body;
}

/** Bodies merged left to right, their `meta` key by key. */
export function mergeBodies(...bodies: Array<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let meta: Record<string, unknown> | undefined;
  for (const b of bodies) {
    for (const [k, x] of Object.entries(b)) {
      if (k === 'meta') meta = { ...meta, ...(x as Record<string, unknown>) };
      else out[k] = x;
    }
  }
  if (meta) out.meta = meta;
  return out;
}

/** `post` as it would read with `body` written over it (what a later step compares with or reads from). */
export function withBody(post: WpPost, body: Record<string, unknown>): WpPost {
  const merged: WpPost = { ...post, meta: { ...post.meta, ...(body.meta as WpPost['meta']) } };
  for (const [k, x] of Object.entries(body)) {
    if (k === 'meta') continue;
    merged[k] = ['title', 'content', 'excerpt'].includes(k) ? { raw: String(x), rendered: String(x) } : x;
  }
  return merged;
}

/** The wall-clock shift (ms) between two local starts `Y-m-d H:i:s`. */
export const wallShift = (from: string, to: string): number =>
  DateTime.fromFormat(to, WALL, { zone: 'UTC' }).toMillis() -
  DateTime.fromFormat(from, WALL, { zone: 'UTC' }).toMillis();
