// The actions of PHP's relative tokens (parse_date.re): `+1 day`, `next wednesday`, `first monday of`, `ago`, zones.
import {
  DAY_OF_WEEK_IN_MONTH,
  fail,
  haveWeekdayRelative,
  haveZone,
  LAST_DAY_OF_WEEK_IN_MONTH,
  type Parsed,
  unhaveTime,
  WEEKDAY_COUNT,
} from './php-parsed.ts';
import {
  type Cursor,
  eatSpaces,
  readNumber,
  readRelativeText,
  readSigned,
  readUnit,
  readZone,
} from './php-read.ts';
import type { Rule } from './php-rules.ts';

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

/** Applies a relative or zone token; false when `rule` is not one. */
export function actRelative(t: Parsed, rule: Rule, cur: Cursor): boolean {
  switch (rule) {
    case 'yesterday':
    case 'tomorrow':
      t.haveRelative = true;
      unhaveTime(t);
      t.rel.d = rule === 'yesterday' ? -1 : 1;
      return true;
    case 'timestamp': {
      t.haveRelative = true;
      t.haveDate = false;
      t.y = t.m = t.d = 0;
      unhaveTime(t);
      if (!haveZone(t)) return true;
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
      return true;
    }
    case 'firstlastdayof':
      // timelib resets the time here, but marks that "Don't merge into PHP": PHP keeps it.
      t.haveRelative = true;
      t.rel.firstLastDayOf = cur.c === 'l' || cur.c === 'L' ? 2 : 1;
      return true;
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
      return true;
    }
    case 'ago':
      for (const key of ['y', 'm', 'd', 'h', 'i', 's'] as const) t.rel[key] = -t.rel[key];
      t.rel.weekday = -t.rel.weekday;
      if (t.rel.weekday === 0) t.rel.weekday = -7;
      if (t.haveSpecialRelative && t.rel.special.type === WEEKDAY_COUNT) t.rel.special.amount *= -1;
      return true;
    case 'daytext': {
      haveWeekdayRelative(t);
      unhaveTime(t);
      const unit = readUnit(cur);
      t.rel.weekday = unit?.multiplier ?? 0;
      if (t.rel.weekdayBehavior !== 2) t.rel.weekdayBehavior = 1;
      return true;
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
      return true;
    case 'zone':
      if (!haveZone(t)) return true;
      eatSpaces(cur);
      t.zone = readZone(cur) ?? fail();
      return true;
    case 'relative':
      t.haveRelative = true;
      while (cur.c !== '\0') {
        const amount = readSigned(cur, 24) ?? fail();
        eatSpaces(cur);
        setRelative(t, cur, amount, 1, true);
      }
      return true;
    default:
      return false;
  }
}
