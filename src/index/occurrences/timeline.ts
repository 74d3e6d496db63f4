// Every kept occurrence of every series in one start-sorted order, in small blocks with a count per class (status and
// flags of the series), as the columns keep their rows (src/index/columns/order.ts): a list's page is read from the
// first entries of its window and its total from the blocks' counts, not series by series.
//
// An entry is its floating start (whole seconds after the store's base: every start is a wall clock `Y-m-d H:i:s`)
// and the slot of its series (src/index/occurrences/store.ts); entries are ordered by (start, slot). A change of a
// series moves its entries one at a time: O(log n + BLOCK) each, nothing is re-sorted. A window's total over many
// blocks is read from running totals of their counts (./sums.ts), which a change marks stale from its block on.
import { seekBlocks } from '../columns/order.ts';
import { CountPool } from './counts.ts';
import { BlockSums } from './sums.ts';

/** Entries per block: a change moves at most 2 × this many entries of each array. */
const BLOCK = 256;
/** Classes a block counts at first (the count arrays grow together when more appear). */
const CLASSES = 16;
/** Counts kept per block for sets of series (the last few sets asked for). */
const KEPT = 4;

export interface TimelineBlock {
  starts: Int32Array;
  slots: Int32Array;
  n: number;
  /** How many entries of each series class (src/index/occurrences/store.ts, `classOf`), by class: a view of the
   * block's place in the timeline's pool of counts (./counts.ts). */
  counts: Uint32Array;
  place: number;
  /** Counts of the entries of a set of series (keyed by the set's object), made by a query, for this version. */
  kept: { set: object; version: number; count: number }[];
  /** Bounds on the durations (ms) of the entries' series: kept on removal (still bounds), exact after a split. */
  minDur: number;
  maxDur: number;
  /** Bumped by every change of the block's entries (keys what a query kept of it). */
  version: number;
}

/** What the timeline reads of a series slot. */
export interface SlotInfo {
  classOf(slot: number): number;
  durOf(slot: number): number;
}

const newBlock = (capacity: number, counts: Uint32Array, place: number): TimelineBlock => ({
  starts: new Int32Array(capacity),
  slots: new Int32Array(capacity),
  n: 0,
  counts,
  place,
  kept: [],
  minDur: Number.POSITIVE_INFINITY,
  maxDur: Number.NEGATIVE_INFINITY,
  version: 0,
});

export class Timeline {
  blocks: TimelineBlock[] = [];
  /** Entries held. */
  size = 0;
  /** Running totals of the blocks' counts (per class, per kept set). */
  readonly sums = new BlockSums();
  readonly #info: SlotInfo;
  readonly #block: number;
  /** Every block's counts. */
  readonly counts = new CountPool(CLASSES);

  constructor(info: SlotInfo, block = BLOCK) {
    this.#info = info;
    this.#block = block;
  }

  /** The block holding (or to hold) entry (start, slot): the first whose last entry is not before it, else the last. */
  #blockOf(start: number, slot: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const b = this.blocks[mid];
      const s = b.starts[b.n - 1];
      if (s < start || (s === start && b.slots[b.n - 1] < slot)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #indexIn(b: TimelineBlock, start: number, slot: number): number {
    let lo = 0;
    let hi = b.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = b.starts[mid];
      if (s < start || (s === start && b.slots[mid] < slot)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A new block at index `at` of the blocks, with `capacity` entries. */
  #add(at: number, capacity: number): TimelineBlock {
    const { place, moved } = this.counts.take();
    if (moved) this.#repoint();
    const b = newBlock(capacity, this.counts.view(place), place);
    this.blocks.splice(at, 0, b);
    this.counts.insert(at, place);
    return b;
  }

  /** Every block's counts made a view of the pool again (it was replaced). */
  #repoint(): void {
    for (const blk of this.blocks) blk.counts = this.counts.view(blk.place);
  }

