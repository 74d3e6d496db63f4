// What the event index knows of an event's place in a series (issue 31): read by the crawl with the other facets,
// carried by the snapshot, and what the occurrence store expands.

import { msOfUtcWall } from '../../dates/utc-wall.ts';
import { readRuleText } from '../../recurrence/expand.ts';

/** A series' or an override's recurrence facets (a one-off has none). */
export interface RepeatFacets {
  /** A series: its stored rule text (RRULE/RDATE/EXDATE lines). */
  rule?: string;
  /** The event's local start `Y-m-d H:i:s` (a series: its first occurrence's). */
  start: string;
  /** The event's zone as stored (IANA, `UTC`, `UTC+5:30`). */
  timezone: string;
  allDay: boolean;
  /** The event's length in ms (its UTC end minus its UTC start; the local ones when no UTC copy is stored). */
  durationMs: number;
  /** An override: its series, and the original start it replaces (ms since the epoch, UTC). */
  seriesParent?: number;
  originalStartMs?: number;
}

const floatOf = (wall: string): number =>
  Date.parse(`${wall.slice(0, 10)}T${wall.slice(11, 19) || '00:00:00'}Z`);

/** The mapped values of a post read as recurrence facets; undefined for a one-off. */
export function repeatOf(v: {
  recurrence: unknown;
  seriesParent: unknown;
  recurrenceId: unknown;
  start: string;
  end: string;
  startUtc: string | null;
  endUtc: string | null;
  timezone: string;
  allDay: boolean;
}): RepeatFacets | undefined {
  const rule = typeof v.recurrence === 'string' && readRuleText(v.recurrence) ? v.recurrence : undefined;
  const parent = Number(v.seriesParent);
  const original = typeof v.recurrenceId === 'string' ? msOfUtcWall(v.recurrenceId) : NaN;
  const isOverride = !rule && Number.isInteger(parent) && parent > 0 && Number.isFinite(original);
  if (!rule && !isOverride) return undefined;
  const utc = v.startUtc && v.endUtc ? floatOf(v.endUtc) - floatOf(v.startUtc) : NaN;
  const wall = floatOf(v.end) - floatOf(v.start);
  const durationMs = Math.max(0, Number.isFinite(utc) ? utc : Number.isFinite(wall) ? wall : 0);
  return {
    ...(rule ? { rule } : {}),
    start: v.start,
    timezone: v.timezone,
    allDay: v.allDay,
    durationMs,
    ...(isOverride ? { seriesParent: parent, originalStartMs: original } : {}),
  };
}

/** Whether two recurrence facets say the same. */
export const sameRepeat = (a: RepeatFacets | undefined, b: RepeatFacets | undefined): boolean =>
  a === b ||
  (!!a &&
    !!b &&
    a.rule === b.rule &&
    a.start === b.start &&
    a.timezone === b.timezone &&
    a.allDay === b.allDay &&
    a.durationMs === b.durationMs &&
    a.seriesParent === b.seriesParent &&
    a.originalStartMs === b.originalStartMs);
