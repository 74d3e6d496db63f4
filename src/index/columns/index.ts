// The event index's storage and query engine: EventColumns, over its rows, their order, postings and plan.
//
// Rows in typed columns (./rows.ts), kept in (start, id) order in small blocks (./order.ts), posting lists and word
// postings (./postings.ts), and the query plan (./plan.ts). Answers exactly what `querySorted` (src/index/query.ts)
// answers over the same events (a property test holds the two together), in O(log n + rows in the date window)
// without collecting.
//
// A row is never rewritten: a change takes a new row and the old one dies, so what is kept per search or per term
// stays right for the rows it covered. Dead rows are dropped by building new columns: `EventIndex` does that in the
// background, and these columns never renumber their rows.
import { tick } from '../../pace/turns.ts';
import { type IndexQuery, type IndexResult, STOPWORDS } from '../query.ts';
import { boundsOf, checksOf } from './filter.ts';
import { Ordered } from './order.ts';
import { answer } from './plan.ts';
import { FacetPostings, TextPostings } from './postings.ts';
import { ALIVE, FLAG, FLAG_BITS, type IndexedEvent, type RowBytes, Rows, type StoredEvent } from './rows.ts';
import { matchCounts, Searches } from './search.ts';
import { wallText } from './wall-clock.ts';

/**
 * The searches made ahead (see {@link EventColumns.warm}): words posted under more than 1 / WARM_SHARE of the rows,
 * WARM_WORDS of them at most (the memos keep 32 searches), a slice of WARM_MS a tick.
 */
const WARM_SHARE = 8;
const WARM_WORDS = 16;
const WARM_MS = 1;

export interface ColumnsOptions {
  /** Whether words are posted in the background (else only by `indexWords`). Default true. */
  background?: boolean;
  /** Tests: take the candidate lists whatever their size (both ways must answer the same). */
  alwaysNarrow?: boolean;
  /** Rows per block (tests make it small, to have many). */
  blockSize?: number;
  /** Tests: ms of warm-up work between two yields (0: after every block; see {@link EventColumns.warm}). */
  warmMs?: number;
}

export class EventColumns {
  readonly #rows = new Rows();
  readonly #order: Ordered;
  readonly #facets = new FacetPostings();
  readonly #text: TextPostings;
  readonly #searches: Searches;
  readonly #alwaysNarrow: boolean;
  /** The background warm-up under way (see {@link warm}), and whether one is due once the words are posted. */
  #warming: Promise<void> | null = null;
  #warmDue = false;
  #warmUps = 0;
  readonly #warmMs: number;

