// Rows in (start, id) order, in small blocks: a change moves one block's entries, and nothing is re-sorted.
//
// Each block keeps a copy of what every list reads of its rows and a count per meta value, so a walk reads memory in
// sequence and a block wholly inside a window is counted without one.
import { NO_DATE } from './wall-clock.ts';

/** Rows per block of the ordered list: a change moves at most this many entries. */
const BLOCK = 512;

/** The columns the order reads (the rows); replaced (not mutated in place) when they grow, so read through this. */
export interface KeyColumns {
  start: Float64Array;
  id: Int32Array;
  end: Float64Array;
  meta: Uint16Array;
}

/**
 * A run of rows in order, with a copy of what every list query reads of each (start, end, status and flags), so a
 * walk reads memory in sequence instead of jumping to each row's columns. Rows never change, so neither do copies.
 */
export interface Block {
  rows: Int32Array;
  starts: Float64Array;
  ends: Float64Array;
  metas: Uint16Array;
  n: number;
  /** How many rows of each meta value (status and flags): a block inside a window is counted without a walk. */
  counts: Map<number, number>;
  /** Rows without an end, and the range of the others' ends (recomputed when `stale`). */
  noEnd: number;
  minEnd: number;
  maxEnd: number;
  stale: boolean;
  /** Bumped by every change of the block's rows (keys the per-search counts kept for it). */
  version: number;
}

const newBlock = (size: number): Block => ({
  rows: new Int32Array(2 * size),
  starts: new Float64Array(2 * size),
  ends: new Float64Array(2 * size),
  metas: new Uint16Array(2 * size),
  n: 0,
  counts: new Map(),
  noEnd: 0,
  minEnd: Number.POSITIVE_INFINITY,
  maxEnd: Number.NEGATIVE_INFINITY,
  stale: false,
  version: 0,
});

/** Recomputes a block's summaries from its rows. */
function summarise(b: Block): void {
  b.counts.clear();
  b.noEnd = 0;
  b.minEnd = Number.POSITIVE_INFINITY;
  b.maxEnd = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < b.n; i++) {
    b.counts.set(b.metas[i], (b.counts.get(b.metas[i]) ?? 0) + 1);
    const e = b.ends[i];
    if (e === NO_DATE) b.noEnd++;
    else {
      if (e < b.minEnd) b.minEnd = e;
      if (e > b.maxEnd) b.maxEnd = e;
    }
  }
  b.stale = false;
}

/** Rows in (start, id) order, in blocks of at most 2 × BLOCK: O(log n + BLOCK) insert and remove, no re-sort. */
export class Ordered {
  blocks: Block[] = [];
  readonly #k: KeyColumns;
  readonly #size: number;

  constructor(k: KeyColumns, size = BLOCK) {
    this.#k = k;
    this.#size = size;
  }

  /** A block's end range, brought up to date. */
  ends(b: Block): Block {
    if (b.stale) summarise(b);
    return b;
  }

