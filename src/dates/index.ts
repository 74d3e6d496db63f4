// TEC's date semantics as pure functions: parsing, time zones, date details, the list window, write-side dates.
export { parseTime } from './parse.ts';
export type { DateFilter, ListDateQuery, ListDates } from './window.ts';
export { resolveListDates } from './window.ts';
export type { EventDates, EventDatesInput, EventDatesResult } from './write.ts';
export { normaliseEventDates } from './write.ts';
export { fromUtc, normaliseTimezone, timezoneAbbr, toUtc, WALL_FORMAT } from './zones.ts';

import { invalidParams } from '../http/errors.ts';
import { parseTime as parse } from './parse.ts';
import { WALL_FORMAT as WALL, zoneOf } from './zones.ts';

/**
 * A publication date (`date` in the site zone, `date_utc` in UTC) as WordPress stores it, `Y-m-d H:i:s`, from
 * whatever TEC's `is_time` accepts (`tomorrow 9am`, a timestamp, ISO); a 400 naming `name` otherwise.
 */
export function publicationDate(value: unknown, tz: string, now: Date, name: string): string {
  const dt = typeof value === 'string' || typeof value === 'number' ? parse(value, zoneOf(tz), now) : null;
  if (!dt) throw invalidParams({ [name]: `${name} is not a date PHP's strtotime understands.` });
  return dt.setZone(zoneOf(tz)).toFormat(WALL);
}

/** TEC's `*_date_details`: zero-padded strings split from the stored string, no time zone conversion (§2.4). */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

const WALL_PARTS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Splits a `Y-m-d H:i:s` wall clock; throws on anything else, since stored dates are always in that format. */
export function dateDetails(wallClock: string): DateDetails {
  const parts = WALL_PARTS.exec(wallClock);
  if (!parts) throw new RangeError(`Not a Y-m-d H:i:s date: ${wallClock}`);
  const [, year, month, day, hour, minutes, seconds] = parts;
  return { year, month, day, hour, minutes, seconds };
}
