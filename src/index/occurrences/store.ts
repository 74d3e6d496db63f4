// The occurrence store of an event index: every series and override it holds, and each series' occurrences expanded
// once per change over the horizon (a year back, the list window and a month ahead), kept twice: per series (starts
// and zone offsets, whole seconds, for one series' window) and all together in one start-sorted timeline
// (./timeline.ts, for a list's page and total without a walk of every series).
//
// A query inside the horizon reads them; one outside expands its own bounded window (`window`). Expanding costs
// milliseconds a series (src/recurrence/README.md), so it is done when a series changes, never per query. When the
// horizon has moved on by half a month, the series are expanded again in the background, a slice a tick; queries
// beyond what is kept meanwhile expand per series, as outside the horizon.
import { tick } from '../../pace/turns.ts';
import { MAX_PER_SERIES } from '../../recurrence/occurrences.ts';
import { type FLAG, flagsOf, type IndexedEvent } from '../columns/rows.ts';
import { type Expanded, expandFloating, floatOfWall, lowerIndex, NONE } from './expand.ts';
import { type RepeatFacets, sameRepeat } from './repeat.ts';
import { Timeline } from './timeline.ts';

const DAY_MS = 86_400_000;
const MONTH_MS = 31 * DAY_MS;
/** ms of re-expansion between two yields of the background job. */
const SLICE_MS = 5;

export interface OccurrenceStoreOptions {
  /** How far lists look ahead by default (months; the horizon reaches a month beyond). Default 24. */
  windowMonths?: number;
  /** The clock (tests). */
  now?: () => number;
  /** Entries per timeline block (tests make it small, to have many; EventIndex's `tuning.occurrenceBlock`). */
  occurrenceBlock?: number;
}

/** Who may read a series or override: its post's status, yes/no facets (src/index/columns/rows.ts) and author. */
export type Owner = Pick<IndexedEvent, 'status' | 'author' | keyof typeof FLAG>;

export interface Series {
  id: number;
  slot: number;
  repeat: RepeatFacets;
  /** Its status and flags as a class of the store (`classStatus`, `classFlags`), and its author. */
  klass: number;
  author: number;
  /** Its first occurrence's floating start. */
  first: number;
  /** The span expanded (floating ms) and its occurrences: starts in seconds after `base`, start − original (s). */
  from: number;
  to: number;
  starts: Int32Array;
  offs: Int32Array;
  /** The widest gap between two kept starts (s; Infinity with fewer than two). */
  maxGap: number;
}

/** A series' occurrences in a window: the arrays and the index range [lo, hi) of the window. */
export interface Window {
  occ: Expanded;
  lo: number;
  hi: number;
}

const EMPTY = new Int32Array(0);

export class OccurrenceStore {
  readonly #series = new Map<number, Series>();
  readonly #bySlot: (Series | undefined)[] = [];
  readonly #free: number[] = [];
  readonly #overrides = new Map<number, RepeatFacets>();
  /** Override ids by series id. */
  readonly #bySeries = new Map<number, Set<number>>();
  readonly #classes = new Map<string, number>();
  /** Each slot's series' class and duration (ms), read by every walk of the timeline (replaced when they grow). */
  slotClass = new Uint16Array(64);
  slotDur = new Float64Array(64);
  /**
   * Each slot's kept starts summed up for a count of series over every slot (`seriesIn`, ./walk.ts): whether a series
   * holds it (1), its first and last kept start (s) and the widest gap between two (s; Infinity with fewer than two).
   */
  slotLive = new Uint8Array(64);
  slotFirst = new Int32Array(64);
  slotLast = new Int32Array(64);
  slotGap = new Float64Array(64);
  readonly classStatus: string[] = [];
  readonly classFlags: number[] = [];
  readonly #windowMs: number;
  readonly #now: () => number;
  /** Every kept occurrence, by start. */
  readonly timeline: Timeline;
  /** Floating ms of second 0 of the kept starts (a whole day). */
  readonly base: number;
  /** The span new expansions cover, and the span every series' kept occurrences cover (they differ while the
   * background brings the series to a new horizon). */
  #epoch: { from: number; to: number };
  #cover: { from: number; to: number };
  #moving = false;
  /** Bumped by every change: what queries cache on. */
  version = 0;
  /** The longest series (ms): how far before a window an occurrence may start and still end in it. */
  #longest = 0;