  #less(a: number, b: number): boolean {
    const { start, id } = this.#k;
    return start[a] < start[b] || (start[a] === start[b] && id[a] < id[b]);
  }

  /** The block holding (or to hold) `row`: the first whose last row is not before it, else the last. */
  #blockOf(row: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const b = this.blocks[mid];
      if (this.#less(b.rows[b.n - 1], row)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #indexIn(b: Block, row: number): number {
    let lo = 0;
    let hi = b.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#less(b.rows[mid], row)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #put(b: Block, i: number, row: number): void {
    const n = b.n;
    b.rows.copyWithin(i + 1, i, n);
    b.starts.copyWithin(i + 1, i, n);
    b.ends.copyWithin(i + 1, i, n);
    b.metas.copyWithin(i + 1, i, n);
    b.rows[i] = row;
    b.starts[i] = this.#k.start[row];
    const e = this.#k.end[row];
    b.ends[i] = e;
    const m = this.#k.meta[row];
    b.metas[i] = m;
    b.n = n + 1;
    b.version++;
    b.counts.set(m, (b.counts.get(m) ?? 0) + 1);
    if (e === NO_DATE) b.noEnd++;
    else {
      if (e < b.minEnd) b.minEnd = e;
      if (e > b.maxEnd) b.maxEnd = e;
    }
  }

  insert(row: number): void {
    if (this.blocks.length === 0) this.blocks.push(newBlock(this.#size));
    const at = this.#blockOf(row);
    const b = this.blocks[at];
    this.#put(b, this.#indexIn(b, row), row);
    if (b.n === b.rows.length) {
      // Split a full block in two halves.
      const half = this.#size;
      const right = newBlock(half);
      right.rows.set(b.rows.subarray(half, b.n));
      right.starts.set(b.starts.subarray(half, b.n));
      right.ends.set(b.ends.subarray(half, b.n));
      right.metas.set(b.metas.subarray(half, b.n));
      right.n = b.n - half;
      b.n = half;
      b.version++;
      summarise(b);
      summarise(right);
      this.blocks.splice(at + 1, 0, right);
    }
  }

  /** Appends a row known to sort after every row held (a snapshot is stored in order). */
  append(row: number): void {
    const last = this.blocks.at(-1);
    if (last && last.n > 0 && !this.#less(last.rows[last.n - 1], row)) {
      this.insert(row);
      return;
    }
    if (!last || last.n >= this.#size) this.blocks.push(newBlock(this.#size));
    const b = this.blocks[this.blocks.length - 1];
    this.#put(b, b.n, row);
  }

  remove(row: number): void {
    if (this.blocks.length === 0) return;
    const at = this.#blockOf(row);
    const b = this.blocks[at];
    const i = this.#indexIn(b, row);
    if (i >= b.n || b.rows[i] !== row) return;
    const m = b.metas[i];
    const left = (b.counts.get(m) ?? 1) - 1;
    if (left === 0) b.counts.delete(m);
    else b.counts.set(m, left);
    const e = b.ends[i];
    if (e === NO_DATE) b.noEnd--;
    else if (e === b.minEnd || e === b.maxEnd) b.stale = true;
    b.rows.copyWithin(i, i + 1, b.n);
    b.starts.copyWithin(i, i + 1, b.n);
    b.ends.copyWithin(i, i + 1, b.n);
    b.metas.copyWithin(i, i + 1, b.n);
    b.n--;
    b.version++;
    if (b.n === 0) this.blocks.splice(at, 1);
  }

  /**
   * Up to `out.length` rows in order after row `row` (live or dead: its key is read from the columns; -1: from the
   * first), written into `out`; how many. A walk that goes on from its last row after the order changed (a
   * compaction's copy, a slice a tick) meets the rows added after that row since, and not the ones removed.
   */
  rowsAfter(row: number, out: Int32Array): number {
    if (this.blocks.length === 0) return 0;
    let at = 0;
    let i = 0;
    if (row >= 0) {
      at = this.#blockOf(row);
      const b = this.blocks[at];
      i = this.#indexIn(b, row);
      if (i < b.n && b.rows[i] === row) i++;
    }
    let n = 0;
    for (; at < this.blocks.length && n < out.length; at++, i = 0) {
      const b = this.blocks[at];
      const take = Math.min(b.n - i, out.length - n);
      if (take <= 0) continue;
      out.set(b.rows.subarray(i, i + take), n);
      n += take;
    }
    return n;
  }

  /** The first position whose start is at least `key` (`strict`: above it), as [block, index]. */
  seek(key: number, strict: boolean): [number, number] {
    return seekBlocks(this.blocks, key, strict);
  }
}

/**
 * The first position in start-sorted blocks whose start is at least `key` (`strict`: above it), as [block, index]
 * ([blocks.length, 0] past the end). Shared by the columns' order and the occurrences' timeline.
 */
export function seekBlocks(
  blocks: ReadonlyArray<{ starts: ArrayLike<number>; n: number }>,
  key: number,
  strict: boolean,
): [number, number] {
  const before = (s: number) => (strict ? s <= key : s < key);
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const b = blocks[mid]!;
    if (before(b.starts[b.n - 1]!)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === blocks.length) return [lo, 0];
  const b = blocks[lo]!;
  let a = 0;
  let z = b.n;
  while (a < z) {
    const mid = (a + z) >>> 1;
    if (before(b.starts[mid]!)) a = mid + 1;
    else z = mid;
  }
  return [lo, a];
}
