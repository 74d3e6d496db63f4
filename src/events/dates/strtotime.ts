// PHP's strtotime (via locutus's timelib port) evaluated on pure wall clocks, independent of the host time zone.
import { strtotime } from 'locutus/php/datetime/strtotime';

const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'UTC0', 'Etc/Universal']);

/**
 * locutus computes with the host's local-time Date methods, so its answer depends on `process.env.TZ`. With the
 * host in UTC, local-time arithmetic is plain wall-clock arithmetic, which is what PHP does in the caller's zone
 * ("+1 day" across a DST change keeps the clock time). We switch the process to UTC for the synchronous call only.
 */
function inUtcProcess<T>(fn: () => T): T {
  const previous = process.env.TZ;
  if (previous !== undefined && UTC_NAMES.has(previous)) return fn();
  process.env.TZ = 'UTC';
  try {
    return fn();
  } finally {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  }
}

/**
 * Parses `text` as PHP's strtotime would, relative to the wall clock `nowWall` (seconds, read as a UTC clock).
 * Returns seconds whose UTC clock is the resulting wall clock, or, when the text names its own zone, the absolute
 * instant (see `splitZone`). PHP returns false for an empty string; locutus returns "now", so we check first.
 */
export function wallStrtotime(text: string, nowWall: number): number | null {
  if (text.trim() === '') return null;
  const result = inUtcProcess(() => strtotime(text, nowWall));
  return result === false || !Number.isFinite(result) ? null : result;
}

// A zone designator after a date or time: Z, ±HH, ±HHMM, ±HH:MM, or an upper-case abbreviation (UTC, EST, CET).
// Upper case only, so that trailing words such as "noon" or "+1 day" are never taken for zones.
const ZONE_SUFFIX = /(?<=[\d.]|\d\s)\s*([+-]\d{1,2}(?::?\d{2})?|\(?[A-Z]{1,6}\)?)\s*$/;
const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * Finds the zone the text carries, as an offset in minutes from UTC, by parsing it with and without its suffix
 * (so any abbreviation locutus knows works without a table here). Null when the text names no zone.
 */
export function zoneOffsetMinutes(text: string, nowWall: number): number | null {
  const match = ZONE_SUFFIX.exec(text);
  if (!match) return null;
  const withZone = wallStrtotime(text, nowWall);
  const withoutZone = wallStrtotime(text.slice(0, match.index), nowWall);
  if (withZone === null || withoutZone === null) return null;
  // A suffix that changes nothing and is not a UTC name was a word such as "noon", not a zone.
  if (withZone === withoutZone && !/^(Z|UTC|GMT|[+-]0{1,2}(:?00)?)$/.test(match[1])) return null;
  const offset = Math.round((withoutZone - withZone) / 60);
  return Math.abs(offset) <= MAX_OFFSET_MINUTES ? offset : null;
}