  constructor(options: OccurrenceStoreOptions = {}) {
    this.#windowMs = (options.windowMonths ?? 24) * MONTH_MS;
    this.#now = options.now ?? Date.now;
    this.#epoch = this.horizon();
    this.#cover = this.#epoch;
    this.base = Math.floor((this.#epoch.from - 31 * DAY_MS) / DAY_MS) * DAY_MS;
    this.timeline = new Timeline(
      {
        classOf: (slot) => this.slotClass[slot],
        durOf: (slot) => this.slotDur[slot],
      },
      options.occurrenceBlock,
    );
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
  /** Slots used so far (a set of series is that many bytes). */
  get slots(): number {
    return this.#bySlot.length;
  }
  get overrideCount(): number {
    return this.#overrides.size;
  }
  /** Occurrences held in the horizons (the bench's and tests' measure). */
  get held(): number {
    return this.timeline.size;
  }

  /** The horizon now, floating ms: a year back, the window and a month ahead. */
  horizon(): { from: number; to: number } {
    const now = this.#now();
    return { from: now - 366 * DAY_MS, to: now + this.#windowMs + MONTH_MS };
  }

  /**
   * Whether every series' kept occurrences hold all of its occurrences starting in [fromFloat, toFloat] (the
   * timeline answers such a window). Starts the background move to a new horizon when the old one is due.
   */
  covers(fromFloat: number, toFloat: number): boolean {
    const now = this.horizon();
    if (!this.#moving && this.#epoch.to < now.to - MONTH_MS / 2) void this.#move(now);
    return fromFloat >= this.#cover.from && toFloat <= this.#cover.to;
  }

  /** The class of a status and flag bits (a few: statuses × flags). */
  #classOf(owner: Owner): number {
    const flags = flagsOf(owner);
    const key = `${owner.status}\n${flags}`;
    let c = this.#classes.get(key);
    if (c === undefined) {
      c = this.classStatus.length;
      this.#classes.set(key, c);
      this.classStatus.push(owner.status);
      this.classFlags.push(flags);
    }
    return c;
  }

  /**
   * Sets (or, with undefined, drops) an event's recurrence facets and who may read it; a series is expanded over the
   * horizon now (unless only its status or flags changed).
   */
  set(id: number, repeat: RepeatFacets | undefined, owner: Owner | undefined = OWNER): void {
    owner ??= OWNER;
    const had = this.#series.get(id);
    if (had && repeat && sameRepeat(had.repeat, repeat)) {
      const klass = this.#classOf(owner);
      had.author = owner.author;
      if (klass === had.klass) return;
      this.version++;
      this.#unmerge(had);
      had.klass = klass;
      this.slotClass[had.slot] = klass;
      this.#merge(had);
      return;
    }
    this.delete(id);
    if (!repeat) return;
    this.version++;
    if (repeat.rule !== undefined) {
      const slot = this.#free.pop() ?? this.#bySlot.length;
      const s: Series = {
        id,
        slot,
        repeat,
        klass: this.#classOf(owner),
        author: owner.author,
        first: floatOfWall(repeat.start),
        from: 0,
        to: 0,
        starts: EMPTY,
        offs: EMPTY,
        maxGap: Number.POSITIVE_INFINITY,
      };
      this.#series.set(id, s);
      this.#bySlot[slot] = s;
      if (slot >= this.slotClass.length) this.#grow();
      this.slotLive[slot] = 1;
      this.slotClass[slot] = s.klass;
      this.slotDur[slot] = repeat.durationMs;
      if (repeat.durationMs > this.#longest) this.#longest = repeat.durationMs;
      this.#expand(s, this.#epoch);
      this.#merge(s);
    } else if (repeat.seriesParent !== undefined) {
      this.#overrides.set(id, repeat);
      const set = this.#bySeries.get(repeat.seriesParent) ?? new Set<number>();
      this.#bySeries.set(repeat.seriesParent, set);
      set.add(id);
    }
  }

  /** Doubles the arrays by slot. */
  #grow(): void {
    const n = 2 * this.slotClass.length;
    const grown = <T extends Uint8Array | Uint16Array | Int32Array | Float64Array>(a: T, b: T): T => {
      b.set(a);
      return b;
    };
    this.slotClass = grown(this.slotClass, new Uint16Array(n));
    this.slotDur = grown(this.slotDur, new Float64Array(n));
    this.slotLive = grown(this.slotLive, new Uint8Array(n));
    this.slotFirst = grown(this.slotFirst, new Int32Array(n));
    this.slotLast = grown(this.slotLast, new Int32Array(n));
    this.slotGap = grown(this.slotGap, new Float64Array(n));
  }

  /** Expands a series over `span` into its kept arrays (not into the timeline). */
  #expand(s: Series, span: { from: number; to: number }): void {
    const occ = expandFloating(s.id, s.repeat, span.from, span.to, Number.MAX_SAFE_INTEGER);
    const n = occ.starts.length;
    const starts = new Int32Array(n);
    const offs = new Int32Array(n);
    let maxGap = n < 2 ? Number.POSITIVE_INFINITY : 0;
    for (let i = 0; i < n; i++) {
      starts[i] = (occ.starts[i] - this.base) / 1000;
      offs[i] = (occ.starts[i] - occ.originals[i]) / 1000;
      if (i > 0 && starts[i] - starts[i - 1] > maxGap) maxGap = starts[i] - starts[i - 1];
    }
    s.from = span.from;
    s.to = span.to;
    s.starts = starts;
    s.offs = offs;
    s.maxGap = maxGap;
    // None kept: a first after the last, which no stretch lies between.
    this.slotFirst[s.slot] = n > 0 ? starts[0] : 0x7fffffff;
    this.slotLast[s.slot] = n > 0 ? starts[n - 1] : -0x80000000;
    this.slotGap[s.slot] = maxGap;
  }

  #merge(s: Series): void {
    for (let i = 0; i < s.starts.length; i++) this.timeline.insert(s.starts[i], s.slot);
  }

  #unmerge(s: Series): void {
    for (let i = 0; i < s.starts.length; i++) this.timeline.remove(s.starts[i], s.slot);
  }

  delete(id: number): void {
    const s = this.#series.get(id);
    if (s) {
      this.#unmerge(s);
      this.#series.delete(id);
      this.#bySlot[s.slot] = undefined;
      this.slotLive[s.slot] = 0;
      this.#free.push(s.slot);
      this.version++;
    }
    const o = this.#overrides.get(id);
    if (o) {
      this.#overrides.delete(id);
      this.#bySeries.get(o.seriesParent ?? 0)?.delete(id);
      this.version++;
    }
  }

  clear(): void {
    for (const id of [...this.#series.keys()]) this.delete(id);
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

  /** A series by id or by slot. */
  series(id: number): Series | undefined {
    return this.#series.get(id);
  }
  atSlot(slot: number): Series | undefined {
    return this.#bySlot[slot];
  }
  /** Every series held. */
  allSeries(): IterableIterator<Series> {
    return this.#series.values();
  }
  /** Every override id held. */
  overrideIds(): number[] {
    return [...this.#overrides.keys()];
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

  /** Floating ms of a kept start. */
  floatAt(secs: number): number {
    return this.base + secs * 1000;
  }

  /**
   * The occurrences of a series whose floating start is in [fromFloat, toFloat]: from the arrays kept when the
   * window is inside what they hold, else expanded for this window alone, at most MAX_PER_SERIES.
   */
  window(seriesId: number, fromFloat: number, toFloat: number): Window {
    const s = this.#series.get(seriesId);
    if (!s || !(fromFloat <= toFloat)) return { occ: NONE, lo: 0, hi: 0 };
    if ((fromFloat >= s.from || s.first >= s.from) && toFloat <= s.to) {
      const lo = lowerSecs(s.starts, (fromFloat - this.base) / 1000, false);
      const hi = lowerSecs(s.starts, (toFloat - this.base) / 1000, true, lo);
      const starts = new Float64Array(hi - lo);
      const originals = new Float64Array(hi - lo);
      for (let i = lo; i < hi; i++) {
        starts[i - lo] = this.base + s.starts[i] * 1000;
        originals[i - lo] = starts[i - lo] - s.offs[i] * 1000;
      }
      return { occ: { starts, originals }, lo: 0, hi: hi - lo };
    }
    const occ = expandFloating(seriesId, s.repeat, fromFloat, toFloat, MAX_PER_SERIES);
    return { occ, lo: 0, hi: occ.starts.length };
  }

  /**
   * Whether a series has an occurrence starting in [fromFloat, the horizon's end]: `window`'s answer, read from the
   * kept starts without copying them when they cover it.
   */
  startsWithin(seriesId: number, fromFloat: number): boolean {
    const s = this.#series.get(seriesId);
    if (!s) return false;
    const to = this.horizon().to;
    if (!(fromFloat <= to)) return false;
    if ((fromFloat >= s.from || s.first >= s.from) && to <= s.to) {
      const lo = lowerSecs(s.starts, (fromFloat - this.base) / 1000, false);
      return lowerSecs(s.starts, (to - this.base) / 1000, true, lo) > lo;
    }
    return this.window(seriesId, fromFloat, to).hi > 0;
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

  /**
   * Brings every series to a new horizon, a slice a tick: each is expanded again and its timeline entries replaced.
   * Until the last is done, what every series holds is the old horizon's end and the new one's start.
   */
  async #move(now: { from: number; to: number }): Promise<void> {
    this.#moving = true;
    const old = this.#cover;
    this.#epoch = now;
    this.#cover = { from: Math.max(old.from, now.from), to: Math.min(old.to, now.to) };
    try {
      let t0 = performance.now();
      for (const id of [...this.#series.keys()]) {
        const s = this.#series.get(id);
        if (!s || s.to === now.to) continue;
        this.#unmerge(s);
        this.#expand(s, now);
        this.#merge(s);
        this.version++;
        if (performance.now() - t0 >= SLICE_MS) {
          await tick();
          t0 = performance.now();
        }
      }
      if (this.#epoch === now) this.#cover = now;
    } finally {
      this.#moving = false;
    }
  }
}

/** Who reads a series or override set without one (tests): published, no flags but `series`. */
const OWNER: Owner = {
  status: 'publish',
  author: 0,
  hidden: false,
  featured: false,
  protected: false,
  hasExcerpt: false,
  series: true,
};

/** The first index of a sorted array whose value is ≥ `v` (`strict`: > `v`). */
export function lowerSecs(a: Int32Array, v: number, strict: boolean, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? a[mid] <= v : a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export { lowerIndex };
