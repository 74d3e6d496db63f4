// Word postings for the event index's search: which rows hold a word, and which words contain a search term.
//
// WordPress matches a search term as `LIKE '%term%'`: a substring anywhere in the title, excerpt or content. A term
// made only of word characters can only occur inside one run of word characters (a word), so the rows that contain
// it are exactly the rows posted under the words that contain it: no text has to be read. Terms with other
// characters (a phrase, `rock'n'roll`) narrow the rows by their word pieces and are then checked against the text.
import { FNV_BASIS, FNV_PRIME, Vocabulary } from './vocabulary.ts';

/** Word characters: letters, combining marks, digits, `_`. Any class works, as long as both sides use the same. */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
const ONLY_WORD = /^[\p{L}\p{M}\p{N}_]+$/u;

const isWordChar = (c: string): boolean => ONLY_WORD.test(c);
/** Code points below 128 that are word characters (the common case, without a regular expression). */
const ASCII = Uint8Array.from({ length: 128 }, (_, c) => (isWordChar(String.fromCharCode(c)) ? 1 : 0));
/** Other code points of the Basic Multilingual Plane, classified as met: 0 not yet, 1 word, 2 not a word. */
const BMP = new Uint8Array(0x10000);
const astral = new Map<number, boolean>();

/** Whether a code point is a word character (classified once, then looked up). */
function isWordPoint(cp: number): boolean {
  if (cp < 128) return ASCII[cp] === 1;
  if (cp < 0x10000) {
    if (BMP[cp] === 0) BMP[cp] = isWordChar(String.fromCharCode(cp)) ? 1 : 2;
    return BMP[cp] === 1;
  }
  let w = astral.get(cp);
  if (w === undefined) {
    w = isWordChar(String.fromCodePoint(cp));
    if (astral.size < 100_000) astral.set(cp, w);
  }
  return w;
}

/** The words of a text (each once), as the postings are keyed: maximal runs of word characters. */
export function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  let from = -1;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const word = isWordPoint(cp);
    if (word && from < 0) from = i;
    else if (!word && from >= 0) {
      out.add(text.slice(from, i));
      from = -1;
    }
    i += width;
  }
  if (from >= 0) out.add(text.slice(from));
  return out;
}

/**
 * Calls `word(from, to, hash)` for each maximal run of word characters of UTF-8 `bytes[from, to)`: the words
 * {@link wordsOf} finds in the same text decoded (the same code points, classified alike), without making a string,
 * with the word's hash (`hashOf` of src/index/vocabulary.ts) made as its bytes are read.
 * The bytes are well-formed UTF-8 (written from JS strings, lone surrogates as U+FFFD, as decoding reads them).
 */
