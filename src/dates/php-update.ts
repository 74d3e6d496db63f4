// From parsed fields to a Unix time as PHP does it (timelib_fill_holes, timelib_update_ts): wall-clock arithmetic.
import { DateTime, IANAZone, type Zone } from 'luxon';
import {
  DAY_OF_WEEK_IN_MONTH,
  dayOfWeek,
  LAST_DAY_OF_WEEK_IN_MONTH,
  type Parsed,
  type Relative,
  WEEKDAY_COUNT,
} from './php-parsed.ts';
import type { NamedZone } from './php-read.ts';
import { phpOffset } from './zones.ts';

/** A date and time's fields, as timelib keeps them (the same names a relative part uses). */
type Fields = Pick<Relative, 'y' | 'm' | 'd' | 'h' | 'i' | 's' | 'us'>;

/**
 * The Unix time `parsed` names when read at `now` (seconds) in `zone`, or null when it falls outside what a
 * JavaScript date can hold. Every step works on the wall clock (`+1 day` across a DST change keeps the clock time),
 * and only the last converts it to an instant in the zone the text named, or else in `zone`.
 */
export function resolvePhpDate(parsed: Parsed, now: number, zone: Zone): number | null {
  const t = fillHoles(parsed, now, zone);
  const rel = parsed.rel;
  // do_adjust_special_early
  if (parsed.haveSpecialRelative && rel.special.type === DAY_OF_WEEK_IN_MONTH) {
    t.d = 1;
    t.m += rel.m;
    rel.m = 0;
  } else if (parsed.haveSpecialRelative && rel.special.type === LAST_DAY_OF_WEEK_IN_MONTH) {
    t.d = 1;
    t.m += rel.m + 1;
    rel.m = 0;
  }
  firstOrLastDayOf(t, rel.firstLastDayOf);
  normalise(t);
  // do_adjust_relative
  if (parsed.haveWeekdayRelative) adjustForWeekday(t, rel.weekday, rel.weekdayBehavior, rel.d);
  normalise(t);
  if (parsed.haveRelative) {
    t.us += rel.us;
    t.s += rel.s;
    t.i += rel.i;
    t.h += rel.h;
    t.d += rel.d;
    t.m += rel.m;
    t.y += rel.y;
  }
  firstOrLastDayOf(t, rel.firstLastDayOf);
  normalise(t);
  // do_adjust_special
  if (parsed.haveSpecialRelative && rel.special.type === WEEKDAY_COUNT) addWeekdays(t, rel.special.amount);
  normalise(t);
  const wall = wallSeconds(t);
  if (!Number.isFinite(wall)) return null;
  return wall - offsetFor(wall, parsed.zone, zone);
}

/** timelib_fill_holes: what the text did not set comes from "now" in the zone; a date alone means midnight. */
function fillHoles(p: Parsed, now: number, zone: Zone): Fields {
  const local = DateTime.fromSeconds(now, { zone });
  const dateOnly = p.haveDate && !p.haveTime;
  return {
    y: p.y ?? local.year,
    m: p.m ?? local.month,
    d: p.d ?? local.day,
    h: dateOnly ? 0 : (p.h ?? local.hour),
    i: dateOnly ? 0 : (p.i ?? local.minute),
    s: dateOnly ? 0 : (p.s ?? local.second),
    us: dateOnly ? 0 : (p.us ?? 0),
  };
}

function firstOrLastDayOf(t: Fields, which: 0 | 1 | 2): void {
  if (which === 1) t.d = 1;
  else if (which === 2) {
    t.d = 0;
    t.m++;
  }
}

/** timelib_do_normalize: carries seconds into minutes … days, months into years, days into months. */
function normalise(t: Fields): void {
  const carry = Math.floor(t.us / 1e6);
  t.us -= carry * 1e6;
  const date = new Date(0);
  date.setUTCFullYear(t.y, t.m - 1, t.d);
  date.setUTCHours(t.h, t.i, t.s + carry, 0);
  if (Number.isNaN(date.getTime())) return;
  t.y = date.getUTCFullYear();
  t.m = date.getUTCMonth() + 1;
  t.d = date.getUTCDate();
  t.h = date.getUTCHours();
  t.i = date.getUTCMinutes();
  t.s = date.getUTCSeconds();
}

/** do_adjust_for_weekday, including PHP's rule that "next monday" on a Monday is a week later and "monday" is today. */
function adjustForWeekday(t: Fields, weekday: number, behavior: number, relativeDays: number): void {
  const dow = dayOfWeek(t.y, t.m, t.d);
  if (behavior === 2) {
    // "monday next week": the days of a week run Monday to Sunday.
    let target = weekday;
    if (dow === 0 && target !== 0) target -= 7;
    if (target === 0 && dow !== 0) target = 7;
    t.d += target - dow;
    return;
  }
  let difference = weekday - dow;
  if ((relativeDays < 0 && difference < 0) || (relativeDays >= 0 && difference <= -behavior)) difference += 7;
  if (weekday >= 0) t.d += difference;
  else t.d -= 7 - (Math.abs(weekday) - dow);
}

/** do_adjust_special_weekday: `+n weekdays` skips Saturdays and Sundays. */
function addWeekdays(t: Fields, count: number): void {
  const dow = dayOfWeek(t.y, t.m, t.d);
  t.d += Math.trunc(count / 5) * 7;
  const rem = count % 5;
  if (count > 0) {
    if (rem === 0) {
      if (dow === 0) t.d -= 2;
      else if (dow === 6) t.d -= 1;
    } else if (dow === 6) t.d += 1;
    else if (dow + rem > 5) t.d += 2;
  } else {
    if (rem === 0) {
      if (dow === 6) t.d += 2;
      else if (dow === 0) t.d += 1;
    } else if (dow === 0) t.d -= 1;
    else if (dow + rem < 1) t.d -= 2;
  }
  t.d += rem;
}

function wallSeconds(t: Fields): number {
  const date = new Date(0);
  date.setUTCFullYear(t.y, t.m - 1, t.d);
  date.setUTCHours(t.h, t.i, t.s, 0);
  return date.getTime() / 1000;
}

/** The UTC offset (seconds) to take off the wall clock: the text's own zone, else the caller's. */
function offsetFor(wall: number, named: NamedZone | null, zone: Zone): number {
  if (named !== null && 'offset' in named) return named.offset;
  return named !== null ? phpOffset(wall, IANAZone.create(named.id), true) : phpOffset(wall, zone);
}
