// A list's occurrences read from the timeline (./timeline.ts): the first `want` in (start, id) order and how many
// there are, in O(log n + the page + blocks in the window). Blocks wholly inside the window are counted from their
// counts per class (a query on status and flags alone) or from counts kept per set of matching series (a search, a
// term filter), made once per block and set; only the window's first entries and its edges are read one by one.
import { occurrenceId } from '../../recurrence/ids.ts';
import { lowerSecs, type OccurrenceStore, type Series } from './store.ts';
import { Timeline, type TimelineBlock } from './timeline.ts';

/** One item of a list: an event as itself, or an occurrence of a series (its override's post when there is one). */
export interface ListItem {
  /** The id the answer shows: the post id of a one-off, the occurrence id of an occurrence. */
  id: number;
  /** The post the record is read from: the one-off, the series, or the override. */
  post: number;
  /** Floating start (the local wall clock as if UTC): the order. */
  start: number;
  occurrence?: { seriesId: number; originalStartMs: number; overrideId?: number };
}

/** A query's bounds on floating starts and ends (ms), and `to`, the end of the window expanded. */
export interface FloatBounds {
  sGte?: number;
  sGt?: number;
  sLt?: number;
  eLte?: number;
  eLt?: number;
  eGt?: number;
  lower: number;
  to: number;
}

/**
 * Which series a list reads: by class (status and flags alone: `pass` by class, `listed` the classes passed), or a
 * set of slots (its counts are kept per block, keyed by the object).
 */
export type Selection =
  | { pass: Uint8Array; listed: number[]; inS: null }
  | { pass: null; listed: null; inS: Uint8Array };

/** Original starts replaced by an override the caller sees: start (s) of the entry, by slot. */
export type Gone = Map<number, Set<number>>;

/** Whether an occurrence starting at `f` (floating ms) of a series lasting `d` ms is in the bounds. */
function inBounds(b: FloatBounds, f: number, d: number): boolean {
  return (
    f >= b.lower &&
    f <= b.to &&
    (b.sGte === undefined || f >= b.sGte) &&
    (b.sGt === undefined || f > b.sGt) &&
    (b.sLt === undefined || f < b.sLt) &&
    (b.eLte === undefined || f <= b.eLte - d) &&
    (b.eLt === undefined || f < b.eLt - d) &&
    (b.eGt === undefined || f > b.eGt - d)
  );
}

/** Whether every entry of a block is in the bounds (from its first and last start and its durations' range). */
function inside(b: FloatBounds, blk: TimelineBlock, base: number): boolean {
  if (blk.n === 0) return false;
  const f0 = base + blk.starts[0] * 1000;
  const fl = base + blk.starts[blk.n - 1] * 1000;
  return (
    f0 >= b.lower &&
    fl <= b.to &&
    (b.sGte === undefined || f0 >= b.sGte) &&
    (b.sGt === undefined || f0 > b.sGt) &&
    (b.sLt === undefined || fl < b.sLt) &&
    (b.eLte === undefined || fl <= b.eLte - blk.maxDur) &&
    (b.eLt === undefined || fl < b.eLt - blk.maxDur) &&
    (b.eGt === undefined || f0 > b.eGt - blk.minDur)
  );
}

const passes = (sel: Selection, s: Series): boolean =>
  sel.pass !== null ? sel.pass[s.klass] === 1 : sel.inS[s.slot] === 1;

/** The item of entry `secs` of series `s`. */
export function itemOf(store: OccurrenceStore, s: Series, secs: number): ListItem {
  const i = lowerSecs(s.starts, secs, false);
  const start = store.floatAt(secs);
  const originalStartMs = start - s.offs[i] * 1000;
  return {
    id: occurrenceId({ seriesId: s.id, originalStartMs }) ?? 0,
    post: s.id,
    start,
    occurrence: { seriesId: s.id, originalStartMs },
  };
}

