// Posting lists: the rows of each category, tag, venue and organizer, and the rows whose text holds a search term.
//
// Terms are answered from the word postings of src/index/words.ts and kept per term. Rows are listed ascending, dead
// ones included: a row never changes, so a list stays right for the rows it covers, and a query skips the dead ones.

import { offsetOf, PairPages, PairWriter, phraseMask } from '../pairs.ts';
import type { IndexQuery } from '../query.ts';
import { piecesOf, WordPostings } from '../words.ts';
import { ALIVE, type Rows } from './rows.ts';

/** Rows whose words are posted per background tick, at most, and the ms of work a tick may take (see SLICE_MS in
 * src/index/event-index.ts: other jobs' slices run in the same turn of the event loop). */
const WORDS_PER_TICK = 2000;
const WORDS_MS = 1;
/** Rows of postings read between two looks at the clock while a term is made ahead (see `TextPostings.prepare`). */
const PREPARE_ROWS = 4096;

/** The set bits of a 32-bit word. */
function ones(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Rows in ascending order (`n` of them used). */
export interface Posting {
  rows: Int32Array;
  n: number;
}

/** Rows per category, tag, venue and organizer id. */
export class FacetPostings {
  readonly #of = {
    categories: new Map<number, Posting>(),
    tags: new Map<number, Posting>(),
    venue: new Map<number, Posting>(),
    organizer: new Map<number, Posting>(),
  };

  /** Bytes of its lists. */
  get bytes(): number {
    let n = 0;
    for (const lists of Object.values(this.#of)) for (const l of lists.values()) n += l.rows.byteLength;
    return n;
  }

  /** Posts a new row under its event's terms, venue and organizers (read from the columns). */
  add(r: number, rows: Rows): void {
    const { vals, venue } = rows;
    let o = rows.valOff[r];
    for (const [lists, n] of [
      [this.#of.categories, rows.catN[r]],
      [this.#of.tags, rows.tagN[r]],
      [this.#of.organizer, rows.orgN[r]],
    ] as const)
      for (const end = o + n; o < end; o++) post(lists, vals[o], r);
    if (venue[r] !== 0) post(this.#of.venue, venue[r], r);
  }

  /** The rows posted under a venue (the first `n` of `rows`, ascending, dead ones included), if any. */
  venueRows(venue: number): Readonly<Posting> | undefined {
    return this.#of.venue.get(venue);
  }

  /**
   * `rows` (a search's, or null for all) narrowed by the posting lists of the query's term, venue and organizer
   * filters that are selective enough to be worth reading (an eighth of the `alive` rows at most, unless `always`).
   * Null when nothing narrows.
   */
  narrow(q: IndexQuery, rows: Int32Array | null, alive: number, always: boolean): Int32Array | null {
    // A geolocation's venues (src/geo/) narrow as a venue list does; none at all match no row.
    if (q.venueIn?.size === 0) return new Int32Array(0);
    const near = q.venueIn ? [...q.venueIn] : undefined;
    for (const [kind, values] of [
      ['categories', q.categories],
      ['tags', q.tags],
      ['venue', q.venue],
      ['organizer', q.organizer],
      ['venue', near],
    ] as const) {
      if (!values || values.length === 0) continue;
      const lists = values.map((v) => this.#of[kind].get(v)).filter((l) => l !== undefined);
      const size = lists.reduce((n, l) => n + l.n, 0);
      if (!always && size * 8 > alive) continue;
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
}

function post(lists: Map<number, Posting>, value: number, r: number): void {
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

/**
 * The rows whose search text holds a term (`LIKE '%term%'`). Words are posted in the background after the rows are
 * added, a few thousand rows a tick, so loading and crawling stay fast; until then the text of the rows not posted
 * yet is read.
 */
export class TextPostings {
  readonly #rows: Rows;
  /** Whether words are posted in the background (else only by `indexWords`). */
  readonly #background: boolean;
  #words = new WordPostings();
  /**
   * Per row posted, the signature of its adjacent word pairs (src/index/pairs.ts): a phrase's candidate rows lacking
   * its pairs are skipped without reading their text. Made as the row's words are posted, in pages (a single array
   * of every row's was allocated and copied whole as rows grew: a 3 ms task at 100k).
   */
  readonly #pairs = new PairPages();
  readonly #pairWriter = new PairWriter();
  /** Rows below this one are in `#words`. */
  #upTo = 0;
  #tick: NodeJS.Immediate | undefined;
  #paused = false;
  /** New columns are being built to replace these (see {@link retire}): their words are posted there, not here. */
  #retiring = false;
  /**
   * Term → the rows containing it, as of `upTo` rows, and the same as bits when made ahead (see {@link prepare}, until
   * a search takes them: {@link takeBits}); `#termInts` row numbers held in all.
   */
  readonly #terms = new Map<string, { rows: Int32Array; upTo: number; bits?: Uint32Array }>();
  #termInts = 0;
  /** Called when the background has posted every row's words (after a load or a crawl, and after later changes). */
  readonly #posted: () => void;

  constructor(rows: Rows, background: boolean, posted: () => void = () => {}) {
    this.#rows = rows;
    this.#background = background;
    this.#posted = posted;
  }

  /** Bytes by part: word postings (allocated / used), pair signatures, kept answers per term. */
  bytesByPart(): Record<string, number> {
    const words = this.#words.bytes;
    let terms = 0;
    for (const t of this.#terms.values()) terms += t.rows.byteLength;
    return {
      'word postings': words.held,
      'of which unused room': words.held - words.used,
      'pair signatures': this.#pairs.pages.length * (this.#pairs.pages[0]?.byteLength ?? 0),
      'rows kept per search term': terms,
    };
  }

  /** The words posted under at least `minRows` rows, most posted first, at most `max` (see WordPostings). */
  mostPosted(minRows: number, max: number): string[] {
    return this.#words.mostPosted(minRows, max);
  }

  /** Rows whose words are not posted yet. */
  get pending(): number {
    return this.#rows.used - this.#upTo;
  }

  /**
   * The rows (ascending; dead ones included) whose search text contains `term`. Kept per term: rows never change
   * (a change takes a new row), so an answer stays right for the rows it covered and only newer rows are read.
   */
  rowsContaining(term: string): Int32Array {
    const rows = this.#rows;
    let hit = this.#terms.get(term);
    if (hit) this.#terms.delete(term);
    if (!hit) {
      hit = { rows: this.#findRows(term), upTo: rows.used };
      this.#termInts += hit.rows.length;
    } else if (hit.upTo < rows.used) {
      const needle = Buffer.from(term, 'utf8');
      const more: number[] = [];
      for (let r = hit.upTo; r < rows.used; r++)
        if (rows.meta[r] & ALIVE && rows.textOf(r).includes(needle)) more.push(r);
      if (more.length) {
        this.#termInts += more.length;
        hit.rows = appended(hit.rows, more);
        if (hit.bits) hit.bits = withBits(hit.bits, more, rows.used);
      }
      hit.upTo = rows.used;
    }
    this.#terms.set(term, hit);
    this.#evictTerms(term);
    return hit.rows;
  }

  /**
   * Makes {@link rowsContaining} of a term of word characters ahead, `ms` of work at a time with `pause()` between:
   * its rows are read from the postings into bits, then listed from the bits, so no step decodes and sorts every row
   * of a common word at once (30–45 ms at 1M events, in one task). The background warm-up of the most common
   * searches calls it before making each search's memo. Nothing when the term is kept already or is not one word.
   * `piece`: rows of postings read between two looks at the clock (tests make it 1).
   */
  async prepare(
    term: string,
    ms: number,
    pause: () => Promise<unknown>,
    piece = PREPARE_ROWS,
  ): Promise<void> {
    if (this.#terms.has(term) || piecesOf(term) !== null) return;
    const below = this.#upTo;
    const bits = new Uint32Array((below >>> 5) + 1);
    let t0 = performance.now();
    const due = async () => {
      if (performance.now() - t0 < ms) return;
      await pause();
      t0 = performance.now();
    };
    for (const _ of this.#words.rowBits(term, bits, below, piece)) await due();
    let n = 0;
    for (let w = 0; w < bits.length; w++) n += ones(bits[w]);
    const rows = new Int32Array(n);
    let k = 0;
    for (let w = 0; w < bits.length; w++) {
      for (let x = bits[w]; x !== 0; x &= x - 1) rows[k++] = (w << 5) | (31 - Math.clz32(x & -x));
      if ((w & 4095) === 4095) await due();
    }
    // Rows added while it was made (a bulk poll adds thousands a second): their text is read here, in slices too, so
    // that the first query does not read them all in one task.
    const needle = Buffer.from(term, 'utf8');
    const more: number[] = [];
    const textPiece = Math.min(piece, 256);
    let upTo = below;
    while (upTo < this.#rows.used) {
      const end = Math.min(this.#rows.used, upTo + textPiece);
      for (; upTo < end; upTo++)
        if (this.#rows.meta[upTo] & ALIVE && this.#rows.textOf(upTo).includes(needle)) more.push(upTo);
      await due();
    }
    // A query may have made it meanwhile (from the same rows).
    if (this.#terms.has(term)) return;
    const all = more.length ? appended(rows, more) : rows;
    this.#terms.set(term, { rows: all, upTo, bits: more.length ? withBits(bits, more, upTo) : bits });
    this.#termInts += all.length;
    this.#evictTerms(term);
  }

  /**
   * The rows of `term` as bits (one per row of `cap`), when {@link prepare} made them: taken (a search keeps them as
   * its own from then on), so that a memo of a common word is not made by setting a bit per row in one task (800k
   * rows at 1M events). Null otherwise. Call it after {@link rowsContaining} of the term: the bits are as up to date.
   */
  takeBits(term: string, cap: number): Uint32Array | null {
    const hit = this.#terms.get(term);
    const bits = hit?.bits;
    if (!hit || !bits) return null;
    hit.bits = undefined;
    const words = (cap >>> 5) + 1;
    if (bits.length === words) return bits;
    const out = new Uint32Array(words);
    out.set(bits.subarray(0, words));
    return out;
  }

  /** Least recently used answers go first once they hold more row numbers than the index has rows, twice over. */
  #evictTerms(keep: string): void {
    for (const [t, h] of this.#terms) {
      if (this.#termInts <= 2 * this.#rows.cap + 100_000 || t === keep) break;
      this.#terms.delete(t);
      this.#termInts -= h.rows.length;
    }
  }

  /** Rows containing `term`: from the postings for the rows they cover, from the text for the rows after. */
  #findRows(term: string): Int32Array {
    const rows = this.#rows;
    const pieces = piecesOf(term);
    const needle = Buffer.from(term, 'utf8');
    const meta = rows.meta;
    const holds = (r: number) => (meta[r] & ALIVE) !== 0 && rows.textOf(r).includes(needle);
    let found: Int32Array;
    if (pieces === null) {
      found = this.#words.rowsOf(term);
    } else if (pieces.length === 0) {
      const out: number[] = [];
      for (let r = 0; r < this.#upTo; r++) if (holds(r)) out.push(r);
      found = Int32Array.from(out);
    } else {
      let candidates = this.#words.rowsOf(pieces[0]);
      for (const p of pieces.slice(1)) candidates = intersect(candidates, this.#words.rowsOf(p));
      // Every candidate is below `#upTo`, so it has its pair signature: those lacking the phrase's pairs cannot
      // hold it, and their text is not read (most of a common-word phrase's candidates).
      const mask = phraseMask(term);
      found = mask ? this.#pairs.filter(candidates, mask, holds) : candidates.filter(holds);
    }
    if (this.#upTo === rows.used) return found;
    const more: number[] = [];
    for (let r = this.#upTo; r < rows.used; r++) if (holds(r)) more.push(r);
    return appended(found, more);
  }

  /** Posts the words of up to `rows` more rows (for at most about `budgetMs`); returns how many are left. */
  indexWords(rows: number, budgetMs = Number.POSITIVE_INFINITY): number {
    const held = this.#rows;
    const end = Math.min(held.used, this.#upTo + rows);
    const t0 = performance.now();
    let r = this.#upTo;
    for (; r < end; r++) {
      if (held.meta[r] & ALIVE) {
        const text = held.textOf(r);
        this.#pairWriter.start(text, this.#pairs.pageOf(r), offsetOf(r));
        this.#words.addText(r, text, 0, text.length, this.#pairWriter.word);
      }
      if ((r & 15) === 15 && performance.now() - t0 > budgetMs) {
        r++;
        break;
      }
    }
    this.#upTo = r;
    return held.used - r;
  }

  /** Holds back (true) or lets go (false) the background posting of words: a load posts them once it is done. */
  pause(paused: boolean): void {
    this.#paused = paused;
    if (!paused) this.later();
  }

  /**
   * Stops (true) or resumes (false) the background posting because a compaction is building the columns that replace
   * these. A bulk poll's rows were otherwise posted twice: here, then again in the new columns they are copied into
   * (the word posting was about 40 % of a crawl's and bulk poll's CPU). Rows left unposted meanwhile are read as text
   * by a search here, as any row not posted yet is.
   */
  retire(retiring: boolean): void {
    this.#retiring = retiring;
    if (!retiring) this.later();
  }

  /** Posts the words of new rows in the background, a tick at a time, unless paused or done by hand. */
  later(): void {
    if (this.#tick || !this.#background || this.#paused || this.#retiring) return;
    this.#tick = setImmediate(() => {
      this.#tick = undefined;
      if (this.#paused || this.#retiring) return;
      if (this.indexWords(WORDS_PER_TICK, WORDS_MS) > 0) this.later();
      else this.#posted();
    });
    // Not unref'd: an unref'd immediate runs only when something else wakes the event loop, so an idle gateway posted
    // one slice of 2000 rows per wake of its timers (a 100k-event index's words over about a minute at a 1 s poll,
    // searches reading the text of the rows not posted meanwhile).
  }
}

/** `bits` with the bits of `more` set, grown (a copy) to hold rows below `upTo` if need be. */
function withBits(bits: Uint32Array, more: readonly number[], upTo: number): Uint32Array {
  let out = bits;
  if ((upTo >>> 5) + 1 > bits.length) {
    out = new Uint32Array((upTo >>> 5) + 1);
    out.set(bits);
  }
  for (const r of more) out[r >>> 5] |= 1 << (r & 31);
  return out;
}

/** `rows` followed by `more`, in a new array. */
export function appended(rows: Int32Array, more: readonly number[]): Int32Array {
  const out = new Int32Array(rows.length + more.length);
  out.set(rows);
  out.set(more, rows.length);
  return out;
}

/** The numbers in both ascending lists. */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
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
