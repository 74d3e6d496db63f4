// TEC's `is_time` values (Unix timestamps or anything PHP's strtotime accepts) read into luxon DateTimes.
import { DateTime, FixedOffsetZone } from 'luxon';
import { wallStrtotime, zoneOffsetMinutes } from './strtotime.ts';
import { zoneOf } from './zones.ts';

// PHP's is_numeric for the shapes a query string carries; TEC's build_date_object reads these as `@timestamp`.
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * Parses a date the way TEC does. The returned DateTime's zone is the one whose clock the value was written in:
 * `tz` for a plain value (`2024-05-10 14:30`, `tomorrow`), the value's own offset when it carries one
 * (`…+02:00`, `…Z`, `… EST`), and UTC for Unix timestamps. Callers convert with `setZone` when they need to;
 * keeping the written clock is what the write side stores (TEC §5). Null when PHP would reject the value.
 */
export function parseTime(value: string | number, tz: string, now: Date): DateTime | null {
  if (typeof value === 'number') return fromTimestamp(value);
  if (NUMERIC.test(value)) return fromTimestamp(Number(value));
  const text = value.trim();
  if (/^@-?\d+$/.test(text)) return fromTimestamp(Number(text.slice(1)));

  const zone = zoneOf(tz);
  const nowInZone = DateTime.fromJSDate(now, { zone });
  // locutus works on a UTC clock; hand it the zone's wall clock so "today" and "+1 day" are the zone's.
  const nowWall = Math.floor(now.getTime() / 1000) + nowInZone.offset * 60;
  const seconds = wallStrtotime(text, nowWall);
  if (seconds === null) return null;

  const offset = zoneOffsetMinutes(text, nowWall);
  if (offset !== null) {
    return DateTime.fromSeconds(seconds, { zone: offset === 0 ? 'UTC' : FixedOffsetZone.instance(offset) });
  }
  const wall = DateTime.fromSeconds(seconds, { zone: 'UTC' });
  const local = DateTime.fromObject(
    {
      year: wall.year,
      month: wall.month,
      day: wall.day,
      hour: wall.hour,
      minute: wall.minute,
      second: wall.second,
    },
    { zone },
  );
  return local.isValid ? local : null;
}

function fromTimestamp(seconds: number): DateTime | null {
  if (!Number.isFinite(seconds)) return null;
  const dt = DateTime.fromSeconds(Math.floor(seconds), { zone: 'UTC' });
  return dt.isValid ? dt : null;
}
