// Tests' tools for recurrence: random series (fast-check) and ical.js's expansion of a calendar, the independent oracle.
import fc from 'fast-check';
import ICAL from 'ical.js';
import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import { type SeriesTimes, type StoredRule, tzidOf } from './expand.ts';
import { type MasterTimes, recurrenceLines } from './ical.ts';

/** Zones the property tests cross: two DST changes a year each way, a half-hour zone, Lord Howe's half-hour DST. */
export const ZONES = [
  'America/New_York',
  'Europe/Madrid',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'UTC',
] as const;

const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const sortNum = (a: number, b: number) => a - b;

/** A random rule of the canonical text's subset (RECURRENCE.md), its parts in the canonical order. */
export const rruleArb = (allDay: boolean, startMs: number): fc.Arbitrary<string> =>
  fc
    .record({
      freq: fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'),
      interval: fc.constantFrom(1, 1, 2, 3),
      byMonth: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }), {
        freq: 4,
      }),
      byMonthDay: fc.option(
        fc.uniqueArray(fc.constantFrom(1, 2, 10, 15, 28, 29, 30, 31, -1), { minLength: 1, maxLength: 2 }),
        { freq: 3 },
      ),
      byDay: fc.option(fc.uniqueArray(fc.constantFrom(...DAYS), { minLength: 1, maxLength: 3 }), { freq: 2 }),
      ordinal: fc.option(fc.constantFrom(1, 2, -1), { freq: 2 }),
      bySetPos: fc.option(fc.constantFrom(1, -1), { freq: 5 }),
      end: endArb(allDay, startMs),
    })
    .map((r) => {
      const parts = [`FREQ=${r.freq}`];
      if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
      const monthly = r.freq === 'MONTHLY' || r.freq === 'YEARLY';
      if (r.byMonth) parts.push(`BYMONTH=${[...r.byMonth].sort(sortNum).join(',')}`);
      if (r.byMonthDay && monthly) parts.push(`BYMONTHDAY=${[...r.byMonthDay].sort(sortNum).join(',')}`);
      if (r.byDay) {
        const days = DAYS.filter((d) => r.byDay?.includes(d));
        // An ordinal weekday only where RFC 5545 allows one (MONTHLY, or YEARLY with BYMONTH) and without BYMONTHDAY.
        const ordinal = r.ordinal && (r.freq === 'MONTHLY' || (r.freq === 'YEARLY' && r.byMonth));
        parts.push(`BYDAY=${days.map((d) => (ordinal ? `${r.ordinal}${d}` : d)).join(',')}`);
        if (r.bySetPos && monthly && !ordinal && days.length > 1) parts.push(`BYSETPOS=${r.bySetPos}`);
      }
      if (r.end) parts.push(r.end);
      return parts.join(';');
    });

const endArb = (allDay: boolean, startMs: number) =>
  fc.oneof(
    fc.constant(''),
    fc.integer({ min: 1, max: 40 }).map((n) => `COUNT=${n}`),
    fc.integer({ min: 1, max: 700 }).map((days) => {
      const d = new Date(startMs + days * 86_400_000);
      const date = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
      return allDay ? `UNTIL=${date}` : `UNTIL=${date}T${pad(d.getUTCHours())}5959Z`;
    }),
  );

/**
 * A random rule of the shapes the gateway's writers and the Repeat panel make: daily, weekly on chosen days,
 * monthly on a date or an nth (or last) weekday, yearly on a date or an nth weekday of a month; every N; an end.
 */
export const productRuleArb = (allDay: boolean, startMs: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof(
        fc.constant('FREQ=DAILY'),
        fc
          .uniqueArray(fc.constantFrom(...DAYS), { minLength: 1, maxLength: 4 })
          .map((days) => `FREQ=WEEKLY;BYDAY=${DAYS.filter((d) => days.includes(d)).join(',')}`),
        fc.constantFrom(1, 5, 15, 28, 29, 30, 31, -1).map((d) => `FREQ=MONTHLY;BYMONTHDAY=${d}`),
        fc
          .tuple(fc.constantFrom(1, 2, 3, 4, -1), fc.constantFrom(...DAYS))
          .map(([n, d]) => `FREQ=MONTHLY;BYDAY=${n}${d}`),
        fc.constantFrom(1, -1).map((n) => `FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=${n}`),
        fc
          .tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom(1, 10, 29, 31))
          .map(([m, d]) => `FREQ=YEARLY;BYMONTH=${m};BYMONTHDAY=${d}`),
        fc
          .tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom(1, 2, -1), fc.constantFrom(...DAYS))
          .map(([m, n, d]) => `FREQ=YEARLY;BYMONTH=${m};BYDAY=${n}${d}`),
      ),
      fc.constantFrom(1, 1, 2, 3),
      endArb(allDay, startMs),
    )
    .map(([shape, interval, end]) => {
      const [freq, ...rest] = shape.split(';');
      return [freq, ...(interval > 1 ? [`INTERVAL=${interval}`] : []), ...rest, ...(end ? [end] : [])].join(
        ';',
      );
    });

