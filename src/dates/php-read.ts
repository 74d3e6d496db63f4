// The readers PHP's date parser applies inside a token (timelib's timelib_get_nr, timelib_meridian, lookups…).
import { IANAZone } from 'luxon';
import { ZONE_ABBREVIATIONS } from './php-abbr.ts';
import { PHP_ZONE_IDS } from './php-zones.ts';

/** A position in a token; past its end reads as NUL, as in the C string timelib walks. */
export class Cursor {
  readonly text: string;
  at = 0;
  constructor(text: string) {
    this.text = text;
  }
  get c(): string {
    return this.text[this.at] ?? '\0';
  }
}

const isDigit = (c: string) => c >= '0' && c <= '9';
const isLetter = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/** timelib_get_nr_ex: skips to the next digits and reads at most `max` of them; null when there are none. */
export function readNumber(cur: Cursor, max: number): { value: number; length: number } | null {
  while (!isDigit(cur.c)) {
    if (cur.c === '\0') return null;
    cur.at++;
  }
  const begin = cur.at;
  while (isDigit(cur.c) && cur.at - begin < max) cur.at++;
  return { value: Number(cur.text.slice(begin, cur.at)), length: cur.at - begin };
}

export const readNr = (cur: Cursor, max: number): number | null => readNumber(cur, max)?.value ?? null;

/** timelib_get_signed_nr: any run of signs (each `-` flips), then at most `max` digits; null is PHP's error. */
export function readSigned(cur: Cursor, max: number): number | null {
  while (!isDigit(cur.c) && cur.c !== '+' && cur.c !== '-') {
    if (cur.c === '\0') return null;
    cur.at++;
  }
  let sign = 1;
  while (cur.c === '+' || cur.c === '-') {
    if (cur.c === '-') sign = -sign;
    cur.at++;
  }
  while (!isDigit(cur.c)) {
    if (cur.c === '\0') return null;
    cur.at++;
  }
  const begin = cur.at;
  while (isDigit(cur.c) && cur.at - begin < max) cur.at++;
  const value = BigInt(cur.text.slice(begin, cur.at));
  // strtoll's ERANGE, which timelib reports as "Number out of range".
  if (value > 9223372036854775807n) return null;
  return sign * Number(value);
}

/** timelib_get_frac_nr: the digits after `.` or `:` as microseconds. */
export function readFraction(cur: Cursor): number {
  while (cur.c !== '.' && cur.c !== ':' && !isDigit(cur.c)) {
    if (cur.c === '\0') return 0;
    cur.at++;
  }
  const begin = cur.at;
  while (cur.c === '.' || cur.c === ':' || isDigit(cur.c)) cur.at++;
  const digits = cur.text.slice(begin + 1, cur.at);
  return Math.trunc((Number.parseFloat(digits) || 0) * 10 ** (7 - (cur.at - begin)));
}

/** timelib_meridian: the hours to add for the `am`/`pm` ahead (12am is 0h, 12pm stays 12h). */
export function readMeridian(cur: Cursor, hour: number): number {
  while (!'AaPp'.includes(cur.c)) {
    if (cur.c === '\0') return 0;
    cur.at++;
  }
  const delta = cur.c === 'a' || cur.c === 'A' ? (hour === 12 ? -12 : 0) : hour !== 12 ? 12 : 0;
  cur.at++;
  if (cur.c === '.') cur.at++;
  if (cur.c === 'M' || cur.c === 'm') cur.at++;
  if (cur.c === '.') cur.at++;
  return delta;
}

export function eatSpaces(cur: Cursor): void {
  while (cur.c === ' ' || cur.c === '\t' || cur.c === '\u00a0' || cur.c === '\u202f') cur.at++;
}

export function skipDaySuffix(cur: Cursor): void {
  if (/^(nd|rd|st|th)$/i.test(cur.text.slice(cur.at, cur.at + 2))) cur.at += 2;
}

