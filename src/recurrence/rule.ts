// A series' rule: parsed from the API's `recurrence` (object or text), validated with reasons, stored as one text.
//
// RFC 5545's RRULE value is parsed by rrule-temporal (strict); the parts we store, their order and the date forms
// are ours (RECURRENCE.md, "The canonical rule text"): whoever writes a rule (gateway or admin panel) stores the
// same bytes. UNTIL, RDATE and EXDATE are read here, not by the library, because their forms depend on the series
// (timed: local wall times and a UTC UNTIL; all-day: dates) and we accept friendlier inputs than RFC 5545 does.

import { RRuleTemporal } from 'rrule-temporal';
import {
  compactWall,
  type SeriesStart,
  startWall,
  untilFromInput,
  untilIsBefore,
  wallFromInput,
} from './rule-dates.ts';

export type { SeriesStart } from './rule-dates.ts';

export const FREQS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type Freq = (typeof FREQS)[number];
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A parsed rule; every list sorted and without duplicates, dates in their stored forms (see canonicalText). */
export interface Rule {
  freq: Freq;
  /** 1 or more. */
  interval: number;
  byMonth: number[];
  byMonthDay: number[];
  /** `TU`, `1TH`, `-1FR` (no `+`), in canonical order (byDayOrder). */
  byDay: string[];
  bySetPos: number[];
  count?: number;
  /** Timed series: `YYYYMMDDTHHMMSSZ` (UTC); all-day series: `YYYYMMDD`. */
  until?: string;
  /** Only when not MO. */
  wkst?: Weekday;
  /** Timed series: local wall times `YYYYMMDDTHHMMSS` in the series' zone; all-day series: `YYYYMMDD`. */
  rdate: string[];
  exdate: string[];
}

export interface RuleLimits {
  /** RECURRENCE_MAX_COUNT: the largest COUNT, and the most RDATE or EXDATE values. */
  maxCount: number;
}

export type Parsed = { ok: true; rule: Rule } | { ok: false; reason: string };

/** The RRULE parts we store, in their stored order (RECURRENCE.md). WKST goes last, and only when not MO. */
const PARTS = ['FREQ', 'INTERVAL', 'BYMONTH', 'BYMONTHDAY', 'BYDAY', 'BYSETPOS', 'COUNT', 'UNTIL', 'WKST'];

class RuleError extends Error {}
const fail = (reason: string): never => {
  throw new RuleError(reason);
};

const byNumber = (a: number, b: number) => a - b;
const uniqueSorted = (xs: number[]) => [...new Set(xs)].sort(byNumber);

/** BYDAY order: by weekday (MO..SU), a plain day before its ordinals, ordinals ascending (-1FR before 1FR). */
function byDayOrder(a: string, b: string): number {
  const [na, da] = splitByDay(a);
  const [nb, db] = splitByDay(b);
  const d = WEEKDAYS.indexOf(da) - WEEKDAYS.indexOf(db);
  if (d) return d;
  if (na === undefined || nb === undefined) return na === nb ? 0 : na === undefined ? -1 : 1;
  return na - nb;
}

/** `-1FR` → [-1, 'FR']; `TU` → [undefined, 'TU']. */
export function splitByDay(token: string): [number | undefined, Weekday] {
  const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(token);
  if (!m)
    return fail(
      `BYDAY value ${token} is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally numbered: 1TH, -1FR)`,
    );
  return [m[1] === undefined ? undefined : Number(m[1]), m[2] as Weekday];
}

function numbers(name: string, raw: string, ok: (n: number) => boolean, range: string): number[] {
  return raw.split(',').map((v) => {
    if (!/^[+-]?\d{1,3}$/.test(v) || !ok(Number(v))) fail(`${name} value ${v} is out of range (${range})`);
    return Number(v);
  });
}