/** How many entries of a block pass the selection. */
function countOf(sel: Selection, blk: TimelineBlock): number {
  let c = 0;
  if (sel.listed !== null) {
    const counts = blk.counts;
    for (const k of sel.listed) c += counts[k] ?? 0;
    return c;
  }
  const kept = Timeline.kept(blk, sel);
  if (kept >= 0) return kept;
  const { slots, n } = blk;
  const inS = sel.inS;
  for (let i = 0; i < n; i++) c += inS[slots[i]];
  Timeline.keep(blk, sel, c);
  return c;
}

/** How many entries of blocks [k1, k2) pass the selection, from the timeline's running totals. */
function rangeOf(store: OccurrenceStore, sel: Selection, k1: number, k2: number): number {
  const { blocks, sums } = store.timeline;
  return sel.listed !== null
    ? sums.ofClasses(store.timeline.counts, sel.listed, k1, k2)
    : sums.ofSet(blocks, sel, (blk) => countOf(sel, blk), k1, k2);
}

/**
 * The last kept start (s) that is in the bounds' upper side whatever its series' duration, up to `longest` ms: an
 * entry starting after the window's first and no later than this is in the bounds.
 */
function lastSure(b: FloatBounds, base: number, longest: number): number {
  const atMost = (x: number) => Math.floor((x - base) / 1000);
  const below = (x: number) => Math.ceil((x - base) / 1000) - 1;
  return Math.min(
    atMost(b.to),
    b.sLt === undefined ? Number.POSITIVE_INFINITY : below(b.sLt),
    b.eLte === undefined ? Number.POSITIVE_INFINITY : atMost(b.eLte - longest),
    b.eLt === undefined ? Number.POSITIVE_INFINITY : below(b.eLt - longest),
  );
}

/** The bounds as numbers (no bound: an infinity), read by the walks' inner loops. */
function limits(b: FloatBounds) {
  return {
    lo: Math.max(b.lower, b.sGte ?? Number.NEGATIVE_INFINITY),
    above: b.sGt ?? Number.NEGATIVE_INFINITY,
    hi: b.to,
    below: b.sLt ?? Number.POSITIVE_INFINITY,
    eLte: b.eLte ?? Number.POSITIVE_INFINITY,
    eLt: b.eLt ?? Number.POSITIVE_INFINITY,
    eGt: b.eGt ?? Number.NEGATIVE_INFINITY,
  };
}

/**
 * The first `want` occurrences (and those starting with the last of them) as entries (start in seconds, slot), and
 * how many there are, counting gone ones (the caller takes those in the bounds off) but listing none.
 */
export function walkPage(
  store: OccurrenceStore,
  sel: Selection,
  b: FloatBounds,
  want: number,
  gone: Gone,
): { secs: number[]; slots: number[]; total: number } {
  const { blocks } = store.timeline;
  const { base, slotClass, slotDur } = store;
  const { lo, above, hi, below, eLte, eLt, eGt } = limits(b);
  const { pass, inS } = sel;
  const anyGone = gone.size > 0;
  const out = { secs: [] as number[], slots: [] as number[], total: 0 };
  let total = 0;
  let cutoff = Number.POSITIVE_INFINITY;
  const sure = lastSure(b, base, store.longestMs);
  const [b0, i0] = store.timeline.seek(Math.floor((b.lower - base) / 1000), false);
  for (let k = b0, i = i0; k < blocks.length; k++, i = 0) {
    const blk = blocks[k];
    if (i === 0 && out.secs.length >= want && blk.starts[0] > cutoff && inside(b, blk, base)) {
      // Every block from here up to the last start `sure` is inside too (starts only grow; no series lasts longer
      // than the longest), unless an end bound's early side still depends on the durations.
      const end = base + blk.starts[0] * 1000 > eGt ? store.timeline.endOfRun(k, sure) : k;
      if (end > k) {
        total += rangeOf(store, sel, k, end);
        k = end - 1;
      } else total += countOf(sel, blk);
      continue;
    }
    const { starts, slots, n } = blk;
    for (; i < n; i++) {
      const secs = starts[i];
      const f = base + secs * 1000;
      if (f > hi) {
        out.total = total;
        return out;
      }
      const slot = slots[i];
      if (pass !== null ? pass[slotClass[slot]] !== 1 : inS[slot] !== 1) continue;
      const e = f + slotDur[slot];
      if (f < lo || f <= above || f >= below || e > eLte || e >= eLt || e <= eGt) continue;
      total++;
      if (out.secs.length >= want && secs !== cutoff) continue;
      if (anyGone && gone.get(slot)?.has(secs)) continue;
      out.secs.push(secs);
      out.slots.push(slot);
      if (out.secs.length === want) cutoff = secs;
    }
  }
  out.total = total;
  return out;
}

