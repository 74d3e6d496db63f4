// Time zones as TEC names them (IANA ids, `UTC`, manual `UTC±N` offsets) and wall-clock ⇄ UTC conversion.
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { utcWallOf } from './utc-wall.ts';

/** WordPress/TEC stored format of every date: `Y-m-d H:i:s`. */
export const WALL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

// TEC's manual offsets come from WordPress's gmt_offset: `UTC+2`, `UTC-5:30`, and also `UTC+5.5`, `UTC+05:30`.
const MANUAL_OFFSET = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?:(?::?(\d{2}))|\.(\d+))?$/i;

/** A luxon zone name for a TEC/PHP time zone string, or null when PHP would not accept it either. */
export function normaliseTimezone(tz: string): string | null {
  // Checking a zone builds an Intl formatter (tens of µs); every date of every answer asks, for a handful of zones.
  let hit = normalised.get(tz);
  if (hit === undefined) {
    hit = normalise(tz);
    if (normalised.size >= 1000) normalised.clear();
    normalised.set(tz, hit);
  }
  return hit;
}

const normalised = new Map<string, string | null>();

function normalise(tz: string): string | null {
  const value = tz.trim();
  if (/^(UTC|GMT|Z|Etc\/UTC|UTC[+-]0+(:?0+)?)$/i.test(value)) return 'UTC';
  const manual = MANUAL_OFFSET.exec(value);
  if (manual) return offsetZoneName(manual);
  if (!IANAZone.isValidZone(value)) return null;
  // The canonical spelling (`america/new_york` → `America/New_York`), as PHP's DateTimeZone reports it.
  return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
}

function offsetZoneName([, sign, hours, minutes, decimal]: RegExpExecArray): string | null {
  const h = Number(hours);
  const m = decimal !== undefined ? Math.round(Number(`0.${decimal}`) * 60) : Number(minutes ?? 0);
  if (h > 14 || m >= 60) return null;
  const total = (sign === '-' ? -1 : 1) * (h * 60 + m);
  return total === 0 ? 'UTC' : FixedOffsetZone.instance(total).name;
}

/** The luxon zone for a name `normaliseTimezone` accepts; falls back to UTC so callers never throw mid-request. */
export function zoneOf(tz: string): string {
  return normaliseTimezone(tz) ?? 'UTC';
}

/** The luxon Zone object for `tz` (as `zoneOf` names it). */
export function zoneObjectOf(tz: string): Zone {
  const name = zoneOf(tz);
  if (name === 'UTC') return FixedOffsetZone.utcInstance;
  return FixedOffsetZone.parseSpecifier(name) ?? IANAZone.create(name);
}

/**
 * Reads a `Y-m-d H:i:s` wall clock in `tz` as PHP's DateTime does (see `phpOffset`); null when the string is not in
 * that format or not a real date.
 */
export function wallClockIn(wallClock: string, tz: string): DateTime | null {
  const seconds = wallSeconds(wallClock);
  if (seconds === null) return null;
  const zone = zoneObjectOf(tz);
  return DateTime.fromSeconds(seconds - phpOffset(seconds, zone), { zone });
}

const WALL_PARTS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A `Y-m-d H:i:s` wall clock as seconds, read as UTC; null when it is not in that format or not a real date (no
 * 30 February, no 24:00). Read by a pattern: luxon's format parser cost more than the conversion it serves, on every
 * event a list serialises.
 */
function wallSeconds(wallClock: string): number | null {
  const m = WALL_PARTS.exec(wallClock);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const at = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC maps years 0–99 to 1900–1999; set the year itself.
  at.setUTCFullYear(y);
  const real =
    at.getUTCFullYear() === y &&
    at.getUTCMonth() === mo - 1 &&
    at.getUTCDate() === d &&
    at.getUTCHours() === h &&
    at.getUTCMinutes() === mi &&
    at.getUTCSeconds() === s;
  return real ? at.getTime() / 1000 : null;
}

const offsetAt = (zone: Zone, seconds: number) => zone.offset(seconds * 1000) * 60;

/**
 * The UTC offset (seconds) PHP gives the wall clock `wall` (seconds, read as UTC) in `zone` (timelib's
 * do_adjust_timezone): the offset at the wall clock read as UTC, unless the offset that far back differs. So a clock
 * in a spring-forward gap moves on by the gap, and a clock in the repeated autumn hour takes the offset PHP finds
 * first, which is not always the same side: standard time in Madrid and Chatham, daylight time in New York and
 * Lord Howe. luxon picks otherwise in some of these, hence this instead of its `fromObject`.
 */