/** The RRULE value (with or without `RRULE:`) as a rule without dates; `until` still as sent. */
function parseRrule(value: string): Omit<Rule, 'rdate' | 'exdate'> & { untilInput?: string } {
  const text = value.replace(/^RRULE:/i, '').trim();
  if (!text) fail('the RRULE is empty');
  const raw = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim().toUpperCase();
    const v = part.slice(eq + 1).trim();
    if (eq < 1 || !v) fail(`RRULE part "${part}" is not NAME=VALUE`);
    if (!PARTS.includes(name)) {
      if (/^(BYHOUR|BYMINUTE|BYSECOND|BYYEARDAY|BYWEEKNO|RSCALE|SKIP)$/.test(name))
        fail(`${name} is not supported (a series repeats at its start's time of day)`);
      fail(`RRULE part ${name} is not an RFC 5545 rule part`);
    }
    if (raw.has(name)) fail(`RRULE part ${name} is given twice`);
    raw.set(name, v.toUpperCase());
  }
  const freq = raw.get('FREQ');
  if (!freq) fail('the RRULE has no FREQ');
  if (/^(HOURLY|MINUTELY|SECONDLY)$/.test(freq!))
    fail(`FREQ=${freq} is not supported: a series repeats daily at most (DAILY, WEEKLY, MONTHLY or YEARLY)`);
  if (!(FREQS as readonly string[]).includes(freq!))
    fail(`FREQ=${freq} is not one of DAILY, WEEKLY, MONTHLY, YEARLY`);
  const interval = raw.get('INTERVAL');
  if (interval !== undefined && (!/^[+-]?\d+$/.test(interval) || Number(interval) < 1))
    fail(`INTERVAL must be a whole number of 1 or more (not ${interval})`);
  const count = raw.get('COUNT');
  if (count !== undefined && (!/^[+-]?\d+$/.test(count) || Number(count) < 1))
    fail(`COUNT must be a whole number of 1 or more (not ${count})`);
  if (count !== undefined && raw.has('UNTIL')) fail('COUNT and UNTIL cannot both be given');
  const wkst = raw.get('WKST');
  if (wkst !== undefined && !(WEEKDAYS as readonly string[]).includes(wkst))
    fail(`WKST=${wkst} is not a weekday (MO, TU, WE, TH, FR, SA, SU)`);

  for (const t of raw.get('BYDAY')?.split(',') ?? []) splitByDay(t);
  if (raw.has('BYSETPOS') && !['BYDAY', 'BYMONTHDAY', 'BYMONTH'].some((k) => raw.has(k)))
    fail('BYSETPOS needs BYDAY, BYMONTHDAY or BYMONTH to choose from');

  // The library reads what it knows and checks RFC 5545's rules between parts (strict: an ordinal BYDAY only
  // with MONTHLY or YEARLY, BYSETPOS not 0, ...). UNTIL is ours (its forms depend on the series), so it is held out.
  const forLibrary = [...raw].filter(([k]) => k !== 'UNTIL').map(([k, v]) => `${k}=${v}`);
  let opts: ReturnType<RRuleTemporal['options']>;
  try {
    opts = new RRuleTemporal({
      rruleString: forLibrary.join(';'),
      dtstart: { timeZoneId: 'UTC', toString: () => '2000-01-03T00:00:00+00:00[UTC]' },
      strict: true,
    }).options();
  } catch (err) {
    return fail(`the RRULE cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const byMonth = raw.has('BYMONTH')
    ? numbers('BYMONTH', raw.get('BYMONTH')!, (n) => n >= 1 && n <= 12, '1 to 12')
    : [];
  const byMonthDay = raw.has('BYMONTHDAY')
    ? numbers(
        'BYMONTHDAY',
        raw.get('BYMONTHDAY')!,
        (n) => n !== 0 && Math.abs(n) <= 31,
        '1 to 31 or -31 to -1',
      )
    : [];
  const bySetPos = raw.has('BYSETPOS')
    ? numbers(
        'BYSETPOS',
        raw.get('BYSETPOS')!,
        (n) => n !== 0 && Math.abs(n) <= 366,
        '1 to 366 or -366 to -1',
      )
    : [];
  const ordinalMax = opts.freq === 'YEARLY' ? 53 : 5;
  const byDay = raw.has('BYDAY')
    ? (opts.byDay ?? []).map((t) => {
        const [n, day] = splitByDay(t);
        if (n !== undefined && (n === 0 || Math.abs(n) > ordinalMax))
          fail(
            `BYDAY value ${t} is out of range (1 to ${ordinalMax} or -${ordinalMax} to -1 before the day)`,
          );
        return `${n ?? ''}${day}`;
      })
    : [];
  const untilInput = raw.get('UNTIL');
  return {
    freq: opts.freq as Freq,
    interval: Number(interval ?? 1),
    byMonth: uniqueSorted(byMonth),
    byMonthDay: uniqueSorted(byMonthDay),
    byDay: [...new Set(byDay)].sort(byDayOrder),
    bySetPos: uniqueSorted(bySetPos),
    ...(count !== undefined ? { count: Number(count) } : {}),
    ...(wkst !== undefined && wkst !== 'MO' ? { wkst: wkst as Weekday } : {}),
    ...(untilInput !== undefined ? { untilInput } : {}),
  };
}

/** A list of RDATE/EXDATE values: a comma-separated string or an array of strings. */
function dateList(name: string, v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.trim() === '' ? [] : v.split(',').map((s) => s.trim());
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.map((s) => s.trim());
  return fail(`${name} must be a list of dates`);
}

/** The canonical-text lines (or any RRULE/RDATE/EXDATE lines) as their three values. */
function splitText(text: string): { rrule: string; rdate: string[]; exdate: string[] } {
  let rrule: string | undefined;
  const rdate: string[] = [];
  const exdate: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const l = line.trim();
    if (!l) continue;
    const m = /^(RRULE|RDATE|EXDATE)([;:])(.*)$/i.exec(l);
    if (!m) {
      // A bare rule value (`FREQ=WEEKLY;...`) as the first line, as many tools write it.
      if (rrule === undefined && /^FREQ=/i.test(l)) {
        rrule = l;
        continue;
      }
      fail(`line "${l.slice(0, 40)}" is not an RRULE, RDATE or EXDATE line`);
    }
    const [, name, sep, rest] = m as unknown as [string, string, string, string];
    const key = name.toUpperCase();
    if (sep === ';')
      fail(
        `${key} takes no parameters here (the series' zone is the event's \`timezone\`, its dates are local)`,
      );
    if (key === 'RRULE') {
      if (rrule !== undefined) fail('only one RRULE may be given');
      rrule = rest;
    } else (key === 'RDATE' ? rdate : exdate).push(...dateList(key, rest));
  }
  if (rrule === undefined) return fail('the recurrence has no RRULE');
  return { rrule, rdate, exdate };
}

