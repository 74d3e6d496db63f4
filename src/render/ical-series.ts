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

/**
 * The masters in a feed, by series id: how their times are written, which their overrides' RECURRENCE-IDs follow,
 * and the local times of day their occurrences are made at (`HHmmss`: the start's, the RDATEs').
 */
export type Masters = Map<number, { written: WrittenTimes; zone: string; times: string[] }>;

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
    const rule = ruleOf(e);
    const times = [
      String(e.start_date ?? '')
        .slice(11)
        .replace(/:/g, ''),
      ...(rule?.rdate ?? []).map((d) => d.slice(9)),
    ];
    if (written)
      out.set(Number(e.id), { written, zone: String(e.timezone || 'UTC'), times: [...new Set(times)] });
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
  /**
   * An override of an occurrence whose local time a DST change skips: its RECURRENCE-ID as the rule made it
   * (`TZID|YYYYMMDDTHHMMSS`, written by `withDateIds`), a local time no DateTime can hold.
   */
  recurrenceWall?: string;
}

/** ical-generator's X- property that `withDateIds` turns into `RECURRENCE-ID;VALUE=DATE`. */
export const DAY_ID = 'X-CALENDAR-GATEWAY-RECURRENCE-DAY';
/** ical-generator's X- property that `withDateIds` turns into `RECURRENCE-ID;TZID=…` of a skipped local time. */
// Short: the line (with the longest IANA zone name) must stay under 75 octets, unfolded, for `withDateIds` to find it.
export const WALL_ID = 'X-CGW-RID-WALL';

/**
 * A rendered VEVENT text with its all-day RECURRENCE-IDs written as RFC 5545 wants them (a DATE), and those of
 * occurrences in a DST gap as the rule made them.
 */
export const withDateIds = (text: string): string =>
  text
    .replace(new RegExp(`^${DAY_ID}:(\\d{8})\r$`, 'gm'), 'RECURRENCE-ID;VALUE=DATE:$1\r')
    .replace(new RegExp(`^${WALL_ID}:([^|\r]+)\\|(\\d{8}T\\d{6})\r$`, 'gm'), 'RECURRENCE-ID;TZID=$1:$2\r');

/**
 * The local time the rule made an occurrence at, when a DST change skips it (`YYYYMMDDTHHMMSS`), else undefined.
 * RFC 5545 §3.8.4.4: the RECURRENCE-ID is the value of the original instance's DTSTART, which for a rule's instance
 * is the rule's local time (02:15), read as §3.3.5 says (moved forward by the gap: 03:15, the instant we store). Both
 * name one instant, but calendars match RECURRENCE-IDs by value (ical.js does): written as 03:15, the override would
 * stand beside the 02:15 instance instead of replacing it.
 */
function skippedWall(local: DateTime, times: readonly string[]): string | undefined {
  const at = local.toFormat('HHmmss');
  for (const t of times) {
    if (!/^\d{6}$/.test(t) || t === at) continue;
    const nominal = { hour: +t.slice(0, 2), minute: +t.slice(2, 4), second: +t.slice(4, 6) };
    const placed = local.set(nominal);
    // Luxon moves a skipped local time forward, as RFC 5545 does: the rule's time that lands on this instant.
    if (placed.toFormat('HHmmss') !== t && placed.toMillis() === local.toMillis())
      return `${local.toFormat('yyyyMMdd')}T${t}`;
  }
  return undefined;
}

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
  const local = zone ? at.setZone(zone) : at;
  const skipped = zone && master ? skippedWall(local, master.times) : undefined;
  if (skipped) return { uidOf: seriesId, recurrenceWall: `${zone}|${skipped}` };
  return { uidOf: seriesId, recurrenceId: local };
}
