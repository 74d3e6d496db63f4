// A series' occurrences on its wall clock: what the occurrence store keeps and what a query outside it expands.
//
// Times here are "floating" ms: a local wall clock `Y-m-d H:i:s` read as if UTC. They order as the index orders
// events (by their local start, src/index/columns/wall-clock.ts), and a length can be added to them.
import { Expander, readRuleText } from '../../recurrence/expand.ts';
import { occurrenceId } from '../../recurrence/ids.ts';
import { wallText } from '../columns/wall-clock.ts';
import type { RepeatFacets } from './repeat.ts';

const DAY_MS = 86_400_000;

/** A local wall clock `Y-m-d H:i:s` (or a date, taken at its midnight) as floating ms; NaN when unreadable. */
export const floatOfWall = (wall: string): number =>
  Date.parse(`${wall.slice(0, 10)}T${wall.length >= 19 ? wall.slice(11, 19) : '00:00:00'}Z`);

/**
 * A wall-clock key of the columns (src/index/columns/wall-clock.ts) as floating ms: what {@link floatOfWall} gives
 * for its text, without the text (a list reads the start of every one-off it may show).
 */
export function floatOfKey(key: number): number {
  if (!Number.isFinite(key)) return Number.NaN;
  const whole = Math.ceil(key);
  const day = Math.floor(whole / 1e6);
  const t = whole % 1e6;
  const [y, m, d] = [Math.floor(day / 1e4), Math.floor(day / 100) % 100, day % 100];
  const [hh, mm, ss] = [Math.floor(t / 1e4), Math.floor(t / 100) % 100, t % 100];
  // Anything Date.UTC would carry over (a 30 February, a 24:00) goes the way the text does.
  if (y < 1000 || m < 1 || m > 12 || d < 1 || d > 28 || hh > 23 || mm > 59 || ss > 59)
    return floatOfWall(wallText(key));
  return Date.UTC(y, m - 1, d, hh, mm, ss);
}

/** A query bound as floating ms: a bare date sorts just before its midnight, as the index's keys do. */
export const floatOfBound = (wall: string | undefined): number | undefined =>
  wall === undefined ? undefined : wall.length === 10 ? floatOfWall(wall) - 0.5 : floatOfWall(wall);

/** Occurrences by start: their floating starts and their original starts (ms, UTC), in step. */
export interface Expanded {
  starts: Float64Array;
  originals: Float64Array;
}

export const NONE: Expanded = { starts: new Float64Array(0), originals: new Float64Array(0) };

/** The expander of a series' facets, or undefined when its rule or start cannot be read. */
export function expanderOf(r: RepeatFacets): Expander | undefined {
  const rule = readRuleText(r.rule);
  if (!rule) return undefined;
  return Expander.of(rule, { start: r.start, timezone: r.timezone || 'UTC', allDay: r.allDay });
}

/**
 * The occurrences of series `seriesId` whose floating start is in [fromFloat, toFloat], at most `limit`, each with
 * an occurrence id (an occurrence outside the id scheme's limits, before 2000 or off the minute, is left out).
 */
export function expandFloating(
  seriesId: number,
  r: RepeatFacets,
  fromFloat: number,
  toFloat: number,
  limit: number,
): Expanded {
  const e = expanderOf(r);
  if (!e || !(fromFloat <= toFloat)) return NONE;
  const starts: number[] = [];
  const originals: number[] = [];
  // A zone's offset is within ±14 h: a day either side holds every instant whose wall clock is in the window.
  const from = Math.max(fromFloat, floatOfWall(r.start) - DAY_MS);
  for (const o of e.between(from - DAY_MS, toFloat + DAY_MS, limit + 64)) {
    const f = floatOfWall(o.wall);
    if (!(f >= fromFloat && f <= toFloat)) continue;
    if (occurrenceId({ seriesId, originalStartMs: o.ms }) === undefined) continue;
    starts.push(f);
    originals.push(o.ms);
    if (starts.length >= limit) break;
  }
  return { starts: Float64Array.from(starts), originals: Float64Array.from(originals) };
}

/** The first index of a sorted array whose value is ≥ `v` (`strict`: > `v`). */
export function lowerIndex(a: Float64Array, v: number, strict: boolean, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? a[mid] <= v : a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