/**
 * Items [offset, offset + perPage) of the merge of `others` (one-offs and moved overrides, any order) and the
 * entries of {@link walkPage} (in start order), ordered by (start, id): items are made only for the starts the page
 * reaches into (ties are ordered by id, which an entry has only as an item).
 */
export function pageOf(
  store: OccurrenceStore,
  others: ListItem[],
  entries: { secs: number[]; slots: number[] },
  offset: number,
  perPage: number,
): ListItem[] {
  others.sort((a, b) => a.start - b.start || a.id - b.id);
  const out: ListItem[] = [];
  const end = offset + perPage;
  const { secs, slots } = entries;
  let i = 0;
  let j = 0;
  let pos = 0;
  while (pos < end && (i < others.length || j < secs.length)) {
    const start = Math.min(others[i]?.start ?? Infinity, j < secs.length ? store.floatAt(secs[j]) : Infinity);
    let i2 = i;
    while (i2 < others.length && others[i2].start === start) i2++;
    let j2 = j;
    while (j2 < secs.length && secs[j2] === secs[j] && store.floatAt(secs[j2]) === start) j2++;
    const n = i2 - i + (j2 - j);
    if (pos + n > offset) {
      const group = others.slice(i, i2);
      for (let k = j; k < j2; k++) {
        const s = store.atSlot(slots[k]);
        if (s) group.push(itemOf(store, s, secs[k]));
      }
      group.sort((a, b) => a.id - b.id);
      for (const item of group) {
        if (pos >= offset && pos < end) out.push(item);
        pos++;
      }
    } else pos += n;
    i = i2;
    j = j2;
  }
  return out;
}

/** The first occurrence of each of the first `want` series (by it), and those starting with the last of them. */
export function walkFirsts(
  store: OccurrenceStore,
  sel: Selection,
  b: FloatBounds,
  want: number,
  gone: Gone,
): ListItem[] {
  const { blocks } = store.timeline;
  const base = store.base;
  const items: ListItem[] = [];
  const seen = new Set<number>();
  let cutoff = Number.POSITIVE_INFINITY;
  const [b0, i0] = store.timeline.seek(Math.floor((b.lower - base) / 1000), false);
  for (let k = b0, i = i0; k < blocks.length; k++, i = 0) {
    const { starts, slots, n } = blocks[k];
    for (; i < n; i++) {
      const secs = starts[i];
      const f = base + secs * 1000;
      if (f > b.to || secs > cutoff) return items;
      const slot = slots[i];
      if (seen.has(slot)) continue;
      const s = store.atSlot(slot);
      if (!s || !passes(sel, s) || !inBounds(b, f, s.repeat.durationMs)) continue;
      if (gone.get(slot)?.has(secs)) continue;
      seen.add(slot);
      items.push(itemOf(store, s, secs));
      if (items.length === want) cutoff = secs;
    }
  }
  return items;
}

/**
 * How many series of the selection have an occurrence in the bounds that is not gone, or are in `also`. A tight loop
 * over the slots' typed arrays (20k series: tens of µs); a series is read itself only when its kept starts' summary
 * does not settle it.
 */
