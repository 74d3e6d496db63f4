// A series' rule in plain English: "Every Tuesday and Thursday until 30 June 2027", "Monthly on the first Thursday".
//
// Ours, not rrule-temporal's toText: that one says "every week on Tuesday and Thursday at 7 PM EST until June 30,
// 2027", naming the time (already in the event's dates) and in US order; the feature asks for these words.

import type { DateTime } from 'luxon';
import type { Rule, Weekday } from './rule.ts';
import { type SeriesStart, splitByDay, WEEKDAYS } from './rule.ts';
import { startClock, untilLocalDate, wallOf } from './rule-dates.ts';

const DAY_NAMES: Record<Weekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const ORDINAL_WORDS = ['', 'first', 'second', 'third', 'fourth', 'fifth'];

/** "a", "a and b", "a, b and c". */
export function joinAnd(items: string[]): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** 15 → "15th", 22 → "22nd". */
function numeric(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
}

/** An ordinal position in words: 1 → "first", 7 → "7th", -1 → "last", -2 → "second to last". */
function nth(n: number): string {
  if (n === -1) return 'last';
  if (n < 0) return `${nth(-n)} to last`;
  return ORDINAL_WORDS[n] ?? numeric(n);
}

/** Day of the month as said: 15 → "15th", -1 → "last day", -2 → "second to last day". */
const monthDay = (n: number): string => (n < 0 ? `${nth(n)} day` : numeric(n));

const dateWords = (d: DateTime): string => `${d.day} ${MONTHS[d.month - 1]} ${d.year}`;

/** The weekday list: "Tuesday and Thursday", "weekday" for MO–FR, "day" for all seven. */
function weekdays(days: Weekday[]): string {
  const set = [...new Set(days)].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));
  if (set.length === 7) return 'day';
  if (set.join() === 'MO,TU,WE,TH,FR') return 'weekday';
  if (set.join() === 'SA,SU') return 'weekend day';
  return joinAnd(set.map((d) => DAY_NAMES[d]));
}

/** The BYDAY list with its ordinals: "the first Thursday", "the last Friday", "Monday and Friday". */
function byDayWords(rule: Rule): string {
  const tokens = rule.byDay.map(splitByDay);
  const setPos = rule.bySetPos;
  if (tokens.every(([n]) => n === undefined)) {
    const days = weekdays(tokens.map(([, d]) => d));
    // BYDAY=TH;BYSETPOS=1: "the first Thursday"; BYDAY=MO,...,FR;BYSETPOS=-1: "the last weekday".
    if (setPos.length) return `the ${joinAnd(setPos.map(nth))} ${days}`;
    return days;
  }
  return `the ${joinAnd(tokens.map(([n, d]) => (n === undefined ? DAY_NAMES[d] : `${nth(n)} ${DAY_NAMES[d]}`)))}`;
}

const monthNames = (ms: number[]): string => joinAnd(ms.map((m) => MONTHS[m - 1]!));

/** "Every Tuesday", "Every 2 weeks on Monday", "Monthly on the first Thursday", "Every day". */
function cadence(rule: Rule, start: SeriesStart): string {
  const first = startClock(start);
  const startDay = WEEKDAYS[first.weekday - 1]!;
  const n = rule.interval;
  const inMonths = rule.byMonth.length ? ` in ${monthNames(rule.byMonth)}` : '';
  switch (rule.freq) {
    case 'DAILY': {
      if (rule.byDay.length && n === 1) return `Every ${byDayWords(rule)}${inMonths}`;
      const base = n === 1 ? 'Every day' : `Every ${n} days`;
      return `${base}${rule.byDay.length ? ` on ${byDayWords(rule)}` : ''}${inMonths}`;
    }
    case 'WEEKLY': {
      const days = rule.byDay.length ? byDayWords(rule) : DAY_NAMES[startDay];
      return n === 1 ? `Every ${days}${inMonths}` : `Every ${n} weeks on ${days}${inMonths}`;
    }
    case 'MONTHLY': {
      const head = n === 1 ? 'Monthly' : `Every ${n} months`;
      const on = rule.byDay.length
        ? byDayWords(rule)
        : `the ${joinAnd((rule.byMonthDay.length ? rule.byMonthDay : [first.day]).map(monthDay))}`;
      return `${head} on ${on}${inMonths}`;
    }
    case 'YEARLY': {
      const head = n === 1 ? 'Yearly' : `Every ${n} years`;
      const months = rule.byMonth.length ? rule.byMonth : [first.month];
      if (rule.byDay.length) return `${head} on ${byDayWords(rule)} of ${monthNames(months)}`;
      const days = rule.byMonthDay.length ? rule.byMonthDay : [first.day];
      if (days.length === 1 && days[0]! > 0 && months.length === 1)
        return `${head} on ${days[0]} ${MONTHS[months[0]! - 1]}`;
      return `${head} on the ${joinAnd(days.map(monthDay))} of ${monthNames(months)}`;
    }
  }
}

/** A list of stored dates in words: "24 December 2026", or "3 dates" when long. */
function dateListWords(values: string[]): string {
  if (values.length > 3) return `${values.length} dates`;
  return joinAnd(values.map((v) => dateWords(wallOf(v))));
}

/** The rule in plain English, for the series that starts at `start`. */
export function describeRule(rule: Rule, start: SeriesStart): string {
  let text = cadence(rule, start);
  if (rule.count !== undefined) text += rule.count === 1 ? ', once' : `, ${rule.count} times`;
  if (rule.until !== undefined) text += ` until ${dateWords(untilLocalDate(rule.until, start))}`;
  if (rule.rdate.length) text += `, also on ${dateListWords(rule.rdate)}`;
  if (rule.exdate.length) text += `, except ${dateListWords(rule.exdate)}`;
  return text;
}