/** A random series: a first occurrence (near DST changes often), its zone, a rule, RDATEs and EXDATEs. */
export const seriesArb = (
  shapes: 'product' | 'any' = 'product',
): fc.Arbitrary<{ rule: StoredRule; times: SeriesTimes }> =>
  fc
    .record({
      allDay: fc.boolean(),
      timezone: fc.constantFrom(...ZONES),
      day: fc.integer({ min: 0, max: 730 }),
      // 02:30 falls in spring-forward gaps (New York, Madrid), 01:30 in the autumn folds, 02:15 in Lord Howe's.
      time: fc.constantFrom(
        '19:00:00',
        '02:30:00',
        '01:30:00',
        '02:15:00',
        '00:00:00',
        '23:30:00',
        '09:05:00',
      ),
      seed: fc.integer({ min: 0, max: 2 ** 30 }),
    })
    .chain(({ allDay, timezone, day, time, seed }) => {
      const startMs = Date.UTC(2026, 0, 1) + day * 86_400_000;
      const d = new Date(startMs);
      const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
      const extra = fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 3 }).map((offsets) =>
        offsets
          .sort(sortNum)
          .map((o) => new Date(startMs + o * 86_400_000))
          .map((x) => `${x.getUTCFullYear()}${pad(x.getUTCMonth() + 1)}${pad(x.getUTCDate())}`)
          .map((s) => (allDay ? s : `${s}T${time.replace(/:/g, '')}`)),
      );
      const rrule = shapes === 'product' ? productRuleArb(allDay, startMs) : rruleArb(allDay, startMs);
      return fc.record({ rrule, rdate: extra, exdate: extra }).map((rule) => ({
        rule,
        times: { start: `${date} ${allDay ? '00:00:00' : time}`, timezone, allDay },
        seed,
      }));
    });

/** The series moved to the first start its rule generates (without DTSTART itself), or undefined if none soon. */
export function synchronised(rule: StoredRule, times: SeriesTimes): SeriesTimes | undefined {
  if (!rule.rrule) return times;
  const tzid = tzidOf(times.timezone) ?? 'UTC';
  const iso = times.start.replace(' ', 'T');
  const r = new RRuleTemporal({
    rruleString: rule.rrule.replace(/;?(COUNT|UNTIL)=[^;]*/g, ''),
    dtstart: { timeZoneId: tzid, toString: () => `${iso}[${tzid}]` },
    tzid,
  });
  let first: ReturnType<typeof r.next>;
  try {
    first = r.next(new Date(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) - 2 * 86_400_000), true);
  } catch {
    return undefined;
  }
  if (!first) return undefined;
  const wall = first.toPlainDateTime().toString().replace('T', ' ').slice(0, 19);
  // The writers refuse an UNTIL before the start (ical.js then has no occurrence at all, not even DTSTART).
  const until = /UNTIL=(\d{8})(?:T(\d{6})Z)?/.exec(rule.rrule);
  if (until) {
    const [, d, t] = until;
    const untilKey = t ? `${d}T${t}` : d;
    const startKey = t
      ? first.toInstant().toString().replace(/[-:]/g, '').slice(0, 15)
      : wall.slice(0, 10).replace(/-/g, '');
    if (untilKey < startKey) return undefined;
  }
  return {
    ...times,
    start: times.allDay ? `${wall.slice(0, 10)} 00:00:00` : `${wall}${':00'.slice(wall.length - 16)}`,
  };
}

const ics = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

/** One series as a calendar of one master VEVENT, written as the feed writes it (DTSTART;TZID and its VTIMEZONE). */
export function seriesCalendar(rule: StoredRule, times: SeriesTimes, uid = 'series@test'): string {
  const [date, time] = times.start.split(' ');
  const stamp = `${date.replace(/-/g, '')}T${time.replace(/:/g, '')}`;
  const utc = times.timezone === 'UTC';
  const master: MasterTimes = times.allDay
    ? { allDay: true }
    : utc
      ? { allDay: false, utc: true }
      : { allDay: false, tzid: times.timezone };
  const dtstart = times.allDay
    ? `DTSTART;VALUE=DATE:${stamp.slice(0, 8)}`
    : utc
      ? `DTSTART:${stamp}Z`
      : `DTSTART;TZID=${times.timezone}:${stamp}`;
  const body = recurrenceLines(rule, master, (v) => `${v}Z`);
  const zone = times.allDay || utc ? [] : [tzlib_get_ical_block(times.timezone)[0].trim()];
  return ics(
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//recurrence//EN',
      ...zone,
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20260101T000000Z',
      dtstart,
      body,
      'SUMMARY:series',
      'END:VEVENT',
      'END:VCALENDAR',
    ].filter(Boolean),
  );
}

