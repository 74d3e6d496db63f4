// A series in the feed (RFC 5545 §3.8.5): the series post as the master VEVENT with its RRULE/RDATE/EXDATE, each
// override as a VEVENT of the same UID with a RECURRENCE-ID in the master's zone.
import { DateTime } from 'luxon';
import type { MasterTimes } from '../recurrence/ical.ts';
import { recurrenceLines } from '../recurrence/ical.ts';

type Json = Record<string, unknown>;

/** How an event's times are written (the renderer's choice): in a zone with its VTIMEZONE, as dates, or in UTC. */
export interface WrittenTimes {
  allDay?: boolean;
  timezone?: string;
}

/** The masters in a feed, by series id: how their times are written, which their overrides' RECURRENCE-IDs follow. */
export type Masters = Map<number, { written: WrittenTimes; zone: string }>;

interface RuleJson {
  rrule: string;
  rdate: string[];
  exdate: string[];
}

const ruleOf = (e: Json): RuleJson | undefined => {
  const r = e.recurrence as RuleJson | null | undefined;
  return r && typeof r === 'object' && typeof r.rrule === 'string' && e.series_id === e.id ? r : undefined;
};

/** The series posts of a feed (an override may come before its master: lists are in start order). */
export function mastersOf(events: readonly Json[], timesOf: (e: Json) => WrittenTimes | undefined): Masters {
  const out: Masters = new Map();
  for (const e of events) {
    if (!ruleOf(e)) continue;
    const written = timesOf(e);
    if (written) out.set(Number(e.id), { written, zone: String(e.timezone || 'UTC') });
  }
  return out;
}

export interface SeriesParts {
  /** The UID's id: the series' for an override. */
  uidOf?: number;
  /** The master's RRULE/RDATE/EXDATE lines. */
  repeating?: string;
  /** An override's original start, in the master's zone. */
  recurrenceId?: DateTime;
  /** An all-day override's original day (`YYYYMMDD`): ical-generator writes no DATE RECURRENCE-ID (`withDateIds`). */
  recurrenceDay?: string;
}

/** ical-generator's X- property that `withDateIds` turns into `RECURRENCE-ID;VALUE=DATE`. */
export const DAY_ID = 'X-CALENDAR-GATEWAY-RECURRENCE-DAY';

/** A rendered VEVENT text with its all-day RECURRENCE-IDs written as RFC 5545 wants them (a DATE). */
export const withDateIds = (text: string): string =>
  text.replace(new RegExp(`^${DAY_ID}:(\\d{8})\r$`, 'gm'), 'RECURRENCE-ID;VALUE=DATE:$1\r');

/** What a VEVENT adds for a series: a master's rule lines, an override's UID and RECURRENCE-ID; undefined otherwise. */
export function seriesPartsOf(e: Json, written: WrittenTimes, masters: Masters): SeriesParts | undefined {
  const rule = ruleOf(e);
  if (rule) {
    const zone = String(e.timezone || 'UTC');
    const master: MasterTimes = written.allDay
      ? { allDay: true }
      : written.timezone
        ? { allDay: false, tzid: written.timezone }
        : { allDay: false, utc: true };
    // A zone without a VTIMEZONE (a manual offset) writes the master in UTC, and its dates with it.
    const toUtc = (stamp: string) => {
      const d = DateTime.fromFormat(stamp, "yyyyMMdd'T'HHmmss", { zone });
      return d.isValid ? `${d.toUTC().toFormat("yyyyMMdd'T'HHmmss")}Z` : undefined;
    };
    const repeating = recurrenceLines(rule, master, toUtc);
    return repeating ? { repeating } : undefined;
  }
  const seriesId = Number(e.series_id);
  const original = typeof e.original_start_utc === 'string' ? e.original_start_utc : '';
  if (e.is_recurring !== true || !Number.isInteger(seriesId) || seriesId === e.id || !original)
    return undefined;
  const at = DateTime.fromSQL(original, { zone: 'utc' });
  if (!at.isValid) return undefined;
  const master = masters.get(seriesId);
  if (master?.written.allDay ?? written.allDay) {
    const zone = master?.zone ?? String(e.timezone || 'UTC');
    return { uidOf: seriesId, recurrenceDay: at.setZone(zone).toFormat('yyyyMMdd') };
  }
  // Alone (its own .ics), an override's zone stands for its master's: a series' overrides keep its zone.
  const zone = master ? master.written.timezone : written.timezone;
  return { uidOf: seriesId, recurrenceId: zone ? at.setZone(zone) : at };
}
