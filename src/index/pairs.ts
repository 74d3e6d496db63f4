// Per-row signatures of adjacent word pairs: which rows cannot hold a phrase, told without reading their text.
//
// A phrase term (`"night music"`) is found by reading the text of every row holding all its word pieces, and common
// words are in nearly every row. A row's signature is a small Bloom filter (512 bits) of the keys of its adjacent
// word pairs; a row lacking one of a phrase's keys cannot hold the phrase, so its text is not read. Bloom filters
// only answer "maybe" falsely, so the answer stays exact; a phrase whose pairs are truly in most rows still reads them.
//
// Why the key is exact: WordPress matches `LIKE '%term%'`. Where a term holding pieces p1, s, p2 (s: characters that
// are not word characters) occurs in a text, s lies between two consecutive words w1, w2 of that text, p1 ends w1
// and p2 starts w2. The key of a pair is made of w1's last (up to) TAIL bytes, the bytes between, and w2's first (up
// to) TAIL bytes; a term gives it when those bytes are known from it: when p1 is TAIL bytes long or more, or is also
// preceded by a non-word character in the term (p1 is then all of w1), and likewise for p2.
import { eachWordIn } from './words.ts';

/** Bytes of each word kept in a pair's key (`night music` keys on `ght`, ` `, `mus`). */
const TAIL = 3;
/** 32-bit words per row's signature: 512 bits, 64 bytes. */
export const SIG_WORDS = 16;
const SIG_MASK = SIG_WORDS * 32 - 1;

/** The two bits (of SIG_WORDS * 32) a pair's key sets, as one number (`bit1 << 16 | bit2`). */
function bitsOfKey(bytes: Uint8Array, aFrom: number, aTo: number, bFrom: number, bTo: number): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(aFrom, aTo - TAIL); i < aTo; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  // The gap's bytes are never word bytes: no marker is needed between the parts, but one keeps "ab|c" from "a|bc".
  h = Math.imul(h ^ 0xff, 0x01000193);
  for (let i = aTo; i < bFrom; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  h = Math.imul(h ^ 0xfe, 0x01000193);
  for (let i = bFrom, end = Math.min(bTo, bFrom + TAIL); i < end; i++)
    h = Math.imul(h ^ bytes[i], 0x01000193);
  // FNV's low bits are weak: a final mix (murmur3's) before the bits are taken.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h & SIG_MASK) << 16) | ((h >>> 16) & SIG_MASK);
}

const setBit = (sig: Uint32Array, at: number, bit: number): void => {
  sig[at + (bit >>> 5)] |= 1 << (bit & 31);
};

/** Writes the signature of the UTF-8 text `bytes[from, to)` into `sig[at, at + SIG_WORDS)` (which starts zeroed). */
export function signText(bytes: Uint8Array, from: number, to: number, sig: Uint32Array, at: number): void {
  const w = new PairWriter();
  w.start(bytes, sig, at);
  eachWordIn(bytes, from, to, w.word);
}

/**
 * Takes a text's words in order (`word(from, to)`, e.g. from {@link eachWordIn}) and sets their pairs' bits in a
 * signature. One is reused for every row (`start` per row): no closure is made per row posted.
 */
export class PairWriter {
  #bytes: Uint8Array = new Uint8Array(0);
  #sig: Uint32Array = new Uint32Array(0);
  #at = 0;
  #pFrom = -1;
  #pTo = -1;

  /** Begins the signature of a text held in `bytes`, written into `sig[at …]`. */
  start(bytes: Uint8Array, sig: Uint32Array, at: number): void {
    this.#bytes = bytes;
    this.#sig = sig;
    this.#at = at;
    this.#pFrom = -1;
  }

