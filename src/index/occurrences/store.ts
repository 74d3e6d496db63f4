// The occurrence store of an event index: every series and override it holds, and each series' occurrences expanded
// once per change over a horizon (a year back, the list window ahead), kept as typed arrays sorted by start.
//
// A query inside the horizon reads them (two binary searches a series); one outside expands its own bounded window
// (`window`). Expanding costs milliseconds a series (src/recurrence/README.md), so it is done when a series changes,
// never per query.
import { MAX_PER_SERIES } from '../../recurrence/occurrences.ts';
import { type Expanded, expandFloating, floatOfWall, lowerIndex, NONE } from './expand.ts';
import type { RepeatFacets } from './repeat.ts';

const DAY_MS = 86_400_000;
const MONTH_MS = 31 * DAY_MS;

export interface OccurrenceStoreOptions {
  /** How far lists look ahead by default (months; the horizon reaches a month beyond). Default 24. */
  windowMonths?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Series {
  repeat: RepeatFacets;
  /** The horizon expanded (floating ms) and its occurrences; undefined until first needed after a change. */
  from: number;
  to: number;
  occ: Expanded;
}

/** A series' occurrences in a window: the arrays and the index range [lo, hi) of the window. */
export interface Window {
  occ: Expanded;
  lo: number;
  hi: number;
}

export class OccurrenceStore {
  readonly #series = new Map<number, Series>();
  readonly #overrides = new Map<number, RepeatFacets>();
  /** Override ids by series id. */
  readonly #bySeries = new Map<number, Set<number>>();
  readonly #windowMs: number;
  readonly #now: () => number;
  /** Bumped by every change: what queries cache on. */
  version = 0;
  /** The longest series (ms): how far before a window an occurrence may start and still end in it. */
  #longest = 0;

  constructor(options: OccurrenceStoreOptions = {}) {
    this.#windowMs = (options.windowMonths ?? 24) * MONTH_MS;
    this.#now = options.now ?? Date.now;
  }

  get windowMs(): number {
    return this.#windowMs;
  }
  get longestMs(): number {
    return this.#longest;
  }
  get seriesCount(): number {
    return this.#series.size;
  }
  /** Occurrences held in the horizons (the bench's and tests' measure). */
  get held(): number {
    let n = 0;
    for (const s of this.#series.values()) n += s.occ.starts.length;
    return n;
  }

  /** The horizon now, floating ms: a year back, the window and a month ahead. */
  horizon(): { from: number; to: number } {
    const now = this.#now();
    return { from: now - 366 * DAY_MS, to: now + this.#windowMs + MONTH_MS };
  }

  /** Sets (or, with undefined, drops) an event's recurrence facets; a series is expanded over the horizon now. */
  set(id: number, repeat: RepeatFacets | undefined): void {
    this.delete(id);
    if (!repeat) return;
    this.version++;
    if (repeat.rule !== undefined) {
      const { from, to } = this.horizon();
      this.#series.set(id, {
        repeat,
        from,
        to,
        occ: expandFloating(id, repeat, from, to, Number.MAX_SAFE_INTEGER),
      });
      if (repeat.durationMs > this.#longest) this.#longest = repeat.durationMs;
    } else if (repeat.seriesParent !== undefined) {
      this.#overrides.set(id, repeat);
      const set = this.#bySeries.get(repeat.seriesParent) ?? new Set<number>();
      this.#bySeries.set(repeat.seriesParent, set);
      set.add(id);
    }
  }

  delete(id: number): void {
    if (this.#series.delete(id)) this.version++;
    const o = this.#overrides.get(id);
    if (o) {
      this.#overrides.delete(id);
      this.#bySeries.get(o.seriesParent ?? 0)?.delete(id);
      this.version++;
    }
  }

  clear(): void {
    this.#series.clear();
    this.#overrides.clear();
    this.#bySeries.clear();
    this.version++;
  }

  get(id: number): RepeatFacets | undefined {
    return this.#series.get(id)?.repeat ?? this.#overrides.get(id);
  }

  isSeries(id: number): boolean {
    return this.#series.has(id);
  }

  /** The override ids of a series. */
  overridesOf(seriesId: number): ReadonlySet<number> {
    return this.#bySeries.get(seriesId) ?? new Set();
  }

  /** Every series' and override's facets (a snapshot's). */
  *entries(): Generator<[number, RepeatFacets]> {
    for (const [id, s] of this.#series) yield [id, s.repeat];
    yield* this.#overrides;
  }

  /**
   * The occurrences of a series whose floating start is in [fromFloat, toFloat]: from the arrays kept when the
   * window is inside the horizon (expanded again once the horizon has moved on), else expanded for this window alone,
   * at most MAX_PER_SERIES.
   */
  window(seriesId: number, fromFloat: number, toFloat: number): Window {
    const s = this.#series.get(seriesId);
    if (!s || !(fromFloat <= toFloat)) return { occ: NONE, lo: 0, hi: 0 };
    const now = this.horizon();
    if (s.to < now.to - MONTH_MS / 2 && toFloat <= now.to) {
      // The horizon moved on since this series was expanded: once, for every query after.
      s.from = now.from;
      s.to = now.to;
      s.occ = expandFloating(seriesId, s.repeat, now.from, now.to, Number.MAX_SAFE_INTEGER);
    }
    const first = floatOfWall(s.repeat.start);
    if ((fromFloat >= s.from || first >= s.from) && toFloat <= s.to) {
      const lo = lowerIndex(s.occ.starts, fromFloat, false);
      return { occ: s.occ, lo, hi: lowerIndex(s.occ.starts, toFloat, true, lo) };
    }
    const occ = expandFloating(seriesId, s.repeat, fromFloat, toFloat, MAX_PER_SERIES);
    return { occ, lo: 0, hi: occ.starts.length };
  }

  /** Whether the series has an occurrence whose original start is `originalMs` (an override replaces one). */
  occursAt(seriesId: number, originalMs: number): boolean {
    const s = this.#series.get(seriesId);
    if (!s) return false;
    // The wall clock is within ±14 h of UTC: look there.
    const w = this.window(seriesId, originalMs - DAY_MS, originalMs + DAY_MS);
    for (let i = w.lo; i < w.hi; i++) if (w.occ.originals[i] === originalMs) return true;
    return false;
  }
}