  constructor(options: ColumnsOptions = {}) {
    this.#order = new Ordered(this.#rows, options.blockSize);
    this.#text = new TextPostings(this.#rows, options.background ?? true, () => {
      if (this.#warmDue) void this.warm();
    });
    this.#searches = new Searches(this.#rows, this.#text);
    this.#alwaysNarrow = options.alwaysNarrow ?? false;
    this.#warmMs = options.warmMs ?? WARM_MS;
  }

  get size(): number {
    return this.#rows.alive;
  }

  /** Rows whose words are not posted yet (searches read their text meanwhile). */
  get pendingWords(): number {
    return this.#text.pending;
  }

  /** Rows allocated but dead (replaced or removed events): they stay until new columns are built without them. */
  get dead(): number {
    return this.#rows.used - this.#rows.alive;
  }

  has(id: number): boolean {
    return this.#rows.rowOf.has(id);
  }

  ids(): IterableIterator<number> {
    return this.#rows.rowOf.keys();
  }

  idOfSlug(slug: string): number | undefined {
    return this.#rows.idOfSlug(slug);
  }

  get(id: number): IndexedEvent | undefined {
    const r = this.#rows.rowOf.get(id);
    return r === undefined ? undefined : this.#rows.record(r);
  }

  /** An event's `modifiedGmt` as {@link get} gives it, without the rest of the record (feeds ask it of thousands). */
  modifiedOf(id: number): string | undefined {
    const r = this.#rows.rowOf.get(id);
    return r === undefined ? undefined : wallText(this.#rows.modified[r]);
  }

  /** Whether an event has an excerpt, as {@link get} gives it, without the rest of the record. */
  hasExcerptOf(id: number): boolean | undefined {
    const r = this.#rows.rowOf.get(id);
    return r === undefined ? undefined : (this.#rows.meta[r] & FLAG.hasExcerpt) !== 0;
  }

  /** The stored event with its search text (snapshots; change detection). */
  stored(id: number): StoredEvent | undefined {
    const r = this.#rows.rowOf.get(id);
    return r === undefined ? undefined : this.#rows.stored(r);
  }

  /** Whether `f` is what the index holds for its id (so applying it would change nothing). */
  holds(f: StoredEvent): boolean {
    const r = this.#rows.rowOf.get(f.id);
    return r !== undefined && this.#rows.holds(r, f);
  }

  /**
   * Every stored event in (start, id) order as of now, `batch` at a time, however the columns change meanwhile: a
   * row is never rewritten (a change takes a new one) and never renumbered.
   */
  *batches(batch: number): Generator<StoredEvent[]> {
    const rows = this.rowsInOrder();
    for (let from = 0; from < rows.length; from += batch) {
      const out: StoredEvent[] = [];
      for (let i = from; i < Math.min(rows.length, from + batch); i++) out.push(this.#rows.stored(rows[i]));
      yield out;
    }
  }

  /** The rows {@link batches} reads, as rows of these columns (`list`), `batch` at a time. */
  *runs(batch: number): Generator<{ rows: Rows; list: Int32Array }> {
    const rows = this.rowsInOrder();
    for (let from = 0; from < rows.length; from += batch)
      yield { rows: this.#rows, list: rows.subarray(from, from + batch) };
  }

  /**
   * The live rows in (start, id) order as of now. They stay readable (by {@link copy}) however the columns change
   * meanwhile: a row is never rewritten (a change takes a new one) and never renumbered.
   */
  rowsInOrder(): Int32Array {
    const rows = new Int32Array(this.#rows.alive);
    let n = 0;
    for (const b of this.#order.blocks) {
      rows.set(b.rows.subarray(0, b.n), n);
      n += b.n;
    }
    return rows;
  }

  /**
   * Up to `out.length` live rows in (start, id) order after row `row` (-1: from the first), into `out`: how many (see
   * `Ordered.rowsAfter`). A walk of every row in slices, with no copy of the whole order made in one task.
   */
  rowsAfter(row: number, out: Int32Array): number {
    return this.#order.rowsAfter(row, out);
  }

  /** The rows allocated now that are still live when the walk reaches them, by row number (not in order). */
  *liveRows(): Generator<number> {
    const used = this.#rows.used;
    for (let r = 0; r < used; r++) if (this.#rows.meta[r] & ALIVE) yield r;
  }

  /** The event id of a row (live or dead). */
  idAt(r: number): number {
    return this.#rows.id[r];
  }

  /** The live row of an event. */
  rowOf(id: number): number | undefined {
    return this.#rows.rowOf.get(id);
  }

  /** Adds or replaces an event. `inOrder`: it sorts after every event held (loading a snapshot). */
  set(f: StoredEvent, inOrder = false): void {
    this.delete(f.id);
    this.#added(this.#rows.add(f), inOrder);
  }

  /** Adds or replaces an event read in place from a snapshot's bytes (no record is built). `inOrder` as for {@link set}. */
  setBytes(e: RowBytes, inOrder = false): void {
    this.delete(e.id);
    this.#added(this.#rows.addBytes(e), inOrder);
  }

  /**
   * Adds or replaces the event of row `r` of `from` with what that row holds (a compaction's copy: columns and text
   * are copied as they are, nothing is decoded). `inOrder` as for {@link set}.
   */
  copy(from: EventColumns, r: number, inOrder = false): void {
    this.delete(from.#rows.id[r]);
    this.#added(this.#rows.copy(from.#rows, r), inOrder);
  }

  #added(r: number, inOrder: boolean): void {
    this.#facets.add(r, this.#rows);
    this.#text.later();
    if (inOrder) this.#order.append(r);
    else this.#order.insert(r);
  }

  delete(id: number): boolean {
    const r = this.#rows.rowOf.get(id);
    if (r === undefined) return false;
    this.#order.remove(r);
    this.#rows.kill(r, id);
    return true;
  }

  query(q: IndexQuery): IndexResult {
    return answer(q, {
      rows: this.#rows,
      order: this.#order,
      facets: this.#facets,
      searches: this.#searches,
      alwaysNarrow: this.#alwaysNarrow,
    });
  }

  /**
   * Whether an event of a status and flag bits is listed by `q` (1; 2: when its author is the query's), when status
   * and flags alone decide it; null when the query filters on more. `q` has no search (the caller's part).
   */
  listedBy(q: IndexQuery): ((status: string, flags: number) => number) | null {
    const c = checksOf(this.#rows, q, boundsOf(q), null);
    if (c.extra !== null || c.pass.includes(2)) return null;
    const { statusCode } = this.#rows;
    return (status, flags) => {
      const code = statusCode.get(status);
      return code === undefined ? 0 : (c.pass[(code << FLAG_BITS) | ALIVE | flags] ?? 0);
    };
  }

  /** An event's start as its wall-clock key (NO_DATE: none, or no such event). */
  startKeyOf(id: number): number {
    const r = this.#rows.rowOf.get(id);
    return r === undefined ? Number.NEGATIVE_INFINITY : this.#rows.start[r];
  }

  /** An event's venue id (0: none, or no such event). */
  venueOf(id: number): number {
    const r = this.#rows.rowOf.get(id);
    return r === undefined ? 0 : this.#rows.venue[r];
  }

  /** The venue (or organizer) ids the given events link to. */
  linkedOf(kind: 'venue' | 'organizer', ids: readonly number[]): Set<number> {
    const { rowOf, venue, valOff, catN, tagN, orgN, vals } = this.#rows;
    const out = new Set<number>();
    for (const id of ids) {
      const r = rowOf.get(id);
      if (r === undefined) continue;
      if (kind === 'venue') {
        if (venue[r] !== 0) out.add(venue[r]);
        continue;
      }
      const o = valOff[r] + catN[r] + tagN[r];
      for (let j = o; j < o + orgN[r]; j++) out.add(vals[j]);
    }
    return out;
  }

  /**
   * Posts the words of up to `rows` more rows; returns how many are left. Loading and crawling leave this to the
   * background, a few thousand rows a tick, so they stay fast; searches read the text of rows not yet posted.
   */
  indexWords(rows: number, budgetMs = Number.POSITIVE_INFINITY): number {
    return this.#text.indexWords(rows, budgetMs);
  }

  /** Holds back (true) or lets go (false) the background posting of words: a load posts them once it is done. */
  pauseWords(paused: boolean): void {
    this.#text.pause(paused);
  }

  /**
   * Holds back (true) or lets go (false) the background posting of words while new columns are built to replace
   * these (a compaction): the rows are posted in the new columns, so posting them here too was work thrown away.
   */
  retireWords(retiring: boolean): void {
    this.#text.retire(retiring);
  }

  /** Whether the background is making the most common searches ahead (see {@link warm}). */
  get warming(): boolean {
    return this.#warming !== null;
  }

  /**
   * Makes ahead, a slice a tick, the searches for the words posted under the most rows: their memos (rows as bits)
   * and counts per block. A search's first query reads every row its words were posted under (at 1M events a word
   * in most of them: 30–45 ms of decoding, bits and block counts); the later ones read what the first kept. Run in
   * the background once the words of a load or crawl are posted; tests call it too. Rows added meanwhile are taken
   * in as any query takes them in (the memo is brought up to date after each yield).
   */
  /** How many warm-ups began (see {@link warm}). */
  get warmUps(): number {
    return this.#warmUps;
  }

  warm(): Promise<void> {
    this.#warmDue = false;
    if (!this.#warming) this.#warmUps++;
    this.#warming ??= this.#warm().finally(() => {
      this.#warming = null;
    });
    return this.#warming;
  }

  /**
   * Warms (see {@link warm}) once every row's words are posted: called when a load or a crawl is over, or new
   * columns take over. Not at each catch-up of the posting: during a crawl it catches up after every page, and
   * searches made ahead at a few hundred rows would then read the text of every row crawled after them.
   */
  warmWhenPosted(): void {
    this.#warmDue = true;
    if (this.#text.pending === 0) void this.warm();
  }

  async #warm(): Promise<void> {
    const words = this.#text
      .mostPosted(Math.max(1, Math.ceil(this.#rows.alive / WARM_SHARE)), WARM_WORDS + STOPWORDS.size)
      .filter((w) => !STOPWORDS.has(w))
      .slice(0, WARM_WORDS);
    let t0 = performance.now();
    for (const word of words) {
      // Its rows first, a slice a tick: the memo made from them is then a few ms of bits, not a decode and sort.
      await this.#text.prepare(word, this.#warmMs, tick);
      t0 = performance.now();
      let memo = this.#searches.of(word);
      for (let b = 0; b < this.#order.blocks.length; b++) {
        const blk = this.#order.blocks[b];
        const pairs = memo.blocks.get(blk);
        if (!pairs || pairs[0] !== blk.version) memo.blocks.set(blk, matchCounts(blk, memo.inc, memo.exc));
        if (performance.now() - t0 < this.#warmMs) continue;
        await tick();
        t0 = performance.now();
        // Rows added meanwhile: their bits first, or a block they joined would be counted without them.
        memo = this.#searches.of(word);
      }
    }
  }

  /** Bytes held by part (what the heap of an index is made of; the bench prints it). */
  bytesByPart(): Record<string, number> {
    let order = 0;
    for (const b of this.#order.blocks)
      order += b.rows.byteLength + b.starts.byteLength + b.ends.byteLength + b.metas.byteLength;
    return {
      ...this.#rows.bytesByPart(),
      'order blocks': order,
      'facet postings': this.#facets.bytes,
      ...this.#text.bytesByPart(),
      'search memos': this.#searches.bytes,
    };
  }

  /** Makes room for `rows` more events at once (see `Rows.reserve`). */
  reserve(rows: number): void {
    this.#rows.reserve(rows);
  }

  /** {@link reserve} as steps, for a caller that yields between them (see `Rows.reserving`). */
  reserving(rows: number): (() => void)[] {
    return this.#rows.reserving(rows);
  }
}
