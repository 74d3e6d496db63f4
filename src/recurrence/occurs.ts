// What a write needs to know of a series' occurrences: whether an instant is one, and how many come before it.
//
// The occurrences are the Expander's (src/recurrence/expand.ts), the one expansion that lists, reads and the feed's
// test use too: the rule in the series' zone from its first occurrence, which always counts (DTSTART starts the set and
// counts towards COUNT), RDATEs added, EXDATEs removed, a local time a DST change skips moved forward by the gap.
import { DateTime } from 'luxon';
import { normaliseTimezone } from '../dates/zones.ts';
import { Expander } from './expand.ts';
import { type Rule, rruleValue, type SeriesStart } from './rule.ts';

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

/** The Expander of a parsed rule (its stored parts), or undefined when the start cannot be read. */
const expanderOf = (rule: Rule, s: SeriesStart): Expander | undefined =>
  Expander.of({ rrule: rruleValue(rule), rdate: rule.rdate, exdate: rule.exdate }, s);

/** A series' occurrence starts (ms, UTC) between two instants, both included. */
export function occurrencesBetween(rule: Rule, s: SeriesStart, fromMs: number, toMs: number): number[] {
  return (expanderOf(rule, s)?.between(fromMs, toMs) ?? []).map((o) => o.ms);
}

/** Whether the series has an occurrence starting at `ms`. */
export const occursAt = (rule: Rule, s: SeriesStart, ms: number): boolean =>
  (expanderOf(rule, s)?.between(ms, ms, 1).length ?? 0) > 0;

/**
 * How many occurrences the RRULE made before `ms` (for a COUNT split in two): the rule's own, EXDATEs included
 * (they are still counted by COUNT), RDATEs not.
 */
export function ruleCountBefore(rule: Rule, s: SeriesStart, ms: number): number {
  if (ms <= firstMs(s)) return 0;
  return occurrencesBetween({ ...rule, rdate: [], exdate: [] }, s, firstMs(s), ms - 1).length;
}