  #count(at: number, b: TimelineBlock, slot: number, by: number): void {
    const c = this.#info.classOf(slot);
    if (c >= this.counts.width) {
      this.counts.widen(c);
      this.#repoint();
    }
    b.counts[c] += by;
    this.sums.changed(at, c);
  }

  /** Counts of a set of series kept for a block at its version (see {@link TimelineBlock.kept}), or -1. */
  static kept(b: TimelineBlock, set: object): number {
    for (const k of b.kept) if (k.set === set) return k.version === b.version ? k.count : -1;
    return -1;
  }

  static keep(b: TimelineBlock, set: object, count: number): void {
    const k = b.kept.find((x) => x.set === set);
    if (k) {
      k.version = b.version;
      k.count = count;
      return;
    }
    if (b.kept.length >= KEPT) b.kept.shift();
    b.kept.push({ set, version: b.version, count });
  }

  insert(start: number, slot: number): void {
    if (this.blocks.length === 0) this.#add(0, this.#block);
    const at = this.#blockOf(start, slot);
    const b = this.blocks[at];
    const i = this.#indexIn(b, start, slot);
    if (b.n === b.starts.length) {
      // Full: grow it (blocks start small, so a bulk of few entries costs little), up to twice the block size.
      const starts = new Int32Array(Math.min(2 * this.#block, b.n * 2));
      const slots = new Int32Array(starts.length);
      starts.set(b.starts.subarray(0, b.n));
      slots.set(b.slots.subarray(0, b.n));
      b.starts = starts;
      b.slots = slots;
    }
    b.starts.copyWithin(i + 1, i, b.n);
    b.slots.copyWithin(i + 1, i, b.n);
    b.starts[i] = start;
    b.slots[i] = slot;
    b.n++;
    b.version++;
    this.size++;
    this.#count(at, b, slot, 1);
    const d = this.#info.durOf(slot);
    if (d < b.minDur) b.minDur = d;
    if (d > b.maxDur) b.maxDur = d;
    if (b.n === 2 * this.#block) {
      // Split a full block in two halves.
      const half = this.#block;
      const right = this.#add(at + 1, 2 * half);
      right.starts.set(b.starts.subarray(half, b.n));
      right.slots.set(b.slots.subarray(half, b.n));
      right.n = b.n - half;
      b.n = half;
      b.version++;
      this.#summarise(b);
      this.#summarise(right);
      this.sums.split(at, b);
    }
  }

  /** Removes entry (start, slot); false when it is not held. */
  remove(start: number, slot: number): boolean {
    if (this.blocks.length === 0) return false;
    const at = this.#blockOf(start, slot);
    const b = this.blocks[at];
    const i = this.#indexIn(b, start, slot);
    if (i >= b.n || b.starts[i] !== start || b.slots[i] !== slot) return false;
    this.#count(at, b, slot, -1);
    b.starts.copyWithin(i, i + 1, b.n);
    b.slots.copyWithin(i, i + 1, b.n);
    b.n--;
    b.version++;
    this.size--;
    if (b.n === 0) {
      this.blocks.splice(at, 1);
      this.counts.remove(at);
      this.counts.release(b.place);
      this.sums.removed(at);
    }
    return true;
  }

  #summarise(b: TimelineBlock): void {
    b.counts.fill(0);
    b.minDur = Number.POSITIVE_INFINITY;
    b.maxDur = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < b.n; i++) {
      const slot = b.slots[i];
      b.counts[this.#info.classOf(slot)]++;
      const d = this.#info.durOf(slot);
      if (d < b.minDur) b.minDur = d;
      if (d > b.maxDur) b.maxDur = d;
    }
  }

  /** The first block from `k` on whose last start is after `secs` (blocks.length when none is). */
  endOfRun(k: number, secs: number): number {
    let lo = k;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const b = this.blocks[mid];
      if (b.starts[b.n - 1] <= secs) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first position whose start is at least `key` (`strict`: above it), as [block, index]. */
  seek(key: number, strict: boolean): [number, number] {
    return seekBlocks(this.blocks, key, strict);
  }
}
