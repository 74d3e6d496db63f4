// What a write needs to know of a series' occurrences: whether an instant is one, and how many come before it.
//
// Read as RECURRENCE.md says (and as the list side expands them): the rule in the series' zone from its first
// occurrence, which always counts (DTSTART starts the set and counts towards COUNT), RDATEs added, EXDATEs removed.
import { DateTime } from 'luxon';
import { RRuleTemporal } from 'rrule-temporal';
import { normaliseTimezone } from '../dates/zones.ts';
import { type Rule, rruleValue, type SeriesStart } from './rule.ts';
import { wallOf } from './rule-dates.ts';

/** The Temporal zone id of a TEC zone: IANA as is, manual offsets (`UTC+5:30`) as `+05:30`. */
function tzidOf(timezone: string): string {
  const zone = normaliseTimezone(timezone || 'UTC') ?? 'UTC';
  const m = /^UTC([+-])(\d{1,2})(?::(\d{2}))?$/.exec(zone);
  return m ? `${m[1]}${m[2]!.padStart(2, '0')}:${m[3] ?? '00'}` : zone;
}

/** A local wall clock (read as UTC) as rrule-temporal's zoned input. */
const zoned = (wall: DateTime, tzid: string) => ({
  timeZoneId: tzid,
  toString: () => `${wall.toFormat("yyyy-MM-dd'T'HH:mm:ss")}[${tzid}]`,
});

/** The UTC instant (ms) of a local wall clock (read as UTC) in the series' zone. */
export function instantOf(wall: DateTime, start: SeriesStart): number {
  const tz = normaliseTimezone(start.timezone || 'UTC') ?? 'UTC';
  return wall.setZone(tz, { keepLocalTime: true }).toMillis();
}

const startWall = (s: SeriesStart) =>
  DateTime.fromFormat(s.allDay ? `${s.start.slice(0, 10)} 00:00:00` : s.start, 'yyyy-MM-dd HH:mm:ss', {
    zone: 'UTC',
  });

/** The series' first occurrence as an instant (ms, UTC). */
export const firstMs = (s: SeriesStart): number => instantOf(startWall(s), s);

/** A series' occurrence starts (ms, UTC) between two instants, both included. */
export function occurrencesBetween(rule: Rule, s: SeriesStart, fromMs: number, toMs: number): number[] {
  const tzid = tzidOf(s.timezone);
  const set = new RRuleTemporal({
    // An all-day rule's UNTIL is a date: the library reads it as that day's last second in the zone.
    rruleString: rruleValue(rule),
    dtstart: zoned(startWall(s), tzid),
    tzid,
    includeDtstart: true,
  });
  const first = firstMs(s);
  const found = new Set<number>();
  for (const z of set.between(new Date(fromMs), new Date(toMs), true)) found.add(z.epochMilliseconds);
  if (first >= fromMs && first <= toMs) found.add(first);
  for (const v of rule.rdate) {
    const ms = instantOf(wallOf(v), s);
    if (ms >= fromMs && ms <= toMs) found.add(ms);
  }
  const excluded = new Set(rule.exdate.map((v) => instantOf(wallOf(v), s)));
  return [...found].filter((ms) => !excluded.has(ms)).sort((a, b) => a - b);
}

/** Whether the series has an occurrence starting at `ms`. */
export const occursAt = (rule: Rule, s: SeriesStart, ms: number): boolean =>
  occurrencesBetween(rule, s, ms, ms).includes(ms);

/**
 * How many occurrences the RRULE made before `ms` (for a COUNT split in two): the rule's own, EXDATEs included
 * (they are still counted by COUNT), RDATEs not.
 */
export function ruleCountBefore(rule: Rule, s: SeriesStart, ms: number): number {
  if (ms <= firstMs(s)) return 0;
  return occurrencesBetween({ ...rule, rdate: [], exdate: [] }, s, firstMs(s), ms - 1).length;
}
