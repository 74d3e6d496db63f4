// What PHP's date parser records (timelib_time): fields, relative moves, zone; and the checks its rules share.
import type { NamedZone } from './php-read.ts';

/** timelib's special relatives: `weekday` counts, and `first/last <weekday> of`. */
export const WEEKDAY_COUNT = 1;
export const DAY_OF_WEEK_IN_MONTH = 2;
export const LAST_DAY_OF_WEEK_IN_MONTH = 3;

export interface Relative {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
  us: number;
  weekday: number;
  /** 0: the day itself does not count (`next monday`), 1: it does (`monday`), 2: within the week (`monday next week`). */
  weekdayBehavior: number;
  /** 1: `first day of`, 2: `last day of`. */
  firstLastDayOf: 0 | 1 | 2;
  special: { type: number; amount: number };
}

/** timelib_time as the scanner leaves it; null fields are TIMELIB_UNSET, filled from "now" later. */
export interface Parsed {
  y: number | null;
  m: number | null;
  d: number | null;
  h: number | null;
  i: number | null;
  s: number | null;
  us: number | null;
  haveTime: number;
  haveDate: boolean;
  haveZone: number;
  haveRelative: boolean;
  haveWeekdayRelative: boolean;
  haveSpecialRelative: boolean;
  rel: Relative;
  zone: NamedZone | null;
}

/** Any of these makes PHP's strtotime return false. */
export class ParseError extends Error {}
export const fail = (): never => {
  throw new ParseError();
};

/** A timelib_time with nothing set. */
export function newParsed(): Parsed {
  return {
    y: null,
    m: null,
    d: null,
    h: null,
    i: null,
    s: null,
    us: null,
    haveTime: 0,
    haveDate: false,
    haveZone: 0,
    haveRelative: false,
    haveWeekdayRelative: false,
    haveSpecialRelative: false,
    rel: {
      y: 0,
      m: 0,
      d: 0,
      h: 0,
      i: 0,
      s: 0,
      us: 0,
      weekday: 0,
      weekdayBehavior: 0,
      firstLastDayOf: 0,
      special: { type: 0, amount: 0 },
    },
    zone: null,
  };
}

export function haveTime(t: Parsed): void {
  if (t.haveTime) fail();
  t.haveTime = 1;
  t.h = t.i = t.s = t.us = 0;
}
export function unhaveTime(t: Parsed): void {
  t.haveTime = 0;
  t.h = t.i = t.s = t.us = 0;
}
export function haveDate(t: Parsed): void {
  if (t.haveDate) fail();
  t.haveDate = true;
}
/** A second zone is only a warning (the token is skipped), a third an error. */
export function haveZone(t: Parsed): boolean {
  t.haveZone++;
  if (t.haveZone > 2) fail();
  return t.haveZone === 1;
}
export function haveWeekdayRelative(t: Parsed): void {
  t.haveRelative = true;
  t.haveWeekdayRelative = true;
}

/** TIMELIB_PROCESS_YEAR: two-digit years are 1970–2069. */
export function year(read: { value: number; length: number } | null): number | null {
  if (read === null || read.length >= 4) return read?.value ?? null;
  return read.value < 100 ? read.value + (read.value < 70 ? 2000 : 1900) : read.value;
}

/** 0 for Sunday … 6 for Saturday, on the proleptic Gregorian calendar. */
export function dayOfWeek(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCDay();
}
