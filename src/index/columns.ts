// The event index's storage and query engine: one row per event in typed columns, rows kept in (start, id) order in
// small blocks, word postings for search. Answers exactly what `querySorted` (src/index/query.ts) answers over the
// same events (a property test holds the two together), in O(log n + rows in the date window) without collecting.
import type { EventFacets } from './facets.ts';
import { UNLISTED_STATUSES } from './facets.ts';
import { IdTable, SlugTable } from './id-table.ts';
import { type IndexQuery, type IndexResult, parseSearch, type SearchTerm } from './query.ts';
import { piecesOf, WordPostings, wordsOf } from './words.ts';

/** What the index keeps of an event and gives back: the facets lists filter on (dates as stored, `Y-m-d H:i:s`). */
export type IndexedEvent = Pick<
  EventFacets,
  | 'id'
  | 'status'
  | 'slug'
  | 'start'
  | 'end'
  | 'categories'
  | 'tags'
  | 'venue'
  | 'organizers'
  | 'featured'
  | 'hidden'
  | 'parent'
  | 'protected'
  | 'author'
  | 'date'
  | 'modifiedGmt'
  | 'hasExcerpt'
>;

/** An indexed event with its search text: what a row is built from, and what a snapshot holds. */
export type StoredEvent = IndexedEvent & Pick<EventFacets, 'searchText'>;

/** The key of an absent or unreadable date: before every date, and never inside a bound. */
export const NO_DATE = Number.NEGATIVE_INFINITY;

/**
 * A wall-clock `Y-m-d H:i:s` as a number that orders as the string does (`YYYYMMDDhhmmss`; a bare date sorts just
 * before its midnight, as the shorter string does). Anything else is {@link NO_DATE}: TEC always stores this form.
 */
export function wallKey(s: string): number {
  // By character codes: this runs for every date of every event loaded.
  if (s.length !== 19 && s.length !== 10) return NO_DATE;
  const day = digitsOf(s, 0, 10, 45); // YYYY-MM-DD
  if (day < 0) return NO_DATE;
  if (s.length === 10) return day * 1e6 - 0.5;
  if (s.charCodeAt(10) !== 32) return NO_DATE;
  const time = digitsOf(s, 11, 8, 58); // hh:mm:ss
  return time < 0 ? NO_DATE : day * 1e6 + time;
}

/**
 * The field `s[from, from + length)` read as one number: digits, with `sep` (a character code) before each of its
 * last two pairs (`YYYY-MM-DD`, `hh:mm:ss`); -1 when anything else is there.
 */