export function seriesIn(
  store: OccurrenceStore,
  sel: Selection,
  b: FloatBounds,
  gone: Gone,
  also: ReadonlySet<number>,
): number {
  const { slotClass, slotDur, slotLive, slotFirst, slotLast, slotGap, base } = store;
  const { lo, above, hi, below, eLte, eLt, eGt } = limits(b);
  const { pass, inS } = sel;
  const from = Math.max(lo, above);
  const to = Math.min(hi, below);
  const anyGone = gone.size > 0;
  const anyAlso = also.size > 0;
  let count = 0;
  for (let slot = 0, n = store.slots; slot < n; slot++) {
    if (slotLive[slot] !== 1) continue;
    if (pass !== null ? pass[slotClass[slot]] !== 1 : inS[slot] !== 1) {
      if (anyAlso && also.has((store.atSlot(slot) as Series).id)) count++;
      continue;
    }
    const d = slotDur[slot];
    // The lower bounds hold past l, the upper ones up to h (the strict ones aside).
    const l = Math.max(from, eGt - d);
    const h = Math.min(to, eLte - d, eLt - d);
    const first = base + slotFirst[slot] * 1000;
    const last = base + slotLast[slot] * 1000;
    let hit: boolean;
    if (anyGone && gone.has(slot)) hit = occursIn(store, store.atSlot(slot) as Series, b, gone);
    // Its first kept start is past every lower bound: it is in when it is before the upper ones (none kept: never).
    else if (first > l) hit = first <= hi && first < below && first <= eLte - d && first < eLt - d;
    else if (last < l) hit = false;
    // Every stretch longer than the widest gap between kept starts, inside them, holds one.
    else if (h - l > slotGap[slot] * 1000 + 1000 && last >= h) hit = true;
    else hit = occursIn(store, store.atSlot(slot) as Series, b, gone);
    if (hit || (anyAlso && also.has((store.atSlot(slot) as Series).id))) count++;
  }
  return count;
}

/** Whether a series has an occurrence in the bounds that is not gone. */
export function occursIn(store: OccurrenceStore, s: Series, b: FloatBounds, gone: Gone): boolean {
  const n = s.starts.length;
  if (n === 0) return false;
  const d = s.repeat.durationMs;
  const lo = Math.max(b.lower, b.sGte ?? -Infinity, b.sGt ?? -Infinity, (b.eGt ?? -Infinity) - d);
  const hi = Math.min(b.to, b.sLt ?? Infinity, (b.eLte ?? Infinity) - d, (b.eLt ?? Infinity) - d);
  if (!(lo <= hi)) return false;
  const g = gone.get(s.slot);
  // Every stretch longer than the widest gap between kept starts, inside them, holds one.
  if (
    g === undefined &&
    hi - lo > s.maxGap * 1000 + 1000 &&
    store.floatAt(s.starts[0]) <= lo &&
    store.floatAt(s.starts[n - 1]) >= hi
  )
    return true;
  for (let i = lowerSecs(s.starts, Math.floor((lo - store.base) / 1000), false); i < n; i++) {
    const f = store.floatAt(s.starts[i]);
    if (f > hi) return false;
    if (inBounds(b, f, d) && !g?.has(s.starts[i])) return true;
  }
  return false;
}

/** The entries of gone originals, and how many of them pass the selection and the bounds. */
export function goneOf(
  store: OccurrenceStore,
  sel: Selection,
  b: FloatBounds,
  replaced: Map<number, number[]>,
): { gone: Gone; within: number } {
  const gone: Gone = new Map();
  let within = 0;
  for (const [seriesId, originals] of replaced) {
    const s = store.series(seriesId);
    if (!s) continue;
    for (const ms of originals) {
      // Its start is within a day of its original (a zone's offset is within ±14 h).
      const from = lowerSecs(s.starts, Math.floor((ms - 86_400_000 - store.base) / 1000), false);
      for (let i = from; i < s.starts.length; i++) {
        const f = store.floatAt(s.starts[i]);
        if (f > ms + 86_400_000) break;
        if (f - s.offs[i] * 1000 !== ms) continue;
        const set = gone.get(s.slot) ?? new Set<number>();
        gone.set(s.slot, set);
        if (set.has(s.starts[i])) break;
        set.add(s.starts[i]);
        if (passes(sel, s) && inBounds(b, f, s.repeat.durationMs)) within++;
        break;
      }
    }
  }
  return { gone, within };
}