/** The API's `recurrence`: `{rrule, rdate, exdate}` (a `text` sent back is ignored) or the rule text. */
function partsOf(input: unknown): { rrule: string; rdate: string[]; exdate: string[] } {
  if (typeof input === 'string') return splitText(input);
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail('recurrence must be an object {rrule, rdate, exdate} or the rule text');
  const o = input as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !['rrule', 'rdate', 'exdate', 'text'].includes(k));
  if (unknown.length) fail(`recurrence has unknown keys: ${unknown.join(', ')} (rrule, rdate, exdate)`);
  if (typeof o.rrule !== 'string')
    return fail('recurrence.rrule must be a string such as FREQ=WEEKLY;BYDAY=TU');
  return { rrule: o.rrule, rdate: dateList('rdate', o.rdate), exdate: dateList('exdate', o.exdate) };
}

function dates(name: string, values: string[], start: SeriesStart, limits: RuleLimits): string[] {
  const out = [
    ...new Set(values.map((v) => wallFromInput(v, start) ?? fail(badDate(name, v, start)))),
  ].sort();
  if (out.length > limits.maxCount)
    fail(`${name} has ${out.length} dates, over the maximum of ${limits.maxCount} (RECURRENCE_MAX_COUNT)`);
  return out;
}

const badDate = (name: string, v: string, s: SeriesStart) =>
  `${name} value ${v} is not a ${s.allDay ? 'date (YYYYMMDD)' : 'date and time (YYYYMMDDTHHMMSS, local to the series)'}`;

