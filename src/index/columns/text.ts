// The rows' search text, held as token ids: each row's lower-cased UTF-8 text cut into maximal runs of word characters
// and of other characters (as src/index/words.ts finds words), each run stored as the varint id of its bytes in one
// dictionary of the process, and read back byte for byte.
//
// As plain bytes the text was 468 of the ~900 MB an index of 1M synthetic events held; as token ids it is ~123 bytes
// an event (3.8× less: a site's texts reuse a vocabulary of thousands of words and a few separators). The dictionary
// is shared by every column (a compaction copies a row's ids as they are) and only grows: runs longer than
// MAX_TOKEN bytes, and every run once it holds MAX_TOKENS, are stored as literal bytes instead.
import { hashOf, Vocabulary } from '../vocabulary.ts';
import { eachWordIn } from '../words.ts';
import { ByteColumn } from './bytes.ts';

/** Runs longer than this are stored as literal bytes (URLs, long numbers: rarely repeated). */
const MAX_TOKEN = 48;
/** Tokens the dictionary holds at most (a few MB); runs first seen after that are stored as literal bytes. */
const MAX_TOKENS = 1 << 18;

/** Every text column's tokens (id + 1 in a row's bytes; 0 starts a literal: its length, then its bytes). */
const TOKENS = new Vocabulary();

/** Grows `b` (a scratch buffer) to hold `n` bytes. */
const room = (b: Buffer, n: number): Buffer =>
  b.length >= n ? b : Buffer.allocUnsafe(Math.max(n, b.length * 2));

export class TextColumn {
  /** Each row's token bytes. */
  readonly #coded: ByteColumn;
  /** Each row's text length in bytes (as read back). */
  #plain = new Uint32Array(0);
  #in: Buffer = Buffer.allocUnsafe(1024);
  #out: Buffer = Buffer.allocUnsafe(1024);
  #k = 0;

  constructor(slabSize: number) {
    this.#coded = new ByteColumn(slabSize);
  }

  /** Bytes held in all (the slabs of token bytes). */
  get bytes(): number {
    return this.#coded.bytes;
  }

  /** Bytes of the dictionary every text column shares. */
  static get dictionaryBytes(): number {
    return TOKENS.bytes;
  }

  /** Its arrays of one entry per row, grown by the rows' columns (see ByteColumn.perRow). */
  get perRow(): [Float64Array<ArrayBuffer>, Uint32Array<ArrayBuffer>, Uint32Array<ArrayBuffer>] {
    return [...this.#coded.perRow, this.#plain];
  }

  set perRow([at, len, plain]: [
    Float64Array<ArrayBuffer>,
    Uint32Array<ArrayBuffer>,
    Uint32Array<ArrayBuffer>,
  ]) {
    this.#coded.perRow = [at, len];
    this.#plain = plain;
  }

  /** Stores `s` (UTF-8) as row `r`'s text. */
  put(r: number, s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.#in = room(this.#in, n);
    this.#in.write(s, 0, 'utf8');
    this.putBytes(r, this.#in, 0, n);
  }

  /** Stores the UTF-8 text `bytes[from, to)` as row `r`'s. */
  putBytes(r: number, bytes: Uint8Array, from: number, to: number): void {
    // At most a literal per byte of text: a varint of the length (5 bytes) and the byte, per run.
    this.#out = room(this.#out, 6 * (to - from) + 16);
    this.#k = 0;
    let at = from;
    eachWordIn(bytes, from, to, (a, z, h) => {
      if (a > at) this.#token(bytes, at, a, hashOf(bytes, at, a));
      this.#token(bytes, a, z, h);
      at = z;
    });
    if (at < to) this.#token(bytes, at, to, hashOf(bytes, at, to));
    this.#coded.putBytes(r, this.#out, 0, this.#k);
    this.#plain[r] = to - from;
  }

  /** Stores row `r` of `from` as row `c` of this column (the token bytes as they are). */
  copyRow(c: number, from: TextColumn, r: number): void {
    const v = from.#coded.view(r);
    this.#coded.putBytes(c, v, 0, v.length);
    this.#plain[c] = from.#plain[r];
  }

  /** Row `r`'s text length in bytes. */
  length(r: number): number {
    return this.#plain[r];
  }

  /** Row `r`'s text as UTF-8 bytes, in a buffer that the next call to `view` (or any other read) overwrites. */
  view(r: number): Buffer {
    const n = this.#plain[r];
    this.#in = room(this.#in, n);
    const out = this.#in;
    const b = this.#coded.slab(r);
    let i = this.#coded.start(r);
    const end = i + this.#coded.length(r);
    const held = TOKENS.held;
    const starts = TOKENS.starts;
    let o = 0;
    while (i < end) {
      // Most ids are one byte (the commonest runs were met first).
      let c = b[i++];
      let v = c & 0x7f;
      for (let shift = 7; c & 0x80; shift += 7) {
        c = b[i++];
        v |= (c & 0x7f) << shift;
      }
      if (v > 0) {
        for (let k = starts[v - 1], z = starts[v]; k < z; k++) out[o++] = held[k];
        continue;
      }
      c = b[i++];
      let len = c & 0x7f;
      for (let shift = 7; c & 0x80; shift += 7) {
        c = b[i++];
        len |= (c & 0x7f) << shift;
      }
      out.set(b.subarray(i, i + len), o);
      i += len;
      o += len;
    }
    return out.subarray(0, n);
  }

  string(r: number): string {
    return this.view(r).toString('utf8');
  }

  /** Whether row `r`'s text is `s` in UTF-8. */
  equals(r: number, s: string): boolean {
    const n = this.#plain[r];
    // A UTF-8 string is at least as many bytes as UTF-16 units / 2 … and at most 3 per unit.
    if (s.length > n || s.length * 3 < n) return false;
    if (Buffer.byteLength(s, 'utf8') !== n) return false;
    const v = this.view(r);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return v.toString('utf8') === s;
      if (v[i] !== c) return false;
    }
    return true;
  }

  #varint(v: number): void {
    const out = this.#out;
    while (v >= 0x80) {
      out[this.#k++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[this.#k++] = v;
  }

  /** Writes the run `bytes[a, z)` (hash `h`) as its token id, adding it to the dictionary, or as literal bytes. */
  #token(bytes: Uint8Array, a: number, z: number, h: number): void {
    let id = TOKENS.idOf(bytes, a, z, h);
    if (id < 0 && z - a <= MAX_TOKEN && TOKENS.size < MAX_TOKENS) id = TOKENS.add(bytes, a, z);
    if (id >= 0) {
      this.#varint(id + 1);
      return;
    }
    this.#varint(0);
    this.#varint(z - a);
    this.#out.set(bytes.subarray(a, z), this.#k);
    this.#k += z - a;
  }
}
