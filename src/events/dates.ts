// TEC's date semantics as pure functions: parsing, time zones, date details, the list window, write-side dates.
export { parseTime } from './dates/parse.ts';
export type { DateFilter, ListDateQuery, ListDates } from './dates/window.ts';
export { resolveListDates } from './dates/window.ts';
export type { EventDates, EventDatesInput, EventDatesResult } from './dates/write.ts';
export { normaliseEventDates } from './dates/write.ts';
export { fromUtc, normaliseTimezone, timezoneAbbr, toUtc, WALL_FORMAT } from './dates/zones.ts';

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