/** An occurrence as ical.js expands it: the VEVENT's UID, its start (an instant, or a day for dates), its RECURRENCE-ID. */
export interface OracleOccurrence {
  uid: string;
  /** ISO instant (`2026-10-27T23:00:00.000Z`), or `YYYY-MM-DD` for an all-day occurrence. */
  start: string;
  /** The same for the original start it replaces (RECURRENCE-ID), or the start itself. */
  recurrenceId: string;
  summary: string;
  status: string;
  /** The local wall clock ical.js computed (`2027-03-14T02:30:00`), and its zone's TZID ('' for UTC or dates). */
  wall: string;
  tzid: string;
}

const keyOf = (t: ICAL.Time): string => (t.isDate ? t.toString().slice(0, 10) : gapSafe(t));
const wallOfTime = (t: ICAL.Time) => t.toString().slice(0, 19);
const tzidOfTime = (t: ICAL.Time) => (t.isDate || t.zone?.tzid === 'UTC' ? '' : (t.zone?.tzid ?? ''));

/**
 * The instant of a time: ical.js's, except for a local time a DST change skips, which ical.js places an hour early
 * (before the gap); RFC 5545 §3.3.5 moves it forward by the gap, as Temporal's "compatible" does.
 */
function gapSafe(t: ICAL.Time): string {
  const tzid = tzidOfTime(t);
  if (tzid && inGap(wallOfTime(t), tzid)) {
    return new Date(
      Temporal.PlainDateTime.from(wallOfTime(t)).toZonedDateTime(tzid).epochMilliseconds,
    ).toISOString();
  }
  return t.toJSDate().toISOString();
}

/** Whether a local wall time does not exist in a zone (skipped by a DST change). */
export function inGap(wall: string, tzid: string): boolean {
  try {
    Temporal.PlainDateTime.from(wall).toZonedDateTime(tzid, { disambiguation: 'reject' });
    return false;
  } catch {
    return true;
  }
}

/**
 * Every occurrence of every VEVENT of a calendar whose start is in [from, to] (inclusive), by ical.js: masters
 * expanded with their overrides (RECURRENCE-ID) related, EXDATEs removed; one-offs as they are. Expansion stops at
 * `to`, so an unbounded rule is safe.
 */
export function expandWithIcalJs(text: string, from: Date, to: Date): OracleOccurrence[] {
  const cal = new ICAL.Component(ICAL.parse(text));
  for (const z of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(z);
  const vevents = cal.getAllSubcomponents('vevent');
  const byUid = new Map<string, ICAL.Event>();
  const out: OracleOccurrence[] = [];
  for (const v of vevents)
    if (!v.hasProperty('recurrence-id')) byUid.set(String(v.getFirstPropertyValue('uid')), new ICAL.Event(v));
  const orphans: ICAL.Component[] = [];
  for (const v of vevents) {
    if (!v.hasProperty('recurrence-id')) continue;
    const master = byUid.get(String(v.getFirstPropertyValue('uid')));
    if (master) master.relateException(v);
    else orphans.push(v);
  }
  const inWindow = (t: ICAL.Time) => {
    const ms = t.isDate ? Date.parse(`${t.toString().slice(0, 10)}T00:00:00Z`) : t.toJSDate().getTime();
    return ms >= from.getTime() && ms <= to.getTime();
  };
  for (const [uid, event] of byUid) {
    if (!event.isRecurring()) {
      if (inWindow(event.startDate))
        out.push({
          uid,
          start: keyOf(event.startDate),
          recurrenceId: keyOf(event.startDate),
          summary: event.summary,
          status: String(event.component.getFirstPropertyValue('status') ?? ''),
          wall: wallOfTime(event.startDate),
          tzid: tzidOfTime(event.startDate),
        });
      continue;
    }
    const it = event.iterator();
    for (let next = it.next(), n = 0; next && n < 100_000; next = it.next(), n++) {
      const details = event.getOccurrenceDetails(next);
      const startKey = details.startDate;
      const afterWindow = (t: ICAL.Time) =>
        (t.isDate ? Date.parse(`${t.toString().slice(0, 10)}T00:00:00Z`) : t.toJSDate().getTime()) >
        to.getTime() + 400 * 86_400_000;
      if (afterWindow(next)) break;
      if (!inWindow(startKey)) continue;
      out.push({
        uid,
        start: keyOf(startKey),
        recurrenceId: keyOf(details.recurrenceId),
        summary: details.item.summary,
        status: String(details.item.component.getFirstPropertyValue('status') ?? ''),
        wall: wallOfTime(startKey),
        tzid: tzidOfTime(startKey),
      });
    }
  }
  for (const v of orphans) {
    const e = new ICAL.Event(v);
    if (inWindow(e.startDate))
      out.push({
        uid: e.uid,
        start: keyOf(e.startDate),
        recurrenceId: keyOf(e.recurrenceId),
        summary: e.summary,
        status: '',
        wall: wallOfTime(e.startDate),
        tzid: tzidOfTime(e.startDate),
      });
  }
  return out.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.uid < b.uid ? -1 : 1));
}
