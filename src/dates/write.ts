// Event start/end on create and update (TEC §5, §9.16): parsed, all-day widened, ordered, with UTC copies.

import { WHY } from '../contract/args.ts';
import { type ApiError, invalidParams } from '../http/errors.ts';
import { parseTime } from './parse.ts';
import { msOfUtcWall } from './utc-wall.ts';
import { normaliseTimezone, timezoneAbbr, toUtc, WALL_FORMAT } from './zones.ts';

export interface EventDatesInput {
  start_date: string | number;
  end_date: string | number;
  all_day?: boolean;
  /** Empty or absent → the site timezone. */
  timezone?: string;
}

/** What TEC stores in `_EventStartDate`, `_EventEndDate`, their UTC copies, `_EventDuration`, `_EventTimezone(Abbr)`. */
export interface EventDates {
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
  /** seconds between the UTC copies */
  duration: number;
  timezone: string;
  timezoneAbbr: string;
}

export type EventDatesResult = { ok: true; dates: EventDates } | { ok: false; error: ApiError };

/**
 * Each date is parsed in the event's timezone and stored as the clock time it was written in: a value with an
 * explicit offset keeps its own clock (`10:00+02:00` stores `10:00`, not converted), and a Unix timestamp stores its
 * UTC clock as if it were local. The UTC copies are then computed from the event timezone. An end before the start
 * silently becomes the start, as in TEC.
 */
export function normaliseEventDates(
  input: EventDatesInput,
  site: { timezone: string },
  now: Date,
): EventDatesResult {
  const requested = input.timezone?.trim() ? input.timezone.trim() : site.timezone;
  const zone = normaliseTimezone(requested);
  const bad: Record<string, string> = {};
  if (zone === null) bad.timezone = `timezone ${WHY.timezone}`;
  // Stored as luxon names it: IANA ids canonically spelled, manual offsets as `UTC+2`, `UTC-5:30`.
  const tz = zone ?? 'UTC';

  const start = parseTime(input.start_date, tz, now);
  const end = parseTime(input.end_date, tz, now);
  if (start === null) bad.start_date = `start_date ${WHY.time}`;
  if (end === null) bad.end_date = `end_date ${WHY.time}`;
  if (start === null || end === null || zone === null) return { ok: false, error: invalidParams(bad) };

  let startWall = start.toFormat(WALL_FORMAT);
  let endWall = end.toFormat(WALL_FORMAT);
  if (input.all_day) {
    startWall = `${startWall.slice(0, 10)} 00:00:00`;
    endWall = `${endWall.slice(0, 10)} 23:59:59`;
  }
  if (endWall < startWall) endWall = startWall;

  const startUtc = toUtc(startWall, tz);
  const endUtc = toUtc(endWall, tz);
  return {
    ok: true,
    dates: {
      start: startWall,
      end: endWall,
      startUtc,
      endUtc,
      duration: utcSeconds(endUtc) - utcSeconds(startUtc),
      timezone: tz,
      timezoneAbbr: timezoneAbbr(startWall, tz),
    },
  };
}

function utcSeconds(wallClock: string): number {
  return msOfUtcWall(wallClock) / 1000;
}