export function eachWordIn(
  bytes: Uint8Array,
  from: number,
  to: number,
  word: (from: number, to: number, hash: number) => void,
): void {
  let start = -1;
  let h = FNV_BASIS;
  for (let i = from; i < to; ) {
    const b = bytes[i];
    if (b < 0x80) {
      // Most text is ASCII: one byte, classified by a table.
      if (ASCII[b] === 1) {
        if (start < 0) {
          start = i;
          h = FNV_BASIS;
        }
        h = Math.imul(h ^ b, FNV_PRIME);
      } else if (start >= 0) {
        word(start, i, h & 0x7fffffff);
        start = -1;
      }
      i++;
      continue;
    }
    let cp: number;
    let width: number;
    if (b < 0xe0) {
      cp = ((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f);
      width = 2;
    } else if (b < 0xf0) {
      cp = ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
      width = 3;
    } else {
      cp =
        ((b & 0x07) << 18) |
        ((bytes[i + 1] & 0x3f) << 12) |
        ((bytes[i + 2] & 0x3f) << 6) |
        (bytes[i + 3] & 0x3f);
      width = 4;
    }
    if (isWordPoint(cp)) {
      if (start < 0) {
        start = i;
        h = FNV_BASIS;
      }
      for (let k = i; k < i + width; k++) h = Math.imul(h ^ bytes[k], FNV_PRIME);
    } else if (start >= 0) {
      word(start, i, h & 0x7fffffff);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) word(start, to, h & 0x7fffffff);
}

/** The word pieces of a term; `null` when the term is one word (its rows need no text check). */
export function piecesOf(term: string): string[] | null {
  return ONLY_WORD.test(term) ? null : (term.match(WORD) ?? []);
}

const gramsOf = (w: string): Set<string> => {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= w.length; i++) out.add(w.slice(i, i + 3));
  return out;
};

/**
 * Bytes of a word's postings held in one array, at most: a longer list goes on in another. Doubling one array per word
 * allocated and copied 1–2 MB in one task for a common word at 1M events, with the collector's work such an
 * allocation brings (a 34 ms task while a compaction posted its new columns' words).
 */
const CHUNK = 1 << 16;

/** How many term → words answers are kept (search terms repeat: the calendar's own filters, popular words). */
const TERM_CACHE = 1000;

/**
 * Rows (small integers) posted under words. Append-only: a row's words never change (a changed event gets a new
 * row), so postings are never edited; rows that died are skipped by the caller and left out of the new columns a
 * compaction builds.
 * Rows are posted in ascending order, so each word's list is kept as the gaps between its rows, 7 bits a byte
 * (LEB128): a common word's gaps are a byte each, a quarter of the space of 32-bit row numbers. A list is held in
 * arrays of at most CHUNK bytes; a full one ends in zero bytes, which decode as no row (a gap is never 0, and a
 * gap's last byte is never 0).
 */
export class WordPostings {
  /** Word ids by their bytes (the words of a text are looked up without making strings of them). */
  readonly #ids = new Vocabulary();
  readonly #words: string[] = [];
  #bytes: Uint8Array[] = [];
  /** Per word, its full arrays before `#bytes` (zero-padded), if any. */
  #full: Uint8Array[][] = [];
  /** Bytes used, rows posted and the last row posted, per word. */
  #used: number[] = [];
  #counts: number[] = [];
  #last: number[] = [];
  /** Trigram → ids of the words holding it, to find the words containing a term without reading them all. */
  readonly #grams = new Map<string, number[]>();
  /** Term → ids of the words containing it, as of `upTo` words (words are only ever added). */
  readonly #terms = new Map<string, { words: number[]; upTo: number }>();
  /** Bytes of a full array of postings (see CHUNK; tests make it small). */
  readonly #chunk: number;

  constructor(chunk = CHUNK) {
    this.#chunk = Math.max(8, chunk);
  }

  get vocabulary(): number {
    return this.#words.length;
  }

  /** Bytes of its postings as allocated, and as used (the rest is room for more rows). */
  get bytes(): { held: number; used: number } {
    let held = this.#ids.bytes;
    let used = held;
    for (let id = 0; id < this.#bytes.length; id++) {
      const full = this.#full[id].reduce((n, a) => n + a.byteLength, 0);
      held += this.#bytes[id].byteLength + full;
      used += this.#used[id] + full;
    }
    return { held, used };
  }

  /** Posts `row` under each of `words`; rows come in ascending order (a row once per word). */
  add(row: number, words: Iterable<string>): void {
    for (const w of words) {
      let id = this.#ids.idOfString(w);
      if (id === -1) id = this.#newWord(w, this.#ids.addString(w));
      this.#post(id, row);
    }
  }

  /**
   * Posts `row` under each word of the UTF-8 text `bytes[from, to)` (the words {@link wordsOf} finds in it), reading
   * the bytes where they are: no string is made but for a word never seen before. `onWord` is also given each word
   * (every occurrence, in order), for the pair signatures of src/index/pairs.ts made in the same pass.
   */
  addText(
    row: number,
    bytes: Uint8Array,
    from: number,
    to: number,
    onWord?: (from: number, to: number) => void,
  ): void {
    eachWordIn(bytes, from, to, (a, z, h) => {
      onWord?.(a, z);
      let id = this.#ids.idOf(bytes, a, z, h);
      if (id === -1)
        id = this.#newWord(
          Buffer.from(bytes.buffer, bytes.byteOffset + a, z - a).toString('utf8'),
          this.#ids.add(bytes, a, z),
        );
      // A word seen twice in a row's text is posted once.
      if (this.#last[id] !== row) this.#post(id, row);
    });
  }

  #post(id: number, row: number): void {
    let gap = row - this.#last[id];
    if (gap <= 0) throw new RangeError(`rows are posted in ascending order (${row} after ${this.#last[id]})`);
    let bytes = this.#bytes[id];
    let at = this.#used[id];
    if (at + 5 > bytes.length) {
      const size = Math.min(this.#chunk, Math.max(8, bytes.length * 2));
      if (at + 5 > size) {
        // Its last bytes are zero (never written): no row.
        this.#full[id].push(bytes);
        bytes = new Uint8Array(this.#chunk);
        at = 0;
      } else {
        const grown = new Uint8Array(size);
        grown.set(bytes.subarray(0, at));
        bytes = grown;
      }
      this.#bytes[id] = bytes;
    }
    while (gap >= 0x80) {
      bytes[at++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    bytes[at++] = gap;
    this.#used[id] = at;
    this.#last[id] = row;
    this.#counts[id]++;
  }

  /** The rows of word `id`, written into `out` from `at`. */
  #decode(id: number, out: Int32Array, at: number): void {
    const full = this.#full[id];
    let row = -1;
    for (let k = 0; k <= full.length; k++) {
      const bytes = k < full.length ? full[k] : this.#bytes[id];
      const end = k < full.length ? bytes.length : this.#used[id];
      for (let i = 0; i < end; ) {
        let gap = 0;
        let shift = 0;
        let b: number;
        do {
          b = bytes[i++];
          gap |= (b & 0x7f) << shift;
          shift += 7;
        } while (b & 0x80);
        if (gap === 0) continue;
        row += gap;
        out[at++] = row;
      }
    }
  }

  /**
   * {@link rowsOf} as bits, a piece at a time: sets the bit of every row below `below` posted under a word containing
   * `term`, reading at most `max` rows of postings between two yields (the caller yields to the event loop there: a
   * common word's rows at 1M events, decoded and sorted in one go, were a 30–45 ms task). Postings only grow at their
   * end (a grown array keeps its bytes, a full one is kept as it is), so a piece resumes where the last one stopped:
   * at byte `i` of array `k` (of the full ones, then the last).
   */
  *rowBits(term: string, bits: Uint32Array, below: number, max: number): Generator<void> {
    for (const id of [...this.#wordsContaining(term)]) {
      let i = 0;
      let k = 0;
      let row = -1;
      for (let done = false; !done; ) {
        const full = this.#full[id];
        const bytes = k < full.length ? full[k] : this.#bytes[id];
        const end = k < full.length ? bytes.length : this.#used[id];
        for (let n = 0; n < max; n++) {
          if (i >= end) {
            if (k < full.length) {
              k++;
              i = 0;
              break;
            }
            done = true;
            break;
          }
          let gap = 0;
          let shift = 0;
          let b: number;
          do {
            b = bytes[i++];
            gap |= (b & 0x7f) << shift;
            shift += 7;
          } while (b & 0x80);
          if (gap === 0) continue;
          row += gap;
          if (row >= below) {
            done = true;
            break;
          }
          bits[row >>> 5] |= 1 << (row & 31);
        }
        if (!done) yield;
      }
    }
  }

  /** The rows (ascending, each once) posted under a word containing `term` (word characters only, lower-cased). */
  rowsOf(term: string): Int32Array {
    const words = this.#wordsContaining(term);
    let n = 0;
    for (const id of words) n += this.#counts[id];
    const all = new Int32Array(n);
    n = 0;
    for (const id of words) {
      this.#decode(id, all, n);
      n += this.#counts[id];
    }
    if (words.length === 1) return all;
    all.sort();
    let k = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[k++] = all[i];
    return all.subarray(0, k);
  }

  /**
   * The words posted under at least `minRows` rows, most posted first, at most `max` of them: the searches whose first
   * query costs most (a first search reads every row its words were posted under).
   */
  mostPosted(minRows: number, max: number): string[] {
    const ids: number[] = [];
    for (let id = 0; id < this.#counts.length; id++) if (this.#counts[id] >= minRows) ids.push(id);
    ids.sort((a, b) => this.#counts[b] - this.#counts[a]);
    return ids.slice(0, max).map((id) => this.#words[id]);
  }

  /** Keeps a new word (`id`, just added to the vocabulary) as a string for the term lookups, and its trigrams. */
  #newWord(w: string, id: number): number {
    this.#words.push(w);
    this.#bytes.push(new Uint8Array(2));
    this.#full.push([]);
    this.#used.push(0);
    this.#counts.push(0);
    this.#last.push(-1);
    for (const g of gramsOf(w)) {
      const list = this.#grams.get(g);
      if (list) list.push(id);
      else this.#grams.set(g, [id]);
    }
    return id;
  }

  #wordsContaining(term: string): number[] {
    let hit = this.#terms.get(term);
    if (hit) {
      // Refresh its place in the LRU order, and look at the words added since.
      this.#terms.delete(term);
      for (let id = hit.upTo; id < this.#words.length; id++)
        if (this.#words[id].includes(term)) hit.words.push(id);
      hit.upTo = this.#words.length;
    } else {
      hit = { words: this.#search(term), upTo: this.#words.length };
    }
    this.#terms.set(term, hit);
    if (this.#terms.size > TERM_CACHE) this.#terms.delete(this.#terms.keys().next().value as string);
    return hit.words;
  }

  #search(term: string): number[] {
    if (term.length < 3) {
      const out: number[] = [];
      for (let id = 0; id < this.#words.length; id++) if (this.#words[id].includes(term)) out.push(id);
      return out;
    }
    // Every word containing the term holds each of its trigrams: read the shortest list and check those words.
    let shortest: number[] | undefined;
    for (const g of gramsOf(term)) {
      const list = this.#grams.get(g);
      if (!list) return [];
      if (!shortest || list.length < shortest.length) shortest = list;
    }
    return (shortest ?? []).filter((id) => this.#words[id].includes(term));
  }
}
