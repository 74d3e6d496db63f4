// The date forms of a series' rule: RDATE/EXDATE/UNTIL as sent (compact or ISO-like) to their stored forms.
//
// Stored (RECURRENCE.md): a timed series' RDATE/EXDATE are local wall times `YYYYMMDDTHHMMSS` in its zone and its
// UNTIL is UTC `YYYYMMDDTHHMMSSZ`; an all-day series' are dates `YYYYMMDD`. Accepted besides: `YYYY-MM-DD`,
// `YYYY-MM-DD HH:MM[:SS]` (or with `T`), a UTC form ending in `Z` (read in the series' zone), and for a timed series
// a date alone (an RDATE/EXDATE at the series' time of day; an UNTIL at the end of that local day).

import { DateTime } from 'luxon';

/** Where a series starts: its first occurrence's local start (`Y-m-d H:i:s`), zone and all-day flag. */
export interface SeriesStart {
  start: string;
  timezone: string;
  allDay: boolean;
}

const COMPACT = "yyyyMMdd'T'HHmmss";

interface Read {
  /** The wall clock read, or the instant for a `Z` form. */
  at: DateTime;
  utc: boolean;
  dateOnly: boolean;
}

/** Reads one of the accepted forms; undefined when it is none of them or not a real date. */
function read(v: string): Read | undefined {
  const m =
    /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2}))?(Z)?)?$/.exec(v.trim()) ?? undefined;
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, z] = m;
  const at = DateTime.fromObject(
    { year: +y!, month: +mo!, day: +d!, hour: +(h ?? 0), minute: +(mi ?? 0), second: +(s ?? 0) },
    { zone: 'UTC' },
  );
  if (!at.isValid) return undefined;
  return { at, utc: z !== undefined, dateOnly: h === undefined };
}

/** A local wall time in `zone` for a UTC instant read as UTC. */
const localOf = (at: DateTime, zone: string): DateTime =>
  at.setZone(zone).setZone('UTC', { keepLocalTime: true });

/** The local wall time, read as UTC, to the instant it is in `zone`. */
const instantOf = (wall: DateTime, zone: string): DateTime =>
  wall.setZone(zone, { keepLocalTime: true }).setZone('UTC');

const startOf = (s: SeriesStart): DateTime =>
  DateTime.fromFormat(s.start, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });

/** The series' start as it would be written in its RDATE/EXDATE. */
export const compactWall = (s: SeriesStart): string =>
  s.allDay ? startOf(s).toFormat('yyyyMMdd') : startOf(s).toFormat(COMPACT);

export const startWall = (s: SeriesStart): string => (s.allDay ? s.start.slice(0, 10) : s.start);

/** An RDATE/EXDATE value in its stored form, or undefined when it is not a date (or, all-day, has a time). */
export function wallFromInput(v: string, s: SeriesStart): string | undefined {
  const r = read(v);
  if (!r) return undefined;
  if (s.allDay) return r.dateOnly ? r.at.toFormat('yyyyMMdd') : undefined;
  if (r.utc) return localOf(r.at, s.timezone).toFormat(COMPACT);
  if (r.dateOnly) return `${r.at.toFormat('yyyyMMdd')}${startOf(s).toFormat("'T'HHmmss")}`;
  return r.at.toFormat(COMPACT);
}

/** An UNTIL in its stored form, or undefined when it is not a date. */
export function untilFromInput(v: string, s: SeriesStart): string | undefined {
  const r = read(v);
  if (!r) return undefined;
  if (s.allDay) return (r.utc ? localOf(r.at, s.timezone) : r.at).toFormat('yyyyMMdd');
  if (r.utc) return `${r.at.toFormat(COMPACT)}Z`;
  const wall = r.dateOnly ? r.at.set({ hour: 23, minute: 59, second: 59 }) : r.at;
  return `${instantOf(wall, s.timezone).toFormat(COMPACT)}Z`;
}

/** Whether a stored UNTIL ends before the series starts (no occurrence at all). */
export function untilIsBefore(until: string, s: SeriesStart): boolean {
  if (s.allDay) return until < compactWall(s);
  const u = DateTime.fromFormat(until, `${COMPACT}'Z'`, { zone: 'UTC' });
  return u < instantOf(startOf(s), s.timezone);
}

/** A stored UNTIL's instant (timed) or date (all-day) as a local date in the series' zone, for the words. */
export function untilLocalDate(until: string, s: SeriesStart): DateTime {
  if (s.allDay) return DateTime.fromFormat(until, 'yyyyMMdd', { zone: 'UTC' });
  return localOf(DateTime.fromFormat(until, `${COMPACT}'Z'`, { zone: 'UTC' }), s.timezone);
}

/** A stored RDATE/EXDATE value as a wall clock (read as UTC). */
export const wallOf = (v: string): DateTime =>
  v.length === 8
    ? DateTime.fromFormat(v, 'yyyyMMdd', { zone: 'UTC' })
    : DateTime.fromFormat(v, COMPACT, { zone: 'UTC' });

/** The series start's wall clock (read as UTC). */
export const startClock = startOf;

/** A UTC instant (ms) as the stored RDATE/EXDATE value of that occurrence in the series. */
export function storedValueAt(ms: number, s: SeriesStart): string {
  const at = localOf(DateTime.fromMillis(ms, { zone: 'UTC' }), s.timezone);
  return s.allDay ? at.toFormat('yyyyMMdd') : at.toFormat(COMPACT);
}

/** The UNTIL that ends a series just before the occurrence starting at `ms` (UTC): one second before it. */
export function untilBefore(ms: number, s: SeriesStart): string {
  if (s.allDay)
    return localOf(DateTime.fromMillis(ms, { zone: 'UTC' }), s.timezone)
      .minus({ days: 1 })
      .toFormat('yyyyMMdd');
  return `${DateTime.fromMillis(ms - 1000, { zone: 'UTC' }).toFormat(COMPACT)}Z`;
}