function digitsOf(s: string, from: number, length: number, sep: number): number {
  const end = from + length;
  let n = 0;
  for (let i = from; i < end; i++) {
    const c = s.charCodeAt(i);
    if (i === end - 6 || i === end - 3) {
      if (c !== sep) return -1;
    } else if (c >= 48 && c <= 57) n = n * 10 + (c - 48);
    else return -1;
  }
  return n;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** The string {@link wallKey} came from (`''` for {@link NO_DATE}). */
export function wallText(key: number): string {
  if (key === NO_DATE) return '';
  const whole = Math.ceil(key);
  const day = Math.floor(whole / 1e6);
  const date = `${String(Math.floor(day / 1e4)).padStart(4, '0')}-${two(Math.floor(day / 100) % 100)}-${two(day % 100)}`;
  if (whole !== key) return date;
  const t = whole % 1e6;
  return `${date} ${two(Math.floor(t / 1e4))}:${two(Math.floor(t / 100) % 100)}:${two(t % 100)}`;
}

const HIDDEN = 1;
const FEATURED = 2;
const PROTECTED = 4;
const EXCERPT = 8;
const ALIVE = 16;
const FLAG_BITS = 5;
/** Rows whose words are posted per background tick, at most (and at most ~4 ms of work). */
const WORDS_PER_TICK = 2000;

/** Searches whose rows and per-block counts are kept (each holds a few numbers per block). */
const SEARCHES = 32;

/** Rows per block of the ordered list: a change moves at most this many entries. */
const BLOCK = 512;

/** The columns the order reads; replaced (not mutated in place) when they grow, so read through this holder. */
interface KeyColumns {
  start: Float64Array;
  id: Int32Array;
  end: Float64Array;
  meta: Uint16Array;
}

/**
 * A run of rows in order, with a copy of what every list query reads of each (start, end, status and flags), so a
 * walk reads memory in sequence instead of jumping to each row's columns. Rows never change, so neither do copies.
 */
interface Block {
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
class Ordered {
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

  /** The first position whose start is at least `key` (`strict`: above it), as [block, index]. */
  seek(key: number, strict: boolean): [number, number] {
    const before = (s: number) => (strict ? s <= key : s < key);
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const b = this.blocks[mid];
      if (before(b.starts[b.n - 1])) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.blocks.length) return [lo, 0];
    const b = this.blocks[lo];
    let a = 0;
    let z = b.n;
    while (a < z) {
      const mid = (a + z) >>> 1;
      if (before(b.starts[mid])) a = mid + 1;
      else z = mid;
    }
    return [lo, a];
  }
}

/** Rows in ascending order (`n` of them used). */
interface Posting {
  rows: Int32Array;
  n: number;
}

/** Rows per category (`c`), tag (`t`), venue (`v`) and organizer (`o`) id. */
interface FacetRows {
  c: Map<number, Posting>;
  t: Map<number, Posting>;
  v: Map<number, Posting>;
  o: Map<number, Posting>;
}

const emptyFacetRows = (): FacetRows => ({ c: new Map(), t: new Map(), v: new Map(), o: new Map() });

/** A membership test for a list of ids: a scan for a few, a Set for many. */
function memberOf(list: readonly number[] | undefined): ((v: number) => boolean) | null {
  if (!list || list.length === 0) return null;
  if (list.length <= 8) {
    const a = Int32Array.from(list);
    return (v) => a.includes(v);
  }
  const s = new Set(list);
  return (v) => s.has(v);
}

interface Bounds {
  startGte: number | undefined;
  startGt: number | undefined;
  startLt: number | undefined;
  endLte: number | undefined;
  endLt: number | undefined;
  endGt: number | undefined;
}

const keyOf = (s: string | undefined): number | undefined => (s === undefined ? undefined : wallKey(s));

/** What is kept for a search between its queries. */
interface SearchMemo {
  terms: SearchTerm[];
  /**
   * Per block: how many of its rows match, by meta value (`[version, meta, count, meta, count, …]`). A block wholly
   * inside a searched window is then counted without reading its rows, as blocks are for lists without a search.
   * An entry is good while its block's version is; compactions make new blocks.
   */
  blocks: WeakMap<Block, Int32Array>;
  /** The compaction (`epoch`), rows (`upTo`) and row capacity (`cap`) the rest covers. */
  epoch: number;
  upTo: number;
  cap: number;
  /** The rows holding every including term (ascending, dead ones included); null when no term includes. */
  rows: Int32Array | null;
  /** `rows` as one bit per row, and the rows holding an excluded term; null when there is no such term. */
  inc: Uint32Array | null;
  exc: Uint32Array | null;
}

/** One bit per row (`cap` rows) for the rows of the lists. */
function bitsOf(lists: readonly Int32Array[], cap: number): Uint32Array {
  const bits = new Uint32Array((cap >>> 5) + 1);
  for (const l of lists) for (let i = 0; i < l.length; i++) setBit(bits, l[i]);
  return bits;
}

const hasBit = (bits: Uint32Array, r: number): boolean => (bits[r >>> 5] & (1 << (r & 31))) !== 0;
const setBit = (bits: Uint32Array, r: number): void => {
  bits[r >>> 5] |= 1 << (r & 31);
};

export class EventColumns {
  /** Dead rows tolerated before a compaction (at least as many as live ones). */
  readonly #minDead: number;

  /** Tests: take the candidate lists whatever their size (both ways must answer the same). */
  readonly #alwaysNarrow: boolean;

  /** Rows per block (tests make it small, to have many). */
  readonly #blockSize: number;

  constructor(
    options: { minDead?: number; background?: boolean; alwaysNarrow?: boolean; blockSize?: number } = {},
  ) {
    this.#minDead = options.minDead ?? 4096;
    this.#blockSize = options.blockSize ?? BLOCK;
    this.#order = new Ordered(this.#k, this.#blockSize);
    this.#alwaysNarrow = options.alwaysNarrow ?? false;
    this.#background = options.background ?? true;
  }

  /** Rows allocated, rows used, rows alive. */
  #cap = 0;
  #used = 0;
  #alive = 0;
  readonly #k: KeyColumns = {
    start: new Float64Array(0),
    id: new Int32Array(0),
    end: new Float64Array(0),
    meta: new Uint16Array(0),
  };
  #date = new Float64Array(0);
  #modified = new Float64Array(0);
  #author = new Int32Array(0);
  #parent = new Int32Array(0);
  #venue = new Int32Array(0);
  /** Categories, tags and organizers of row r: `#vals[#valOff[r] …]`, `#catN[r]`, `#tagN[r]`, `#orgN[r]` long. */
  #valOff = new Uint32Array(0);
  #catN = new Uint16Array(0);
  #tagN = new Uint16Array(0);
  #orgN = new Uint16Array(0);
  #vals = new Int32Array(1024);
  #valsUsed = 0;
  /** Search text of row r (UTF-8): `#text[#textOff[r] …+ #textLen[r]]`. */
  #textOff = new Float64Array(0);
  #textLen = new Uint32Array(0);
  #text = Buffer.alloc(1 << 16);
  #textUsed = 0;
  #slugs: string[] = [];
  /** Rows per category (`c<id>`), tag (`t`), venue (`v`) and organizer (`o`), ascending, dead ones included. */
  #facetRows: FacetRows = emptyFacetRows();
  /** Rows below this one are in `#words`. */
  #wordsUpTo = 0;
  #wordsTick: NodeJS.Immediate | undefined;
  /** Whether words are posted in the background (else only by `indexWords`). */
  readonly #background: boolean;
  /** Bumped by each compaction (row numbers change). */
  #epoch = 0;
  /** Rows whose end is before their start: while there is none, an end bound also bounds the start. */
  #inverted = 0;

  readonly #rowOf = new IdTable();
  readonly #idOfSlug = new SlugTable((id) => {
    const r = this.#rowOf.get(id);
    return r === undefined ? undefined : this.#slugs[r];
  });
  readonly #statusCode = new Map<string, number>();
  readonly #statusName: string[] = [];
  #words = new WordPostings();
  #order: Ordered;

  /** Term → the rows containing it, as of `upTo` rows; `#termInts` row numbers held in all. */
  readonly #terms = new Map<string, { rows: Int32Array; upTo: number; epoch: number }>();
  #termInts = 0;
  /** What is kept per search (its text), for the most recent searches. */
  readonly #searches = new Map<string, SearchMemo>();

  get size(): number {
    return this.#alive;
  }

  /** Rows whose words are not posted yet (searches read their text meanwhile). */
  get pendingWords(): number {
    return this.#used - this.#wordsUpTo;
  }

  /** Rows allocated but dead (replaced or removed events), until the next compaction. */
  get dead(): number {
    return this.#used - this.#alive;
  }

  has(id: number): boolean {
    return this.#rowOf.has(id);
  }

  ids(): IterableIterator<number> {
    return this.#rowOf.keys();
  }

  idOfSlug(slug: string): number | undefined {
    return this.#idOfSlug.get(slug);
  }

  get(id: number): IndexedEvent | undefined {
    const r = this.#rowOf.get(id);
    return r === undefined ? undefined : this.#record(r);
  }

  /** The stored event with its search text (snapshots; change detection). */
  stored(id: number): StoredEvent | undefined {
    const r = this.#rowOf.get(id);
    return r === undefined ? undefined : { ...this.#record(r), searchText: this.#textOf(r).toString('utf8') };
  }

  /** Whether `f` is what the index holds for its id (so applying it would change nothing). */
  holds(f: StoredEvent): boolean {
    const r = this.#rowOf.get(f.id);
    if (r === undefined) return false;
    const have = this.#record(r);
    for (const k of Object.keys(have) as (keyof IndexedEvent)[]) {
      const a = have[k];
      const b =
        k === 'start' || k === 'end' || k === 'date' || k === 'modifiedGmt' ? wallText(wallKey(f[k])) : f[k];
      if (Array.isArray(a) ? String(a) !== String(b) : a !== b) return false;
    }
    return this.#textOf(r).equals(Buffer.from(f.searchText, 'utf8'));
  }

  /**
   * Every stored event in (start, id) order as of now, `batch` at a time, however the index changes meanwhile (a
   * row is never rewritten: a change takes a new one). Throws if the index compacts before the last batch.
   */
  *batches(batch: number): Generator<StoredEvent[]> {
    const epoch = this.#epoch;
    const rows = new Int32Array(this.#alive);
    let n = 0;
    for (const b of this.#order.blocks) {
      rows.set(b.rows.subarray(0, b.n), n);
      n += b.n;
    }
    for (let from = 0; from < n; from += batch) {
      if (this.#epoch !== epoch) throw new Error('the index compacted while it was read');
      const out: StoredEvent[] = [];
      for (let i = from; i < Math.min(n, from + batch); i++) {
        const r = rows[i];
        out.push({ ...this.#record(r), searchText: this.#textOf(r).toString('utf8') });
      }
      yield out;
    }
  }

  /** Adds or replaces an event. `inOrder`: it sorts after every event held (loading a snapshot). */
  set(f: StoredEvent, inOrder = false): void {
    this.delete(f.id);
    if (this.dead > Math.max(this.#alive, this.#minDead)) this.#compact();
    const r = this.#newRow();
    const k = this.#k;
    k.id[r] = f.id;
    k.start[r] = wallKey(f.start);
    this.#k.end[r] = wallKey(f.end);
    this.#date[r] = wallKey(f.date);
    this.#modified[r] = wallKey(f.modifiedGmt);
    this.#author[r] = f.author;
    this.#parent[r] = f.parent;
    this.#venue[r] = f.venue ?? 0;
    this.#k.meta[r] =
      (this.#codeOf(f.status) << FLAG_BITS) |
      ALIVE |
      (f.hidden ? HIDDEN : 0) |
      (f.featured ? FEATURED : 0) |
      (f.protected ? PROTECTED : 0) |
      (f.hasExcerpt ? EXCERPT : 0);
    this.#putVals(r, f.categories, f.tags, f.organizers);
    for (const v of f.categories) this.#post(this.#facetRows.c, v, r);
    for (const v of f.tags) this.#post(this.#facetRows.t, v, r);
    for (const v of f.organizers) this.#post(this.#facetRows.o, v, r);
    if (f.venue !== null) this.#post(this.#facetRows.v, f.venue, r);
    this.#putText(r, f.searchText);
    this.#slugs[r] = f.slug;
    if (f.slug) this.#idOfSlug.set(f.slug, f.id);
    if (this.#isInverted(r)) this.#inverted++;
    this.#rowOf.set(f.id, r);
    this.#alive++;
    this.#wordsLater();
    if (inOrder) this.#order.append(r);
    else this.#order.insert(r);
  }

  delete(id: number): boolean {
    const r = this.#rowOf.get(id);
    if (r === undefined) return false;
    this.#order.remove(r);
    this.#k.meta[r] &= ~ALIVE;
    if (this.#isInverted(r)) this.#inverted--;
    const slug = this.#slugs[r];
    this.#idOfSlug.delete(slug, id);
    this.#rowOf.delete(id);
    this.#alive--;
    return true;
  }

  query(q: IndexQuery): IndexResult {
    const perPage = Math.max(1, Math.floor(q.perPage));
    const offset = (Math.max(1, Math.floor(q.page)) - 1) * perPage;
    const search =
      q.search !== undefined && q.search !== '' ? this.#searchBits(this.#searchOf(q.search)) : null;
    const d = this.#bounds(q);
    const keep = this.#filter(q, d, search);
    const id = this.#k.id;
    const start = this.#k.start;

    const candidates = this.#candidates(q, search);
    const narrow = candidates && (this.#alwaysNarrow || candidates.length * 32 <= this.#alive);
    if ((q.include && q.include.length > 0) || narrow) {
      // `include` switches the order to publication date (TEC sets `post__in` and orders by date); a narrow search
      // sorts its few candidates rather than walk the window.
      const rows: number[] = [];
      if (q.include && q.include.length > 0) {
        for (const want of new Set(q.include)) {
          const r = this.#rowOf.get(want);
          if (r !== undefined && keep(r)) rows.push(r);
        }
        const date = this.#date;
        rows.sort((a, b) => (date[a] < date[b] ? -1 : date[a] > date[b] ? 1 : id[a] - id[b]));
      } else {
        const meta = this.#k.meta;
        for (const r of candidates ?? []) if (meta[r] & ALIVE && keep(r)) rows.push(r);
        rows.sort((a, b) => (start[a] < start[b] ? -1 : start[a] > start[b] ? 1 : id[a] - id[b]));
      }
      return {
        ids: rows.slice(offset, offset + perPage).map((r) => id[r]),
        total: rows.length,
        totalPages: Math.ceil(rows.length / perPage),
      };
    }

    // The start range the bounds allow. Events without a start come first and never satisfy a start bound.
    let from: [number, number] = [0, 0];
    if (d.startGte !== undefined || d.startGt !== undefined || d.startLt !== undefined) {
      from = this.#order.seek(NO_DATE, true);
    }
    if (d.startGte !== undefined && (d.startGt === undefined || d.startGte > d.startGt)) {
      from = this.#later(from, this.#order.seek(d.startGte, false));
    } else if (d.startGt !== undefined) {
      from = this.#later(from, this.#order.seek(d.startGt, true));
    }
    // Upper limit on the start: a start bound, or an end bound when every event ends after it starts.
    let to = Number.POSITIVE_INFINITY;
    let toStrict = false;
    const limit = (key: number | undefined, strict: boolean) => {
      if (key !== undefined && (key < to || (key === to && strict))) {
        to = key;
        toStrict = strict;
      }
    };
    limit(d.startLt, true);
    if (this.#inverted === 0) {
      limit(d.endLte, false);
      limit(d.endLt, true);
    }

    // The walk: what every list checks is read from the block's own copies, in sequence; a row's other
    // columns only for rows that get that far.
    const { pass, owner, author, d: bounds, inc, exc, extra } = this.#checks(q, d, search);
    const { startGte, startGt, startLt, endLte, endLt, endGt } = bounds;
    const dated = Object.values(bounds).some((v) => v !== undefined);
    const ids: number[] = [];
    let total = 0;
    const { blocks } = this.#order;
    // With fewer candidates than half the rows (a search), the total comes from them, in row order (memory in
    // sequence); the walk then only has to find the page, and stops there.
    let counted: number | null = null;
    // (When most rows are candidates, walking the window in order is cheaper: it reads the block copies.)
    if (candidates && candidates.length * 2 < this.#alive) {
      counted = 0;
      const meta = this.#k.meta;
      for (let j = 0; j < candidates.length; j++) {
        const r = candidates[j];
        if (meta[r] & ALIVE && keep(r)) counted++;
      }
    }
    const done = () => ({
      ids,
      total: counted ?? total,
      totalPages: Math.ceil((counted ?? total) / perPage),
    });
    // Blocks wholly inside the window are counted from their summaries once the page is cut (or before it starts);
    // with a search, from the block's counts for that search (made by the first query that needs them).
    const countable = extra === null && !pass.includes(2);
    const searched = search?.blocks;
    const endsFit = (blk: Block): boolean => {
      if (endLte === undefined && endLt === undefined && endGt === undefined) return true;
      const e = this.#order.ends(blk);
      if (e.noEnd > 0) return false;
      return (
        (endLte === undefined || e.maxEnd <= endLte) &&
        (endLt === undefined || e.maxEnd < endLt) &&
        (endGt === undefined || e.minEnd > endGt)
      );
    };
    for (let b = from[0], i = from[1]; b < blocks.length; b++, i = 0) {
      const blk = blocks[b];
      if (countable && i === 0 && blk.n > 0 && (total >= offset + perPage || total + blk.n <= offset)) {
        const last = blk.starts[blk.n - 1];
        if ((last < to || (!toStrict && last === to)) && endsFit(blk)) {
          let c = 0;
          if (searched) {
            let pairs = searched.get(blk);
            if (!pairs || pairs[0] !== blk.version) {
              pairs = matchCounts(blk, inc, exc);
              searched.set(blk, pairs);
            }
            for (let k = 1; k < pairs.length; k += 2) if (pass[pairs[k]] === 1) c += pairs[k + 1];
          } else for (const [m, k] of blk.counts) if (pass[m] === 1) c += k;
          if (total >= offset + perPage || total + c <= offset) {
            total += c;
            continue;
          }
        }
      }
      const { rows, starts, ends, metas, n } = blk;
      for (; i < n; i++) {
        const s = starts[i];
        if (s > to || (toStrict && s === to)) return done();
        const how = pass[metas[i]];
        if (how === 0) continue;
        if (dated) {
          const e = ends[i];
          if (startGte !== undefined && !(s !== NO_DATE && s >= startGte)) continue;
          if (startGt !== undefined && !(s !== NO_DATE && s > startGt)) continue;
          if (startLt !== undefined && !(s !== NO_DATE && s < startLt)) continue;
          if (endLte !== undefined && !(e !== NO_DATE && e <= endLte)) continue;
          if (endLt !== undefined && !(e !== NO_DATE && e < endLt)) continue;
          if (endGt !== undefined && !(e !== NO_DATE && e > endGt)) continue;
        }
        if (how === 2 || inc !== null || exc !== null || extra !== null) {
          const r = rows[i];
          if (how === 2 && owner[r] !== author) continue;
          if (inc !== null && !hasBit(inc, r)) continue;
          if (exc !== null && hasBit(exc, r)) continue;
          if (extra !== null && !extra(r)) continue;
        }
        if (total >= offset && ids.length < perPage) ids.push(id[rows[i]]);
        total++;
        if (counted !== null && ids.length === perPage) return done();
      }
    }
    return done();
  }

  /** The venue (or organizer) ids the given events link to. */
  linkedOf(kind: 'venue' | 'organizer', ids: readonly number[]): Set<number> {
    const out = new Set<number>();
    for (const id of ids) {
      const r = this.#rowOf.get(id);
      if (r === undefined) continue;
      if (kind === 'venue') {
        if (this.#venue[r] !== 0) out.add(this.#venue[r]);
        continue;
      }
      const o = this.#valOff[r] + this.#catN[r] + this.#tagN[r];
      for (let j = o; j < o + this.#orgN[r]; j++) out.add(this.#vals[j]);
    }
    return out;
  }

  /** Bytes held by the columns, postings excluded (a figure for the benchmark). */
  get columnBytes(): number {
    return this.#cap * 90 + this.#vals.byteLength + this.#text.byteLength;
  }

  /** What is kept for a search (made on its first query; the least recently used go first). */
  #searchOf(search: string): SearchMemo {
    let memo = this.#searches.get(search);
    if (memo) this.#searches.delete(search);
    else
      memo = {
        terms: parseSearch(search),
        blocks: new WeakMap(),
        epoch: -1,
        upTo: 0,
        cap: 0,
        rows: null,
        inc: null,
        exc: null,
      };
    this.#searches.set(search, memo);
    if (this.#searches.size > SEARCHES) this.#searches.delete(this.#searches.keys().next().value as string);
    return memo;
  }

  /**
   * Rows that may match (ascending, dead ones included): the search's, narrowed by the posting lists of the term,
   * venue and organizer filters that are selective enough to be worth reading. Null when nothing narrows.
   */
  #candidates(q: IndexQuery, search: SearchMemo | null): Int32Array | null {
    let rows = search?.rows ?? null;
    const filters: [keyof FacetRows, number[] | undefined][] = [
      ['c', q.categories],
      ['t', q.tags],
      ['v', q.venue],
      ['o', q.organizer],
    ];
    for (const [kind, values] of filters) {
      if (!values || values.length === 0) continue;
      const lists = values.map((v) => this.#facetRows[kind].get(v)).filter((l) => l !== undefined);
      const size = lists.reduce((n, l) => n + l.n, 0);
      if (!this.#alwaysNarrow && size * 8 > this.#alive) continue;
      const union = new Int32Array(size);
      let n = 0;
      for (const l of lists) {
        union.set(l.rows.subarray(0, l.n), n);
        n += l.n;
      }
      if (lists.length > 1) union.sort();
      // A row listed under two of the values (or twice under one) counts once.
      let k = 0;
      for (let i = 0; i < union.length; i++) if (k === 0 || union[i] !== union[k - 1]) union[k++] = union[i];
      rows = rows ? intersect(rows, union.subarray(0, k)) : union.subarray(0, k);
    }
    return rows;
  }

  #post(lists: Map<number, Posting>, value: number, r: number): void {
    let l = lists.get(value);
    if (!l) {
      l = { rows: new Int32Array(4), n: 0 };
      lists.set(value, l);
    }
    if (l.n === l.rows.length) {
      const grown = new Int32Array(l.n * 2);
      grown.set(l.rows);
      l.rows = grown;
    }
    l.rows[l.n++] = r;
  }

  #later(a: [number, number], b: [number, number]): [number, number] {
    return b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]) ? b : a;
  }

  #bounds(q: IndexQuery): Bounds {
    const d = q.dates ?? {};
    return {
      startGte: keyOf(d.startGte),
      startGt: keyOf(d.startGt),
      startLt: keyOf(d.startLt),
      endLte: keyOf(d.endLte),
      endLt: keyOf(d.endLt),
      endGt: keyOf(d.endGt),
    };
  }

  /**
   * The row predicate of a query: everything `compileFilter` checks, on the columns. Status, hidden, featured and
   * protected are read at once from a table indexed by the row's meta (status code and flags).
   */
  #checks(q: IndexQuery, d: Bounds, search: SearchMemo | null) {
    // Per meta value: 0 not listed, 1 listed, 2 listed when the caller wrote the event.
    const pass = new Uint8Array(Math.max(1, this.#statusName.length) << FLAG_BITS);
    const listed = new Map<string, number>();
    if (q.author) for (const s of q.ownStatuses ?? []) listed.set(s, 2);
    for (const s of q.statuses) listed.set(s, 1);
    for (const [name, how] of listed) {
      const code = this.#statusCode.get(name);
      if (code === undefined || UNLISTED_STATUSES.has(name)) continue;
      for (let f = 0; f < 1 << FLAG_BITS; f++) {
        if (f & HIDDEN || !(f & ALIVE)) continue;
        if (q.featured !== undefined && ((f & FEATURED) !== 0) !== q.featured) continue;
        // WordPress searches password-protected posts only for logged-in callers.
        if (search && f & PROTECTED && q.searchesProtected !== true) continue;
        pass[(code << FLAG_BITS) | f] = how;
      }
    }
    return {
      pass,
      owner: this.#author,
      author: q.author ?? 0,
      d,
      inc: search?.inc ?? null,
      exc: search?.exc ?? null,
      extra: this.#extraFilter(q),
    };
  }

  /** The row predicate of a query: everything `compileFilter` checks, on the columns. */
  #filter(q: IndexQuery, d: Bounds, search: SearchMemo | null): (r: number) => boolean {
    const { pass, owner, author, inc, exc, extra } = this.#checks(q, d, search);
    const meta = this.#k.meta;
    const start = this.#k.start;
    const end = this.#k.end;
    const { startGte, startGt, startLt, endLte, endLt, endGt } = d;
    return (r) => {
      const how = pass[meta[r]];
      if (how === 0 || (how === 2 && owner[r] !== author)) return false;
      const s = start[r];
      const e = end[r];
      if (startGte !== undefined && !(s !== NO_DATE && s >= startGte)) return false;
      if (startGt !== undefined && !(s !== NO_DATE && s > startGt)) return false;
      if (startLt !== undefined && !(s !== NO_DATE && s < startLt)) return false;
      if (endLte !== undefined && !(e !== NO_DATE && e <= endLte)) return false;
      if (endLt !== undefined && !(e !== NO_DATE && e < endLt)) return false;
      if (endGt !== undefined && !(e !== NO_DATE && e > endGt)) return false;
      if (inc !== null && !hasBit(inc, r)) return false;
      if (exc !== null && hasBit(exc, r)) return false;
      return extra === null || extra(r);
    };
  }

  /** The rarer filters (parent, venue, terms, organizers); null when the query has none. */
  #extraFilter(q: IndexQuery): ((r: number) => boolean) | null {
    const categories = memberOf(q.categories);
    const tags = memberOf(q.tags);
    const organizers = memberOf(q.organizer);
    const venues = memberOf(q.venue);
    const parent = q.parent;
    if (!categories && !tags && !organizers && !venues && parent === undefined) return null;
    const vals = this.#vals;
    const valOff = this.#valOff;
    const catN = this.#catN;
    const tagN = this.#tagN;
    const orgN = this.#orgN;
    const venue = this.#venue;
    const parents = this.#parent;
    const any = (member: (v: number) => boolean, from: number, n: number): boolean => {
      for (let j = from; j < from + n; j++) if (member(vals[j])) return true;
      return false;
    };
    return (r) => {
      if (parent !== undefined && parents[r] !== parent) return false;
      if (venues && (venue[r] === 0 || !venues(venue[r]))) return false;
      const o = valOff[r];
      if (categories && !any(categories, o, catN[r])) return false;
      if (tags && !any(tags, o + catN[r], tagN[r])) return false;
      if (organizers && !any(organizers, o + catN[r] + tagN[r], orgN[r])) return false;
      return true;
    };
  }

  /**
   * Brings a search's rows up to date (`LIKE '%term%'` for each term, `NOT LIKE` for exclusions): the rows holding
   * every including term, as a list and as bits, and the rows holding an excluded one as bits. Made from the
   * terms' postings once (and after a compaction); rows added since are read from their text, so a repeated
   * search costs no work per matching row.
   */
  #searchBits(memo: SearchMemo): SearchMemo {
    const including = memo.terms.filter((t) => !t.exclude).map((t) => t.text);
    const excluding = memo.terms.filter((t) => t.exclude).map((t) => t.text);
    if (memo.epoch !== this.#epoch) {
      memo.rows = null;
      for (const list of including.map((t) => this.#rowsContaining(t)).sort((a, b) => a.length - b.length))
        memo.rows = memo.rows ? intersect(memo.rows, list) : list;
      memo.inc = memo.rows ? bitsOf([memo.rows], this.#cap) : null;
      memo.exc = excluding.length
        ? bitsOf(
            excluding.map((t) => this.#rowsContaining(t)),
            this.#cap,
          )
        : null;
      memo.epoch = this.#epoch;
      memo.upTo = this.#used;
      memo.cap = this.#cap;
      return memo;
    }
    if (memo.cap !== this.#cap) {
      const grow = (bits: Uint32Array | null) => {
        if (!bits) return null;
        const grown = new Uint32Array((this.#cap >>> 5) + 1);
        grown.set(bits.subarray(0, grown.length));
        return grown;
      };
      memo.inc = grow(memo.inc);
      memo.exc = grow(memo.exc);
      memo.cap = this.#cap;
    }
    if (memo.upTo < this.#used) {
      const inc = including.map((t) => Buffer.from(t, 'utf8'));
      const exc = excluding.map((t) => Buffer.from(t, 'utf8'));
      const more: number[] = [];
      for (let r = memo.upTo; r < this.#used; r++) {
        if (!(this.#k.meta[r] & ALIVE)) continue;
        const text = this.#textOf(r);
        if (memo.exc && exc.some((t) => text.includes(t))) setBit(memo.exc, r);
        if (memo.inc && inc.every((t) => text.includes(t))) {
          setBit(memo.inc, r);
          more.push(r);
        }
      }
      if (memo.rows && more.length) memo.rows = appended(memo.rows, more);
      memo.upTo = this.#used;
    }
    return memo;
  }

  /**
   * The rows (ascending; dead ones included) whose search text contains `term`. Kept per term: rows never change
   * (a change takes a new row), so an answer stays right for the rows it covered and only newer rows are read.
   */
  #rowsContaining(term: string): Int32Array {
    let hit = this.#terms.get(term);
    if (hit) this.#terms.delete(term);
    if (!hit || hit.epoch !== this.#epoch) {
      hit = { rows: this.#findRows(term), upTo: this.#used, epoch: this.#epoch };
      this.#termInts += hit.rows.length;
    } else if (hit.upTo < this.#used) {
      const needle = Buffer.from(term, 'utf8');
      const more: number[] = [];
      for (let r = hit.upTo; r < this.#used; r++)
        if (this.#k.meta[r] & ALIVE && this.#textOf(r).includes(needle)) more.push(r);
      if (more.length) {
        this.#termInts += more.length;
        hit.rows = appended(hit.rows, more);
      }
      hit.upTo = this.#used;
    }
    this.#terms.set(term, hit);
    // Least recently used answers go first once they hold more row numbers than the index has rows, twice over.
    for (const [t, h] of this.#terms) {
      if (this.#termInts <= 2 * this.#cap + 100_000 || t === term) break;
      this.#terms.delete(t);
      this.#termInts -= h.rows.length;
    }
    return hit.rows;
  }

  /** Rows containing `term`: from the postings for the rows they cover, from the text for the rows after. */
  #findRows(term: string): Int32Array {
    const pieces = piecesOf(term);
    const needle = Buffer.from(term, 'utf8');
    const meta = this.#k.meta;
    const holds = (r: number) => (meta[r] & ALIVE) !== 0 && this.#textOf(r).includes(needle);
    let found: Int32Array;
    if (pieces === null) {
      found = this.#words.rowsOf(term);
    } else if (pieces.length === 0) {
      const out: number[] = [];
      for (let r = 0; r < this.#wordsUpTo; r++) if (holds(r)) out.push(r);
      found = Int32Array.from(out);
    } else {
      let candidates = this.#words.rowsOf(pieces[0]);
      for (const p of pieces.slice(1)) candidates = intersect(candidates, this.#words.rowsOf(p));
      found = candidates.filter(holds);
    }
    if (this.#wordsUpTo === this.#used) return found;
    const more: number[] = [];
    for (let r = this.#wordsUpTo; r < this.#used; r++) if (holds(r)) more.push(r);
    return appended(found, more);
  }

  /**
   * Posts the words of up to `rows` more rows; resolves how many are left. Loading and crawling leave this to the
   * background, a few hundred rows a tick, so they stay fast; searches read the text of rows not yet posted.
   */
  indexWords(rows: number, budgetMs = Number.POSITIVE_INFINITY): number {
    const end = Math.min(this.#used, this.#wordsUpTo + rows);
    const t0 = performance.now();
    let r = this.#wordsUpTo;
    for (; r < end; r++) {
      if (this.#k.meta[r] & ALIVE) this.#words.add(r, wordsOf(this.#textOf(r).toString('utf8')));
      if ((r & 15) === 15 && performance.now() - t0 > budgetMs) {
        r++;
        break;
      }
    }
    this.#wordsUpTo = r;
    return this.#used - r;
  }

  /** Holds back (true) or lets go (false) the background posting of words: a load posts them once it is done. */
  pauseWords(paused: boolean): void {
    this.#wordsPaused = paused;
    if (!paused) this.#wordsLater();
  }

  #wordsPaused = false;

  #wordsLater(): void {
    if (this.#wordsTick || !this.#background || this.#wordsPaused) return;
    this.#wordsTick = setImmediate(() => {
      this.#wordsTick = undefined;
      if (!this.#wordsPaused && this.indexWords(WORDS_PER_TICK, 4) > 0) this.#wordsLater();
    });
    this.#wordsTick.unref();
  }

  #record(r: number): IndexedEvent {
    const o = this.#valOff[r];
    const c = this.#catN[r];
    const t = this.#tagN[r];
    const g = this.#orgN[r];
    const f = this.#k.meta[r];
    return {
      id: this.#k.id[r],
      status: this.#statusName[this.#k.meta[r] >> FLAG_BITS],
      slug: this.#slugs[r],
      start: wallText(this.#k.start[r]),
      end: wallText(this.#k.end[r]),
      categories: Array.from(this.#vals.subarray(o, o + c)),
      tags: Array.from(this.#vals.subarray(o + c, o + c + t)),
      venue: this.#venue[r] === 0 ? null : this.#venue[r],
      organizers: Array.from(this.#vals.subarray(o + c + t, o + c + t + g)),
      featured: (f & FEATURED) !== 0,
      hidden: (f & HIDDEN) !== 0,
      parent: this.#parent[r],
      protected: (f & PROTECTED) !== 0,
      author: this.#author[r],
      date: wallText(this.#date[r]),
      modifiedGmt: wallText(this.#modified[r]),
      hasExcerpt: (f & EXCERPT) !== 0,
    };
  }

  #textOf(r: number): Buffer {
    const o = this.#textOff[r];
    return this.#text.subarray(o, o + this.#textLen[r]);
  }

  #isInverted(r: number): boolean {
    const s = this.#k.start[r];
    const e = this.#k.end[r];
    return s !== NO_DATE && e !== NO_DATE && e < s;
  }

  #codeOf(status: string): number {
    let c = this.#statusCode.get(status);
    if (c === undefined) {
      if (this.#statusName.length === 255) throw new Error('more than 255 post statuses');
      c = this.#statusName.length;
      this.#statusCode.set(status, c);
      this.#statusName.push(status);
    }
    return c;
  }

  #putVals(r: number, ...lists: number[][]): void {
    const n = lists.reduce((a, l) => a + l.length, 0);
    if (this.#valsUsed + n > this.#vals.length) {
      const grown = new Int32Array(Math.max(this.#vals.length * 2, this.#valsUsed + n));
      grown.set(this.#vals.subarray(0, this.#valsUsed));
      this.#vals = grown;
    }
    this.#valOff[r] = this.#valsUsed;
    for (const l of lists) for (const v of l) this.#vals[this.#valsUsed++] = v;
    this.#catN[r] = lists[0].length;
    this.#tagN[r] = lists[1].length;
    this.#orgN[r] = lists[2].length;
  }

  /**
   * Makes room for `rows` more rows (and their text, at the average size of the rows held), so that a crawl that
   * knows the site's size grows the columns once, early, instead of copying them at every doubling (a copy of
   * 100k rows' columns is a stall of 15 ms or more).
   */
  reserve(rows: number): void {
    if (this.#used + rows > this.#cap) this.#grow(this.#used + rows);
    this.#rowOf.reserve(this.#alive + rows);
    this.#idOfSlug.reserve(this.#alive + rows);
    if (this.#used > 0)
      this.#growText(Math.ceil(this.#textUsed + (this.#textUsed / this.#used) * rows * 1.05));
  }

  #growText(bytes: number): void {
    if (bytes <= this.#text.length) return;
    const grown = Buffer.allocUnsafe(bytes);
    this.#text.copy(grown, 0, 0, this.#textUsed);
    this.#text = grown;
  }

  #putText(r: number, text: string): void {
    const n = Buffer.byteLength(text, 'utf8');
    if (this.#textUsed + n > this.#text.length) {
      // Doubling while small; then by half, so a 500 MB text pool does not reserve another 500 MB.
      const factor = this.#text.length < 64 << 20 ? 2 : 1.5;
      this.#growText(Math.max(Math.ceil(this.#text.length * factor), this.#textUsed + n));
    }
    this.#text.write(text, this.#textUsed, 'utf8');
    this.#textOff[r] = this.#textUsed;
    this.#textLen[r] = n;
    this.#textUsed += n;
  }

  #newRow(): number {
    if (this.#used === this.#cap) this.#grow(Math.max(1024, this.#cap * 2));
    return this.#used++;
  }

  #grow(cap: number): void {
    const g = <T extends Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(cap);
      b.set(a.subarray(0, Math.min(a.length, cap)) as never);
      return b;
    };
    const f64 = (n: number) => new Float64Array(n);
    const i32 = (n: number) => new Int32Array(n);
    this.#k.start = g(this.#k.start, f64);
    this.#k.id = g(this.#k.id, i32);
    this.#k.end = g(this.#k.end, f64);
    this.#k.meta = g(this.#k.meta, (n) => new Uint16Array(n));
    this.#date = g(this.#date, f64);
    this.#modified = g(this.#modified, f64);
    this.#author = g(this.#author, i32);
    this.#parent = g(this.#parent, i32);
    this.#venue = g(this.#venue, i32);
    this.#valOff = g(this.#valOff, (n) => new Uint32Array(n));
    this.#catN = g(this.#catN, (n) => new Uint16Array(n));
    this.#tagN = g(this.#tagN, (n) => new Uint16Array(n));
    this.#orgN = g(this.#orgN, (n) => new Uint16Array(n));
    this.#textOff = g(this.#textOff, f64);
    this.#textLen = g(this.#textLen, (n) => new Uint32Array(n));
    this.#slugs.length = Math.min(this.#slugs.length, cap);
    this.#cap = cap;
  }

  /** Rebuilds the rows without the dead ones (replaced and removed events), in order. */
  #compact(): void {
    const rows: StoredEvent[] = [];
    for (const batch of this.batches(4096)) rows.push(...batch);
    this.#epoch++;
    this.#used = this.#alive = 0;
    this.#cap = 0;
    this.#valsUsed = this.#textUsed = 0;
    this.#inverted = 0;
    this.#slugs = [];
    this.#rowOf.clear();
    this.#idOfSlug.clear();
    this.#facetRows = emptyFacetRows();
    this.#words = new WordPostings();
    this.#wordsUpTo = 0;
    this.#terms.clear();
    this.#termInts = 0;
    this.#searches.clear();
    this.#order = new Ordered(this.#k, this.#blockSize);
    this.#grow(Math.max(1024, Math.ceil(rows.length * 1.25)));
    for (const f of rows) this.set(f, true);
  }
}

/** How many of a block's rows are in the search's `inc` bits (when it has them) and not in its `exc`, by meta value. */
function matchCounts(blk: Block, inc: Uint32Array | null, exc: Uint32Array | null): Int32Array {
  const counts = new Map<number, number>();
  for (let i = 0; i < blk.n; i++) {
    const r = blk.rows[i];
    if ((inc !== null && !hasBit(inc, r)) || (exc !== null && hasBit(exc, r))) continue;
    counts.set(blk.metas[i], (counts.get(blk.metas[i]) ?? 0) + 1);
  }
  const out = new Int32Array(1 + 2 * counts.size);
  out[0] = blk.version;
  let k = 1;
  for (const [m, c] of counts) {
    out[k++] = m;
    out[k++] = c;
  }
  return out;
}

/** `rows` followed by `more`, in a new array. */
function appended(rows: Int32Array, more: readonly number[]): Int32Array {
  const out = new Int32Array(rows.length + more.length);
  out.set(rows);
  out.set(more, rows.length);
  return out;
}

/** The numbers in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out[n++] = a[i];
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}
