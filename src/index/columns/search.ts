// What the query plan keeps per search between queries: its rows, as a list and as bits, and its counts per block.
//
// A repeated search then costs no work per matching row, and counts the blocks wholly inside its window at once.
import { parseSearch, type SearchTerm } from '../query.ts';
import type { Block } from './order.ts';
import { appended, intersect, type TextPostings } from './postings.ts';
import { ALIVE, type Rows } from './rows.ts';

/** Searches whose rows and per-block counts are kept (each holds a few numbers per block). */
const SEARCHES = 32;
/** A search's rows are kept as a list while they are at most 1 / LONG of the rows alive (see `SearchMemo.rows`). */
const LONG = 8;

/** What is kept for a search (its text). */
export interface SearchMemo {
  terms: SearchTerm[];
  /**
   * Per block: how many of its rows match, by meta value (`[version, meta, count, meta, count, …]`). A block wholly
   * inside a searched window is then counted without reading its rows, as blocks are for lists without a search.
   * An entry is good while its block's version is.
   */
  blocks: WeakMap<Block, Int32Array>;
  /** The rows (`upTo`, -1 before the first query) and row capacity (`cap`) the rest covers. */
  upTo: number;
  cap: number;
  /**
   * The rows holding every including term (ascending, dead ones included); null when no term includes, or when they
   * are more than an eighth of the rows (the bits then serve: a list that long narrows nothing, and 32 of them at 1M
   * events would hold tens of MB).
   */
  rows: Int32Array | null;
  /** `rows` as one bit per row, and the rows holding an excluded term; null when there is no such term. */
  inc: Uint32Array | null;
  exc: Uint32Array | null;
}

export const hasBit = (bits: Uint32Array, r: number): boolean => (bits[r >>> 5] & (1 << (r & 31))) !== 0;
const setBit = (bits: Uint32Array, r: number): void => {
  bits[r >>> 5] |= 1 << (r & 31);
};

/** One bit per row (`cap` rows) for the rows of the lists. */
function bitsOf(lists: readonly Int32Array[], cap: number): Uint32Array {
  const bits = new Uint32Array((cap >>> 5) + 1);
  for (const l of lists) for (let i = 0; i < l.length; i++) setBit(bits, l[i]);
  return bits;
}

/** The most recent searches' memos. */
export class Searches {
  readonly #rows: Rows;
  readonly #text: TextPostings;
  readonly #memos = new Map<string, SearchMemo>();

  constructor(rows: Rows, text: TextPostings) {
    this.#rows = rows;
    this.#text = text;
  }

  /** Bytes of the memos' rows and bits. */
  get bytes(): number {
    let n = 0;
    for (const m of this.#memos.values())
      n += (m.rows?.byteLength ?? 0) + (m.inc?.byteLength ?? 0) + (m.exc?.byteLength ?? 0);
    return n;
  }

  /** The memo of a search, up to date with the rows (made on its first query; the least recently used go first). */
  of(search: string): SearchMemo {
    let memo = this.#memos.get(search);
    if (memo) this.#memos.delete(search);
    else
      memo = {
        terms: parseSearch(search),
        blocks: new WeakMap(),
        upTo: -1,
        cap: 0,
        rows: null,
        inc: null,
        exc: null,
      };
    this.#memos.set(search, memo);
    if (this.#memos.size > SEARCHES) this.#memos.delete(this.#memos.keys().next().value as string);
    return this.#update(memo);
  }

  /**
   * Brings a search's rows up to date (`LIKE '%term%'` for each term, `NOT LIKE` for exclusions): the rows holding
   * every including term, as a list and as bits, and the rows holding an excluded one as bits. Made from the
   * terms' postings once; rows added since are read from their text.
   */
  #update(memo: SearchMemo): SearchMemo {
    const rows = this.#rows;
    const including = memo.terms.filter((t) => !t.exclude).map((t) => t.text);
    const excluding = memo.terms.filter((t) => t.exclude).map((t) => t.text);
    if (memo.upTo < 0) {
      for (const list of including
        .map((t) => this.#text.rowsContaining(t))
        .sort((a, b) => a.length - b.length))
        memo.rows = memo.rows ? intersect(memo.rows, list) : list;
      // A term made ahead has its bits already (`TextPostings.prepare`).
      const made = including.length === 1 ? this.#text.takeBits(including[0], rows.cap) : null;
      memo.inc = memo.rows ? (made ?? bitsOf([memo.rows], rows.cap)) : null;
      if (memo.rows && memo.rows.length * LONG > rows.alive) memo.rows = null;
      memo.exc = excluding.length
        ? bitsOf(
            excluding.map((t) => this.#text.rowsContaining(t)),
            rows.cap,
          )
        : null;
      memo.upTo = rows.used;
      memo.cap = rows.cap;
      return memo;
    }
    if (memo.cap !== rows.cap) {
      const grow = (bits: Uint32Array | null) => {
        if (!bits) return null;
        const grown = new Uint32Array((rows.cap >>> 5) + 1);
        grown.set(bits.subarray(0, grown.length));
        return grown;
      };
      memo.inc = grow(memo.inc);
      memo.exc = grow(memo.exc);
      memo.cap = rows.cap;
    }
    if (memo.upTo < rows.used) {
      const inc = including.map((t) => Buffer.from(t, 'utf8'));
      const exc = excluding.map((t) => Buffer.from(t, 'utf8'));
      const more: number[] = [];
      for (let r = memo.upTo; r < rows.used; r++) {
        if (!(rows.meta[r] & ALIVE)) continue;
        const text = rows.textOf(r);
        if (memo.exc && exc.some((t) => text.includes(t))) setBit(memo.exc, r);
        if (memo.inc && inc.every((t) => text.includes(t))) {
          setBit(memo.inc, r);
          more.push(r);
        }
      }
      if (memo.rows && more.length) memo.rows = appended(memo.rows, more);
      memo.upTo = rows.used;
    }
    return memo;
  }
}

/** Counts by meta value, for {@link matchCounts} (a meta value is below 2^16); left all zero between calls. */
const perMeta = new Int32Array(1 << 16);

/** How many of a block's rows are in the search's `inc` bits (when it has them) and not in its `exc`, by meta value. */
export function matchCounts(blk: Block, inc: Uint32Array | null, exc: Uint32Array | null): Int32Array {
  const { rows, metas, n } = blk;
  // A typed array indexed by meta value, not a Map: the first query of a common word at 1M events counts every
  // block of its window (hundreds of thousands of rows) here.
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    if (inc !== null && (inc[r >>> 5] & (1 << (r & 31))) === 0) continue;
    if (exc !== null && (exc[r >>> 5] & (1 << (r & 31))) !== 0) continue;
    if (perMeta[metas[i]]++ === 0) distinct++;
  }
  const out = new Int32Array(1 + 2 * distinct);
  out[0] = blk.version;
  let k = 1;
  for (let i = 0; i < n && k < out.length; i++) {
    const m = metas[i];
    if (perMeta[m] === 0) continue;
    out[k++] = m;
    out[k++] = perMeta[m];
    perMeta[m] = 0;
  }
  return out;
}
