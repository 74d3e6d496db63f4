// TEC's `is_time` values (Unix timestamps or anything PHP's strtotime accepts) read into luxon DateTimes.
import { DateTime } from 'luxon';
import { strtotime } from './strtotime.ts';

// PHP's is_numeric for the shapes a query string carries; TEC's build_date_object reads these as `@timestamp`.
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * Parses a date the way TEC does. The returned DateTime's zone is the one whose clock the value was written in:
 * `tz` for a plain value (`2024-05-10 14:30`, `tomorrow`), the value's own zone when it names one
 * (`…+02:00`, `…Z`, `… EST`, `… Europe/Paris`), and UTC for Unix timestamps. Callers convert with `setZone` when
 * they need to; keeping the written clock is what the write side stores (TEC §5). Null when PHP would reject it.
 */
export function parseTime(value: string | number, tz: string, now: Date): DateTime | null {
  if (typeof value === 'number') return fromTimestamp(value);
  if (NUMERIC.test(value)) return fromTimestamp(Number(value));
  const parsed = strtotime(value, Math.floor(now.getTime() / 1000), tz);
  if (parsed === null) return null;
  const dt = DateTime.fromSeconds(parsed.seconds, { zone: parsed.zone });
  return dt.isValid ? dt : null;
}

/**
 * TEC's `is_time` (tribe-common's Validator): `is_numeric($time) || strtotime($time)`, read in UTC, WordPress's PHP
 * time zone. A text that PHP reads as the epoch itself (`1970-01-01`, `@0`, `1970-01-01T01:00:00+01:00`) is refused
 * like an unreadable one, because strtotime's 0 is falsy; the number `0` is numeric, so it passes.
 */
export function isTime(value: string, now: Date): boolean {
  if (NUMERIC.test(value)) return fromTimestamp(Number(value)) !== null;
  const parsed = strtotime(value, Math.floor(now.getTime() / 1000), 'UTC');
  return parsed !== null && parsed.seconds !== 0 && DateTime.fromSeconds(parsed.seconds).isValid;
}

function fromTimestamp(seconds: number): DateTime | null {
  if (!Number.isFinite(seconds)) return null;
  const dt = DateTime.fromSeconds(Math.floor(seconds), { zone: 'UTC' });
  return dt.isValid ? dt : null;
}

/**
 * Parses at start-up the shapes lists and writes send (a date, a date and time, `now`, a relative phrase): the first
 * use of PHP's token patterns compiles them, 7–10 ms of main-thread CPU inside the first list that names a date
 * (measured by bench/feed-tasks.ts), while other requests wait.
 */
export function warmParser(tz: string, now: Date): void {
  for (const value of ['2026-01-15', '2026-01-15 10:30:00', 'now', 'tomorrow 9am', '+1 week', 'next monday'])
    parseTime(value, tz, now);
}
