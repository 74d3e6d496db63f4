// PHP's date parser (timelib_strtotime): a text into the fields it sets, the relative moves it asks, its zone.
import {
  Cursor,
  eatSpaces,
  lookupMonth,
  type NamedZone,
  readFraction,
  readMeridian,
  readMonth,
  readNr,
  readNumber,
  readRelativeText,
  readSigned,
  readUnit,
  readZone,
  skipDaySuffix,
} from './php-read.ts';
import { nextToken, type Rule } from './php-rules.ts';

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
class ParseError extends Error {}
const fail = (): never => {
  throw new ParseError();
};

/** PHP trims with C's isspace before parsing. */
const trimC = (text: string) => text.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');

/** Parses `text` as timelib does; null where PHP reports an error (and its strtotime returns false). */
export function scanPhpDate(text: string): Parsed | null {
  if (text === '') return null;
  // PHP's timelib stops trimming at the last character, so a blank text scans that one blank: "now" for a space.
  const trimmed = trimC(text) || text[text.length - 1];
  const t: Parsed = {
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
  // The scanner reads NUL after the text (some tokens, like `4pm`, end on it).
  const input = `${trimmed}\0`;
  try {
    for (let at = 0; at < trimmed.length; ) {
      const token = nextToken(input, at);
      act(t, token.rule, new Cursor(token.text));
      at += token.text.length;
    }
  } catch (error) {
    if (error instanceof ParseError) return null;
    throw error;
  }
  return t;
}

function haveTime(t: Parsed): void {
  if (t.haveTime) fail();
  t.haveTime = 1;
  t.h = t.i = t.s = t.us = 0;
}
function unhaveTime(t: Parsed): void {
  t.haveTime = 0;
  t.h = t.i = t.s = t.us = 0;
}
function haveDate(t: Parsed): void {
  if (t.haveDate) fail();
  t.haveDate = true;
}
/** A second zone is only a warning (the token is skipped), a third an error. */
function haveZone(t: Parsed): boolean {
  t.haveZone++;
  if (t.haveZone > 2) fail();
  return t.haveZone === 1;
}
function haveWeekdayRelative(t: Parsed): void {
  t.haveRelative = true;
  t.haveWeekdayRelative = true;
}

/** TIMELIB_PROCESS_YEAR: two-digit years are 1970–2069. */
function year(read: { value: number; length: number } | null): number | null {
  if (read === null || read.length >= 4) return read?.value ?? null;
  return read.value < 100 ? read.value + (read.value < 70 ? 2000 : 1900) : read.value;
}

/** timelib_set_relative: `amount` of the unit ahead; weekdays and `weekday` counts reset the time unless kept. */
function setRelative(t: Parsed, cur: Cursor, amount: number, behavior: number, keepTime: boolean): void {
  const unit = readUnit(cur);
  if (unit === null) return;
  switch (unit.unit) {
    case 'weekday':
      haveWeekdayRelative(t);
      if (!keepTime) unhaveTime(t);
      t.rel.d += (amount > 0 ? amount - 1 : amount) * 7;
      t.rel.weekday = unit.multiplier;
      t.rel.weekdayBehavior = behavior;
      return;
    case 'special':
      t.haveRelative = true;
      t.haveSpecialRelative = true;
      if (!keepTime) unhaveTime(t);
      t.rel.special = { type: unit.multiplier, amount };
      return;
    default:
      t.rel[unit.unit] += amount * unit.multiplier;
  }
}

/** Reads `h[:i[:s[.frac]]]` into the time fields. */
function readClock(t: Parsed, cur: Cursor, separators: string, withFraction: boolean): void {
  t.h = readNr(cur, 2);
  if (separators.includes(cur.c)) {
    t.i = readNr(cur, 2);
    if (separators.includes(cur.c)) {
      t.s = readNr(cur, 2);
      if (withFraction && cur.c === '.') t.us = readFraction(cur);
    }
  }
}

function zoneAfter(t: Parsed, cur: Cursor): void {
  if (cur.c !== '\0') t.zone = readZone(cur) ?? fail();
}

function act(t: Parsed, rule: Rule, cur: Cursor): void {
  switch (rule) {
    case 'yesterday':
    case 'tomorrow':
      t.haveRelative = true;
      unhaveTime(t);
      t.rel.d = rule === 'yesterday' ? -1 : 1;
      return;
    case 'now':
    case 'skip':
      return;
    case 'noon':
      unhaveTime(t);
      haveTime(t);
      t.h = 12;
      return;
    case 'today':
      unhaveTime(t);
      return;
    case 'timestamp': {
      t.haveRelative = true;
      t.haveDate = false;
      t.y = t.m = t.d = 0;
      unhaveTime(t);
      if (!haveZone(t)) return;
      const seconds = readSigned(cur, 24) ?? fail();
      let us = 0;
      if (cur.c === '.') {
        const begin = cur.at;
        const fraction = readNumber(cur, 6) ?? fail();
        us = fraction.value * 10 ** (7 - (cur.at - begin));
        if (cur.text[1] === '-') us = -us;
      }
      t.y = 1970;
      t.m = 1;
      t.d = 1;
      t.h = t.i = t.s = t.us = 0;
      t.rel.s += seconds;
      t.rel.us = us;
      t.zone = { offset: 0 };
      return;
    }
    case 'firstlastdayof':
      // timelib resets the time here, but marks that "Don't merge into PHP": PHP keeps it.
      t.haveRelative = true;
      t.rel.firstLastDayOf = cur.c === 'l' || cur.c === 'L' ? 2 : 1;
      return;
    case 'backfrontof': {
      unhaveTime(t);
      haveTime(t);
      // timelib tests for a lower-case `b`: "Back of 7pm" is read as "front of" (18:45), as PHP does.
      const back = cur.c === 'b';
      const hour = readNr(cur, 2) ?? 0;
      t.h = back ? hour : hour - 1;
      t.i = back ? 15 : 45;
      if (cur.c !== '\0') {
        eatSpaces(cur);
        if (cur.c !== '\0') t.h += readMeridian(cur, t.h);
      }
      return;
    }
    case 'weekdayof': {
      t.haveRelative = true;
      t.haveSpecialRelative = true;
      const { amount, behavior } = readRelativeText(cur);
      eatSpaces(cur);
      if (amount > 0) {
        t.rel.special.type = DAY_OF_WEEK_IN_MONTH;
        setRelative(t, cur, amount, 1, false);
      } else {
        t.rel.special.type = LAST_DAY_OF_WEEK_IN_MONTH;
        setRelative(t, cur, amount, behavior, false);
      }
      return;
    }
    case 'time12':
      haveTime(t);
      readClock(t, cur, ':.', false);
      eatSpaces(cur);
      t.h = (t.h ?? 0) + readMeridian(cur, t.h ?? 0);
      return;
    case 'mssqltime':
      haveTime(t);
      t.h = readNr(cur, 2);
      t.i = readNr(cur, 2);
      if (cur.c === ':' || cur.c === '.') {
        t.s = readNr(cur, 2);
        if (cur.c === ':' || cur.c === '.') t.us = readFraction(cur);
      }
      eatSpaces(cur);
      t.h = (t.h ?? 0) + readMeridian(cur, t.h ?? 0);
      return;
    case 'time24':
      haveTime(t);
      readClock(t, cur, ':.', true);
      zoneAfter(t, cur);
      return;
    case 'gnunocolon':
      if (t.haveTime === 0) {
        t.h = readNr(cur, 2);
        t.i = readNr(cur, 2);
        t.s = 0;
      } else if (t.haveTime === 1) {
        t.y = readNr(cur, 4);
      } else {
        fail();
      }
      t.haveTime++;
      return;
    case 'iso8601nocolon':
      haveTime(t);
      t.h = readNr(cur, 2);
      t.i = readNr(cur, 2);
      t.s = readNr(cur, 2);
      zoneAfter(t, cur);
      return;
    case 'american':
      haveDate(t);
      t.m = readNr(cur, 2);
      t.d = readNr(cur, 2);
      if (cur.c === '/') t.y = year(readNumber(cur, 4));
      return;
    case 'iso8601date':
    case 'iso8601datex':
      haveDate(t);
      t.y = readSigned(cur, rule === 'iso8601date' ? 4 : 19) ?? fail();
      t.m = readNr(cur, 2);
      t.d = readNr(cur, 2);
      return;
    case 'iso8601date2':
    case 'gnudateshort':
      haveDate(t);
      {
        const y = readNumber(cur, 4);
        t.m = readNr(cur, 2);
        t.d = readNr(cur, 2);
        t.y = year(y);
      }
      return;
    case 'gnudateshorter':
      haveDate(t);
      t.y = year(readNumber(cur, 4));
      t.m = readNr(cur, 2);
      t.d = 1;
      return;
    case 'datefull':
      haveDate(t);
      t.d = readNr(cur, 2);
      skipDaySuffix(cur);
      t.m = readMonth(cur);
      t.y = year(readNumber(cur, 4));
      return;
    case 'pointeddate4':
      haveDate(t);
      t.d = readNr(cur, 2);
      t.m = readNr(cur, 2);
      t.y = readNr(cur, 4);
      return;
    case 'pointeddate2':
      haveDate(t);
      t.d = readNr(cur, 2);
      t.m = readNr(cur, 2);
      t.y = year(readNumber(cur, 2));
      return;
    case 'datenoday':
      haveDate(t);
      t.m = readMonth(cur);
      t.y = year(readNumber(cur, 4));
      t.d = 1;
      return;
    case 'datenodayrev':
      haveDate(t);
      t.y = year(readNumber(cur, 4));
      t.m = readMonth(cur);
      t.d = 1;
      return;
    case 'datetextual':
    case 'pgtextshort':
      haveDate(t);
      t.m = readMonth(cur);
      t.d = readNr(cur, 2);
      t.y = year(readNumber(cur, 4));
      return;
    case 'datenoyearrev':
      haveDate(t);
      t.d = readNr(cur, 2);
      skipDaySuffix(cur);
      t.m = readMonth(cur);
      return;
    case 'datenocolon':
      haveDate(t);
      t.y = readNr(cur, 4);
      t.m = readNr(cur, 2);
      t.d = readNr(cur, 2);
      return;
    case 'xmlrpc':
      haveTime(t);
      haveDate(t);
      t.y = readNr(cur, 4);
      t.m = readNr(cur, 2);
      t.d = readNr(cur, 2);
      t.h = readNr(cur, 2);
      t.i = readNr(cur, 2);
      t.s = readNr(cur, 2);
      if (cur.c === '.') {
        t.us = readFraction(cur);
        zoneAfter(t, cur);
      }
      return;
    case 'pgydotd':
      haveDate(t);
      t.y = year(readNumber(cur, 4));
      t.d = readNr(cur, 3);
      t.m = 1;
      return;
    case 'isoweekday':
    case 'isoweek': {
      haveDate(t);
      t.haveRelative = true;
      const y = readNr(cur, 4) ?? 0;
      const w = readNr(cur, 2) ?? 0;
      const d = rule === 'isoweekday' ? (readNr(cur, 1) ?? 0) : 1;
      t.y = y;
      t.m = 1;
      t.d = 1;
      // timelib_daynr_from_weeknr: day 1 of week 1 is the Monday of the week holding 4 January.
      const dow = dayOfWeek(y, 1, 1);
      t.rel.d = -(dow > 4 ? dow - 7 : dow) + (w - 1) * 7 + d;
      return;
    }
    case 'pgtextreverse':
      haveDate(t);
      {
        const y = readNumber(cur, 4);
        t.m = readMonth(cur);
        t.d = readNr(cur, 2);
        t.y = year(y);
      }
      return;
    case 'clf':
      haveTime(t);
      haveDate(t);
      t.d = readNr(cur, 2);
      t.m = readMonth(cur);
      t.y = readNr(cur, 4);
      t.h = readNr(cur, 2);
      t.i = readNr(cur, 2);
      t.s = readNr(cur, 2);
      eatSpaces(cur);
      t.zone = readZone(cur) ?? fail();
      return;
    case 'year4':
      t.y = readNr(cur, 4);
      return;
    case 'ago':
      for (const key of ['y', 'm', 'd', 'h', 'i', 's'] as const) t.rel[key] = -t.rel[key];
      t.rel.weekday = -t.rel.weekday;
      if (t.rel.weekday === 0) t.rel.weekday = -7;
      if (t.haveSpecialRelative && t.rel.special.type === WEEKDAY_COUNT) t.rel.special.amount *= -1;
      return;
    case 'daytext': {
      haveWeekdayRelative(t);
      unhaveTime(t);
      const unit = readUnit(cur);
      t.rel.weekday = unit?.multiplier ?? 0;
      if (t.rel.weekdayBehavior !== 2) t.rel.weekdayBehavior = 1;
      return;
    }
    case 'relativetextweek':
    case 'relativetext':
      t.haveRelative = true;
      while (cur.c !== '\0') {
        const before = cur.at;
        const { amount, behavior } = readRelativeText(cur);
        eatSpaces(cur);
        setRelative(t, cur, amount, behavior, false);
        if (rule === 'relativetextweek') {
          t.rel.weekdayBehavior = 2;
          // "next week" alone means that week's Monday, at the same time.
          if (!t.haveWeekdayRelative) {
            haveWeekdayRelative(t);
            t.rel.weekday = 1;
          }
        }
        if (cur.at === before) fail();
      }
      return;
    case 'monthtext':
      haveDate(t);
      t.m = lookupMonth(cur);
      return;
    case 'zone':
      if (!haveZone(t)) return;
      eatSpaces(cur);
      t.zone = readZone(cur) ?? fail();
      return;
    case 'dateshortwithtime12':
    case 'dateshortwithtime':
      haveDate(t);
      t.m = readMonth(cur);
      t.d = readNr(cur, 2);
      haveTime(t);
      t.h = readNr(cur, 2);
      t.i = readNr(cur, 2);
      if (cur.c === ':' || (rule === 'dateshortwithtime12' && cur.c === '.')) {
        t.s = readNr(cur, 2);
        if (cur.c === '.') t.us = readFraction(cur);
      }
      if (rule === 'dateshortwithtime12') t.h = (t.h ?? 0) + readMeridian(cur, t.h ?? 0);
      else zoneAfter(t, cur);
      return;
    case 'relative':
      t.haveRelative = true;
      while (cur.c !== '\0') {
        const amount = readSigned(cur, 24) ?? fail();
        eatSpaces(cur);
        setRelative(t, cur, amount, 1, true);
      }
      return;
    case 'any':
      fail();
  }
}

/** 0 for Sunday … 6 for Saturday, on the proleptic Gregorian calendar. */
export function dayOfWeek(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCDay();
}