function readWord(cur: Cursor, isPart: (c: string) => boolean): string {
  const begin = cur.at;
  while (cur.c !== '\0' && isPart(cur.c)) cur.at++;
  return cur.text.slice(begin, cur.at).toLowerCase();
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii'];
const FULL_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september'];
const MONTH_NUMBERS = new Map<string, number>([
  ...MONTHS.map((m, i) => [m, i + 1] as const),
  ['sept', 9],
  ...ROMAN.map((m, i) => [m, i + 1] as const),
  ...[...FULL_MONTHS, 'october', 'november', 'december'].map((m, i) => [m, i + 1] as const),
]);

/** timelib_lookup_month: the month named by the letters ahead; 0 when they name none. */
export const lookupMonth = (cur: Cursor): number => MONTH_NUMBERS.get(readWord(cur, isLetter)) ?? 0;

/** timelib_get_month: as lookupMonth after the separators a textual date may put first. */
export function readMonth(cur: Cursor): number {
  while (' \t-./'.includes(cur.c) && cur.c !== '\0') cur.at++;
  return lookupMonth(cur);
}

const RELATIVE_TEXT = new Map<string, { amount: number; behavior: number }>([
  ...['first', 'next', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh'].map(
    (w, i) => [w, { amount: Math.max(1, i), behavior: 0 }] as const,
  ),
  ['eight', { amount: 8, behavior: 0 }],
  ['eighth', { amount: 8, behavior: 0 }],
  ...['ninth', 'tenth', 'eleventh', 'twelfth'].map((w, i) => [w, { amount: 9 + i, behavior: 0 }] as const),
  ['last', { amount: -1, behavior: 0 }],
  ['previous', { amount: -1, behavior: 0 }],
  ['this', { amount: 0, behavior: 1 }],
]);

/** timelib_get_relative_text: `next` → 1, `third` → 3, `last` → -1, `this` → 0 with behaviour 1. */
export function readRelativeText(cur: Cursor): { amount: number; behavior: number } {
  while (' \t-/'.includes(cur.c) && cur.c !== '\0') cur.at++;
  return RELATIVE_TEXT.get(readWord(cur, isLetter)) ?? { amount: 0, behavior: 0 };
}

export type Unit = 'us' | 's' | 'i' | 'h' | 'd' | 'm' | 'y' | 'weekday' | 'special';
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const UNITS = new Map<string, { unit: Unit; multiplier: number }>();
const unitNames = (names: string[], unit: Unit, multiplier: number) => {
  for (const name of names) UNITS.set(name, { unit, multiplier });
};
unitNames(['ms', 'msec', 'msecs', 'millisecond', 'milliseconds'], 'us', 1000);
unitNames(['µs', 'usec', 'usecs', 'µsec', 'µsecs', 'microsecond', 'microseconds'], 'us', 1);
unitNames(['sec', 'secs', 'second', 'seconds'], 's', 1);
unitNames(['min', 'mins', 'minute', 'minutes'], 'i', 1);
unitNames(['hour', 'hours'], 'h', 1);
unitNames(['day', 'days'], 'd', 1);
unitNames(['week', 'weeks'], 'd', 7);
unitNames(['fortnight', 'fortnights', 'forthnight', 'forthnights'], 'd', 14);
unitNames(['month', 'months'], 'm', 1);
unitNames(['year', 'years'], 'y', 1);
for (const [dow, name] of DAY_NAMES.entries())
  unitNames([`${name}s`, name, name.slice(0, 3)], 'weekday', dow);
// timelib's TIMELIB_SPECIAL_WEEKDAY is 1, which is also what "weekday" alone counts as: a Monday.
unitNames(['weekday', 'weekdays'], 'special', 1);

const UNIT_END = new Set(['\0', ' ', ',', '\t', ';', ':', '/', '.', '-', '(', ')']);

/** timelib_lookup_relunit: the unit named up to the next separator, or null. */
export const readUnit = (cur: Cursor) => UNITS.get(readWord(cur, (c) => !UNIT_END.has(c))) ?? null;

/** A zone a date names: a fixed offset (from `+02:00` or an abbreviation) or a tz database identifier. */
export type NamedZone = { offset: number } | { id: string };

/** timelib_parse_tz_cor: `H`, `HH`, `H:MM`, `HHMM`, `HH:MM`, `HHMMSS`, `HH:MM:SS` as seconds; null if none. */
function readOffset(cur: Cursor): number | null {
  const begin = cur.at;
  while (isDigit(cur.c) || cur.c === ':') cur.at++;
  const t = cur.text.slice(begin, cur.at);
  const n = (s: string) => Number.parseInt(s, 10) || 0;
  switch (t.length) {
    case 1:
    case 2:
      return n(t) * 3600;
    case 3:
    case 4:
      if (t[1] === ':') return n(t) * 3600 + n(t.slice(2)) * 60;
      if (t[2] === ':') return n(t) * 3600 + n(t.slice(3)) * 60;
      return Math.trunc(n(t) / 100) * 3600 + (n(t) % 100) * 60;
    case 5:
      return t[2] === ':' ? n(t) * 3600 + n(t.slice(3)) * 60 : null;
    case 6:
      return Math.trunc(n(t) / 10000) * 3600 + (Math.trunc(n(t) / 100) % 100) * 60 + (n(t) % 100);
    case 8:
      return t[2] === ':' && t[5] === ':' ? n(t) * 3600 + n(t.slice(3)) * 60 + n(t.slice(6)) : null;
    default:
      return null;
  }
}

/** timelib_parse_zone: the zone a token names, or null when PHP finds none (an error that makes it return false). */
export function readZone(cur: Cursor): NamedZone | null {
  let parens = 0;
  while (cur.c === ' ' || cur.c === '\t' || cur.c === '(') {
    if (cur.c === '(') parens++;
    cur.at++;
  }
  if (/^GMT[+-]/.test(cur.text.slice(cur.at, cur.at + 4))) cur.at += 3;
  let zone: NamedZone | null;
  if (cur.c === '+' || cur.c === '-') {
    const sign = cur.c === '-' ? -1 : 1;
    cur.at++;
    const offset = readOffset(cur);
    zone = offset === null ? null : { offset: sign * offset };
  } else {
    const begin = cur.at;
    while (isLetter(cur.c) || isDigit(cur.c) || '/_-+'.includes(cur.c)) cur.at++;
    const word = cur.text.slice(begin, cur.at);
    // Abbreviations are looked up below glibc's TZNAME_MAX of 6 characters; "UTC" also names the UTC zone.
    const offset = word.length < 6 ? ZONE_ABBREVIATIONS.get(word.toLowerCase()) : undefined;
    const known = PHP_ZONE_IDS.has(word.toLowerCase()) && IANAZone.isValidZone(word);
    zone = offset !== undefined ? { offset } : known ? { id: word } : null;
  }
  while (parens > 0 && cur.c === ')') {
    cur.at++;
    parens--;
  }
  return zone;
}