export function phpOffset(wall: number, zone: Zone, namedInText = false): number {
  if (zone.isUniversal) return offsetAt(zone, 0);
  const current = offsetAt(zone, wall);
  const after = offsetAt(zone, wall - current);
  let actual = after;
  let transition = lastChange(zone, wall - current);
  // A zone named in the text itself ("… Europe/Paris") east of UTC looks two hours back as well, which puts the
  // repeated hour on daylight time there (timelib reads the unset DST flag of such a zone as set).
  if (namedInText && current === after && current >= 0 && !DateTime.fromSeconds(wall, { zone }).isInDST) {
    const earlier = offsetAt(zone, wall - current - 7200);
    if (earlier !== after && transition !== null && wall - earlier < transition) {
      actual = earlier;
      transition = lastChange(zone, wall - current - 7200);
    }
  }
  if (current === actual) return current;
  const inTransition =
    transition !== null && wall - actual >= transition + (current - actual) && wall - actual < transition;
  return inTransition ? current : actual;
}

/** When the offset in force at `at` began, if within the two days before (further back cannot matter here). */
function lastChange(zone: Zone, at: number): number | null {
  const offset = offsetAt(zone, at);
  let lo = at - 2 * 86400;
  if (offsetAt(zone, lo) === offset) return null;
  let hi = at;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(zone, mid) === offset) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Converts a wall clock in `tz` to the UTC wall clock, as PHP's DateTime does (see `phpOffset`). */
export function toUtc(localWallClock: string, tz: string): string {
  const seconds = wallSeconds(localWallClock);
  if (seconds === null) throw new RangeError(`Not a Y-m-d H:i:s date: ${localWallClock}`);
  return utcWallOf((seconds - phpOffset(seconds, zoneObjectOf(tz))) * 1000);
}

/** Converts a UTC wall clock to the wall clock of `tz`. */
export function fromUtc(utcWallClock: string, tz: string): string {
  const dt = wallClockIn(utcWallClock, 'UTC');
  if (!dt) throw new RangeError(`Not a Y-m-d H:i:s date: ${utcWallClock}`);
  return dt.setZone(zoneOf(tz)).toFormat(WALL_FORMAT);
}

// Intl only names a zone's abbreviation in the locale that uses it (CET in en-GB, IST in en-IN, AEDT in en-AU).
const ABBR_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU', 'en-NZ', 'en-CA', 'en-ZA'];

/**
 * The abbreviation PHP's `T` format gives at that wall clock: `EST`, `CET`; `+03` where the zone has no letters;
 * for manual offsets TEC keeps the offset name itself (`UTC+2`).
 */
export function timezoneAbbr(localWallClock: string, tz: string): string {
  const zone = normaliseTimezone(tz);
  if (zone === null) return '';
  if (zone === 'UTC') return 'UTC';
  if (zone.startsWith('UTC')) return tz.trim().toUpperCase().startsWith('UTC') ? tz.trim() : zone;
  const dt = wallClockIn(localWallClock, zone);
  if (!dt) return '';
  // A zone's abbreviation follows its offset (CET, CEST), and its era (the year): asking Intl's locales costs ~0.2 ms,
  // so it is asked once per zone, offset and year.
  const key = `${zone}|${dt.offset}|${dt.year}`;
  let name = ABBRS.get(key);
  if (name === undefined) {
    name = abbrAsked(dt);
    if (ABBRS.size >= 10_000) ABBRS.clear();
    ABBRS.set(key, name);
  }
  return name;
}

const ABBRS = new Map<string, string>();

function abbrAsked(dt: DateTime): string {
  for (const locale of ABBR_LOCALES) {
    const name = dt.setLocale(locale).offsetNameShort;
    if (name && !/^(GMT|UTC)[+-]/.test(name)) return name;
  }
  // PHP prints "+03", "-03", "+0530" for zones without a lettered abbreviation.
  const sign = dt.offset < 0 ? '-' : '+';
  const abs = Math.abs(dt.offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  return abs % 60 === 0 ? `${sign}${hh}` : `${sign}${hh}${String(abs % 60).padStart(2, '0')}`;
}

/**
 * What the first writes would ask Intl, asked at start-up: the abbreviation and offsets of `tz` this year and next, in
 * both halves of the year. Each new zone, locale and year costs Intl milliseconds of main-thread time the first time
 * (18 ms of CPU inside a create, measured by `BENCH_BUSY_TASKS=1 npm run bench:busy`), while reads wait. As steps, for
 * a start that runs each in a turn of its own (together one task of 16–26 ms). A zone Intl does not know only means
 * nothing to warm: the write that names it answers the error.
 */
export function zoneWarmUps(tz: string, now: Date): Array<() => void> {
  const y = now.getUTCFullYear();
  const steps: Array<() => void> = [];
  const quietly = (f: () => unknown) => () => {
    try {
      f();
    } catch {
      // See above.
    }
  };
  for (const year of [y, y + 1])
    for (const month of ['01', '07']) {
      const wall = `${year}-${month}-15 12:00:00`;
      steps.push(
        quietly(() => toUtc(wall, tz)),
        quietly(() => timezoneAbbr(wall, tz)),
      );
    }
  return steps;
}
