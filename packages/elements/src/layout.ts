// Where events go: each event's days and times in the chosen zone, the bars of a week row in lanes, a day's columns.
import type { Event } from '@calendar-gateway/client';
import { addDays, type Day, daysBetween, maxDay, type Wall, wallIn, wallOf } from './dates.ts';

/** An event as a view places it. */
export interface Placed {
  event: Event;
  allDay: boolean;
  start: Wall;
  end: Wall;
  /** The first and last days it covers (an end at midnight does not cover that day). */
  first: Day;
  last: Day;
  /** All-day or over several days: drawn as a bar. */
  bar: boolean;
}

/**
 * Places an event. All-day events keep their dates (a day is the same day in every zone, as TEC shows it). Timed
 * events are read in `zone` from their UTC instants; without one, at the wall clock the API gives (the event's own
 * zone, as TEC's views show it).
 */
export function place(event: Event, zone?: string): Placed | undefined {
  const startLocal = event.start_date;
  const endLocal = event.end_date ?? startLocal;
  if (!startLocal || !endLocal) return undefined;
  const allDay = event.all_day === true;
  let start: Wall;
  let end: Wall;
  if (!allDay && zone && event.utc_start_date && event.utc_end_date) {
    start = wallIn(event.utc_start_date, zone);
    end = wallIn(event.utc_end_date, zone);
  } else {
    start = wallOf(startLocal);
    end = wallOf(endLocal);
  }
  if (allDay) {
    start = { day: start.day, minutes: 0 };
    end = { day: maxDay(end.day, start.day), minutes: 1440 };
  }
  let last = end.day;
  if (!allDay && end.minutes === 0 && end.day > start.day) last = addDays(end.day, -1);
  if (last < start.day) last = start.day;
  return { event, allDay, start, end, first: start.day, last, bar: allDay || last > start.day };
}

/** Events in start order: earlier first, then longer first, then by title. */
export function byStart(a: Placed, b: Placed): number {
  if (a.first !== b.first) return a.first < b.first ? -1 : 1;
  if (a.allDay !== b.allDay) return a.allDay ? -1 : 1;
  if (a.start.minutes !== b.start.minutes) return a.start.minutes - b.start.minutes;
  if (a.last !== b.last) return a.last > b.last ? -1 : 1;
  return (a.event.title ?? '').localeCompare(b.event.title ?? '');
}

/** A bar's piece in one row of days: from column `col`, `span` columns, in lane `lane`. */
export interface Segment {
  placed: Placed;
  col: number;
  span: number;
  lane: number;
  /** It goes on before or after this row. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

/** The bars of a row of days (a week) in lanes, each in the lowest lane free over its columns. */
export function barLanes(days: Day[], placed: Placed[]): { segments: Segment[]; lanes: number } {
  const first = days[0]!;
  const lastDay = days[days.length - 1]!;
  const taken: boolean[][] = [];
  const segments: Segment[] = [];
  for (const p of placed.filter((p) => p.bar && p.first <= lastDay && p.last >= first).sort(byStart)) {
    const col = Math.max(0, daysBetween(first, p.first));
    const end = Math.min(days.length - 1, daysBetween(first, p.last));
    let lane = 0;
    while (taken[lane]?.slice(col, end + 1).some(Boolean)) lane++;
    taken[lane] ??= [];
    for (let c = col; c <= end; c++) taken[lane]![c] = true;
    segments.push({
      placed: p,
      col,
      span: end - col + 1,
      lane,
      continuesBefore: p.first < first,
      continuesAfter: p.last > lastDay,
    });
  }
  return { segments, lanes: taken.length };
}

/** Every event covering `day`, in start order. */
export const eventsOn = (placed: Placed[], day: Day): Placed[] =>
  placed.filter((p) => p.first <= day && p.last >= day).sort(byStart);

/** A timed event's piece on one day of a time axis, in minutes, and its column among those it overlaps. */
export interface TimedBlock {
  placed: Placed;
  from: number;
  to: number;
  column: number;
  columns: number;
}

/** The timed events of one day on a time axis: overlapping events side by side. */
export function timedBlocks(placed: Placed[], day: Day): TimedBlock[] {
  const blocks: TimedBlock[] = placed
    .filter((p) => !p.allDay && p.first <= day && p.last >= day)
    .sort(byStart)
    .map((p) => ({
      placed: p,
      from: p.start.day === day ? p.start.minutes : 0,
      to:
        p.end.day === day ? Math.max(p.end.minutes, (p.start.day === day ? p.start.minutes : 0) + 15) : 1440,
      column: 0,
      columns: 1,
    }));
  // Clusters of overlapping blocks share the width; each block takes the first column free at its start.
  let cluster: TimedBlock[] = [];
  let clusterEnd = -1;
  const close = () => {
    const columns = Math.max(1, ...cluster.map((b) => b.column + 1));
    for (const b of cluster) b.columns = columns;
    cluster = [];
  };
  for (const b of blocks) {
    if (b.from >= clusterEnd) close();
    const busy = new Set(cluster.filter((o) => o.to > b.from).map((o) => o.column));
    while (busy.has(b.column)) b.column++;
    cluster.push(b);
    clusterEnd = Math.max(clusterEnd, b.to);
  }
  close();
  return blocks;
}