  readonly word = (a: number, z: number): void => {
    if (this.#pFrom >= 0) {
      const k = bitsOfKey(this.#bytes, this.#pFrom, this.#pTo, a, z);
      setBit(this.#sig, this.#at, k >>> 16);
      setBit(this.#sig, this.#at, k & 0xffff);
    }
    this.#pFrom = a;
    this.#pTo = z;
  };
}

/**
 * The bits a row's signature must hold to maybe contain `term` (as the row's words are found: UTF-8, same word
 * characters), as a mask of SIG_WORDS words; null when the term gives no pair key (fewer than two word pieces, or
 * pieces too short at the term's ends).
 */
export function phraseMask(term: string): Uint32Array | null {
  const bytes = Buffer.from(term, 'utf8');
  const words: [number, number][] = [];
  eachWordIn(bytes, 0, bytes.length, (a, z) => {
    words.push([a, z]);
  });
  const mask = new Uint32Array(SIG_WORDS);
  let keys = 0;
  for (let i = 0; i + 1 < words.length; i++) {
    const [aFrom, aTo] = words[i];
    const [bFrom, bTo] = words[i + 1];
    // w1's tail is known when the piece is long enough, or when it is the whole word (a non-word byte before it).
    const tailKnown = aTo - aFrom >= TAIL || aFrom > 0;
    const headKnown = bTo - bFrom >= TAIL || bTo < bytes.length;
    if (!tailKnown || !headKnown) continue;
    const k = bitsOfKey(bytes, aFrom, aTo, bFrom, bTo);
    setBit(mask, 0, k >>> 16);
    setBit(mask, 0, k & 0xffff);
    keys++;
  }
  return keys ? mask : null;
}

/** Rows per page of signatures (256 KB a page): pages are added as rows are posted, with no copy of the rest. */
export const PAGE_ROWS = 1 << 12;

/** Where row `r`'s signature starts in its page. */
export const offsetOf = (r: number): number => (r & (PAGE_ROWS - 1)) * SIG_WORDS;

/** Signatures of rows 0, 1, …, a page of PAGE_ROWS rows at a time. */
export class PairPages {
  readonly pages: Uint32Array[] = [];

  /** The page of row `r`'s signature (pages are added up to it); the signature is at {@link offsetOf}(r) there. */
  pageOf(r: number): Uint32Array {
    const p = r >>> 12;
    while (this.pages.length <= p) this.pages.push(new Uint32Array(PAGE_ROWS * SIG_WORDS));
    return this.pages[p];
  }

  /**
   * The rows of `candidates` (all with signatures) whose signature holds every bit of `mask` and for which `holds`
   * is true: `holds` (the text read) is only called for the rows the signatures keep.
   */
  filter(candidates: Int32Array, mask: Uint32Array, holds: (r: number) => boolean): Int32Array {
    // Only the mask's nonzero numbers are compared: a phrase of two words sets at most two of the sixteen.
    const at: number[] = [];
    const bits: number[] = [];
    for (let i = 0; i < SIG_WORDS; i++)
      if (mask[i] !== 0) {
        at.push(i);
        bits.push(mask[i]);
      }
    const pages = this.pages;
    const out = new Int32Array(candidates.length);
    let n = 0;
    next: for (let i = 0; i < candidates.length; i++) {
      const r = candidates[i];
      const page = pages[r >>> 12];
      const base = (r & (PAGE_ROWS - 1)) * SIG_WORDS;
      for (let k = 0; k < at.length; k++) if ((bits[k] & ~page[base + at[k]]) !== 0) continue next;
      if (holds(r)) out[n++] = r;
    }
    return out.subarray(0, n);
  }
}

/** Whether the signature `sig[at …]` holds every bit of `mask` (false: the row cannot contain the phrase). */
export function mayHold(sig: Uint32Array, at: number, mask: Uint32Array): boolean {
  // `&` answers a signed number: compare with the bits missing, not with the mask (bit 31 would never match).
  for (let i = 0; i < SIG_WORDS; i++) if ((mask[i] & ~sig[at + i]) !== 0) return false;
  return true;
}
