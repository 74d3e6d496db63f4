// The actions of PHP's date and time tokens (parse_date.re): `2027-06-12`, `4pm`, `June 12th`, `16:30:00+02:00`.
import { dayOfWeek, fail, haveDate, haveTime, type Parsed, unhaveTime, year } from './php-parsed.ts';
import {
  type Cursor,
  eatSpaces,
  lookupMonth,
  readFraction,
  readMeridian,
  readMonth,
  readNr,
  readNumber,
  readSigned,
  readZone,
  skipDaySuffix,
} from './php-read.ts';
import type { Rule } from './php-rules.ts';

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

/** Applies a date or time token; false when `rule` is not one. */
export function actClock(t: Parsed, rule: Rule, cur: Cursor): boolean {
  switch (rule) {
    case 'noon':
      unhaveTime(t);
      haveTime(t);
      t.h = 12;
      return true;
    case 'today':
      unhaveTime(t);
      return true;
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
      return true;
    }
    case 'time12':
      haveTime(t);
      readClock(t, cur, ':.', false);
      eatSpaces(cur);
      t.h = (t.h ?? 0) + readMeridian(cur, t.h ?? 0);
      return true;
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
      return true;
    case 'time24':
      haveTime(t);
      readClock(t, cur, ':.', true);
      zoneAfter(t, cur);
      return true;
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
      return true;
    case 'iso8601nocolon':
      haveTime(t);
      t.h = readNr(cur, 2);
      t.i = readNr(cur, 2);
      t.s = readNr(cur, 2);
      zoneAfter(t, cur);
      return true;
    case 'american':
      haveDate(t);
      t.m = readNr(cur, 2);
      t.d = readNr(cur, 2);
      if (cur.c === '/') t.y = year(readNumber(cur, 4));
      return true;
    case 'iso8601date':
    case 'iso8601datex':
      haveDate(t);
      t.y = readSigned(cur, rule === 'iso8601date' ? 4 : 19) ?? fail();
      t.m = readNr(cur, 2);
      t.d = readNr(cur, 2);
      return true;
    case 'iso8601date2':
    case 'gnudateshort':
      haveDate(t);
      {
        const y = readNumber(cur, 4);
        t.m = readNr(cur, 2);
        t.d = readNr(cur, 2);
        t.y = year(y);
      }
      return true;
    case 'gnudateshorter':
      haveDate(t);
      t.y = year(readNumber(cur, 4));
      t.m = readNr(cur, 2);
      t.d = 1;
      return true;
    case 'datefull':
      haveDate(t);
      t.d = readNr(cur, 2);
      skipDaySuffix(cur);
      t.m = readMonth(cur);
      t.y = year(readNumber(cur, 4));
      return true;
    case 'pointeddate4':
      haveDate(t);
      t.d = readNr(cur, 2);
      t.m = readNr(cur, 2);
      t.y = readNr(cur, 4);
      return true;
    case 'pointeddate2':
      haveDate(t);
      t.d = readNr(cur, 2);
      t.m = readNr(cur, 2);
      t.y = year(readNumber(cur, 2));
      return true;
    case 'datenoday':
      haveDate(t);
      t.m = readMonth(cur);
      t.y = year(readNumber(cur, 4));
      t.d = 1;
      return true;
    case 'datenodayrev':
      haveDate(t);
      t.y = year(readNumber(cur, 4));
      t.m = readMonth(cur);
      t.d = 1;
      return true;
    case 'datetextual':
    case 'pgtextshort':
      haveDate(t);
      t.m = readMonth(cur);
      t.d = readNr(cur, 2);
      t.y = year(readNumber(cur, 4));
      return true;
    case 'datenoyearrev':
      haveDate(t);
      t.d = readNr(cur, 2);
      skipDaySuffix(cur);
      t.m = readMonth(cur);
      return true;
    case 'datenocolon':
      haveDate(t);
      t.y = readNr(cur, 4);
      t.m = readNr(cur, 2);
      t.d = readNr(cur, 2);
      return true;
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
      return true;
    case 'pgydotd':
      haveDate(t);
      t.y = year(readNumber(cur, 4));
      t.d = readNr(cur, 3);
      t.m = 1;
      return true;
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
      return true;
    }
    case 'pgtextreverse':
      haveDate(t);
      {
        const y = readNumber(cur, 4);
        t.m = readMonth(cur);
        t.d = readNr(cur, 2);
        t.y = year(y);
      }
      return true;
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
      return true;
    case 'year4':
      t.y = readNr(cur, 4);
      return true;
    case 'monthtext':
      haveDate(t);
      t.m = lookupMonth(cur);
      return true;
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
      return true;
    default:
      return false;
  }
}
