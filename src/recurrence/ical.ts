// A series' recurrence as iCalendar properties (RRULE, RDATE, EXDATE; RFC 5545 §3.8.5), in the master's zone.
import type { StoredRule } from './expand.ts';

/** How the master VEVENT's DTSTART is written: in a zone with its VTIMEZONE, as dates, or in UTC. */
export type MasterTimes = { allDay: true } | { allDay: false; tzid: string } | { allDay: false; utc: true };

/** A stored stamp (`20270105T190000`, `20270105`) as written beside DTSTART; UTC conversions are the caller's. */
const stampOf = (v: string): string => v.replace(/[^0-9TZ]/g, '');

/**
 * The RRULE, RDATE and EXDATE lines of a series (joined by CRLF, unfolded: the calendar folds them), or '' when
 * it has none. `toUtc` turns a stored local stamp into UTC (`…Z`) when the master is written in UTC (a zone
 * without a VTIMEZONE).
 */
export function recurrenceLines(
  rule: StoredRule,
  master: MasterTimes,
  toUtc?: (stamp: string) => string | undefined,
): string {
  const lines: string[] = [];
  if (rule.rrule) lines.push(`RRULE:${rule.rrule}`);
  const dates = (name: string, values: string[]) => {
    if (!values.length) return;
    if (master.allDay) {
      lines.push(`${name};VALUE=DATE:${values.map((v) => stampOf(v).slice(0, 8)).join(',')}`);
    } else if ('tzid' in master) {
      lines.push(`${name};TZID=${master.tzid}:${values.map(stampOf).join(',')}`);
    } else {
      const utc = values.map((v) => toUtc?.(stampOf(v))).filter((v): v is string => !!v);
      if (utc.length) lines.push(`${name}:${utc.join(',')}`);
    }
  };
  dates('RDATE', rule.rdate);
  dates('EXDATE', rule.exdate);
  return lines.join('\r\n');
}