/**
 * Parses and validates a series' rule for the series that starts at `start`: the API's `recurrence` (an object or
 * the text) or the stored text. The reason, on failure, is what `data.params.recurrence` says.
 */
export function parseRecurrence(input: unknown, start: SeriesStart, limits: RuleLimits): Parsed {
  try {
    const parts = partsOf(input);
    const { untilInput, ...rule } = parseRrule(parts.rrule);
    if (rule.count !== undefined && rule.count > limits.maxCount)
      fail(`COUNT ${rule.count} is over the maximum of ${limits.maxCount} (RECURRENCE_MAX_COUNT)`);
    let until: string | undefined;
    if (untilInput !== undefined) {
      until =
        untilFromInput(untilInput, start) ?? fail(`UNTIL ${untilInput} is not a date or a UTC date and time`);
      if (untilIsBefore(until, start))
        fail(`UNTIL ${until} is before the series' start (${startWall(start)} ${start.timezone})`);
    }
    return {
      ok: true,
      rule: {
        ...rule,
        ...(until !== undefined ? { until } : {}),
        rdate: dates('RDATE', parts.rdate, start, limits),
        exdate: dates('EXDATE', parts.exdate, start, limits),
      },
    };
  } catch (err) {
    if (err instanceof RuleError) return { ok: false, reason: err.message };
    throw err;
  }
}

/** The RRULE value (without `RRULE:`) in the stored form. */
export function rruleValue(r: Rule): string {
  const parts: string[] = [`FREQ=${r.freq}`];
  if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.byMonth.length) parts.push(`BYMONTH=${r.byMonth.join(',')}`);
  if (r.byMonthDay.length) parts.push(`BYMONTHDAY=${r.byMonthDay.join(',')}`);
  if (r.byDay.length) parts.push(`BYDAY=${r.byDay.join(',')}`);
  if (r.bySetPos.length) parts.push(`BYSETPOS=${r.bySetPos.join(',')}`);
  if (r.count !== undefined) parts.push(`COUNT=${r.count}`);
  if (r.until !== undefined) parts.push(`UNTIL=${r.until}`);
  if (r.wkst !== undefined && r.wkst !== 'MO') parts.push(`WKST=${r.wkst}`);
  return parts.join(';');
}

/** The stored text, byte for byte what RECURRENCE.md says: RRULE, then RDATE and EXDATE when they have dates. */
export function canonicalText(r: Rule): string {
  const lines = [`RRULE:${rruleValue(r)}`];
  if (r.rdate.length) lines.push(`RDATE:${r.rdate.join(',')}`);
  if (r.exdate.length) lines.push(`EXDATE:${r.exdate.join(',')}`);
  return lines.join('\n');
}

/** The API's view of a rule (RECURRENCE.md, "API"): `{rrule, rdate, exdate}`; the reader adds `text`. */
export const ruleObject = (r: Rule): { rrule: string; rdate: string[]; exdate: string[] } => ({
  rrule: rruleValue(r),
  rdate: [...r.rdate],
  exdate: [...r.exdate],
});

/** A start's stored-form value (`YYYYMMDDTHHMMSS` or `YYYYMMDD`), as an RDATE or EXDATE of that series holds it. */
export const storedStart = (start: SeriesStart): string => compactWall(start);
