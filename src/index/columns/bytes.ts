// A column of byte strings (each row's search text, or slug) in slabs: no JS string per row, and growing never copies.
//
// As JS strings, a million slugs were a million objects for every major collection to mark (15–50 ms pauses at 1M);
// as one buffer, the text of 1M events (~500 MB) was copied whole each time it grew (100 ms and more in one task).
// A slab is filled and then only read; a row's bytes never span two slabs. The first slabs are small, then they double
// up to the column's slab size.

/** Where row r's bytes are: slab `floor(at[r] / SLAB_AT)`, from `at[r] % SLAB_AT`. */
const SLAB_AT = 2 ** 32;

export class ByteColumn {
  readonly #slabSize: number;
  readonly #slabs: Buffer[] = [];
  #used = 0;
  /** Per row: slab and offset (see SLAB_AT), and length. */
  #at = new Float64Array(0);
  #len = new Uint32Array(0);

  constructor(slabSize: number) {
    this.#slabSize = slabSize;
  }

  /** Bytes held in all (what the slabs hold, used or not). */
  get bytes(): number {
    return this.#slabs.reduce((n, s) => n + s.length, 0);
  }

  /** Makes room for rows below `cap` at once (the rows' columns grow these a slice at a time: see {@link perRow}). */
  grow(cap: number): void {
    const at = new Float64Array(cap);
    at.set(this.#at.subarray(0, Math.min(cap, this.#at.length)));
    const len = new Uint32Array(cap);
    len.set(this.#len.subarray(0, Math.min(cap, this.#len.length)));
    this.#at = at;
    this.#len = len;
  }

  /**
   * Its arrays of one entry per row, written once per row: the rows' columns (src/index/columns/rows.ts) copy them
   * into bigger ones with their own and hand them back (`perRow = …`).
   */
  get perRow(): [Float64Array<ArrayBuffer>, Uint32Array<ArrayBuffer>] {
    return [this.#at, this.#len];
  }

  set perRow([at, len]: [Float64Array<ArrayBuffer>, Uint32Array<ArrayBuffer>]) {
    this.#at = at;
    this.#len = len;
  }

  /** Stores `s` (UTF-8) as row `r`'s bytes. */
  put(r: number, s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    const slab = this.#room(n);
    slab.write(s, this.#used, 'utf8');
    this.#place(r, n);
  }

  /** Stores `bytes[from, to)` as row `r`'s bytes. */
  putBytes(r: number, bytes: Uint8Array, from: number, to: number): void {
    const n = to - from;
    this.#room(n).set(bytes.subarray(from, to), this.#used);
    this.#place(r, n);
  }

  /** The slab holding row `r`'s bytes (read them from {@link start} for {@link length}). */
  slab(r: number): Buffer {
    return this.#slabs[Math.floor(this.#at[r] / SLAB_AT)];
  }

  start(r: number): number {
    return this.#at[r] % SLAB_AT;
  }

  length(r: number): number {
    return this.#len[r];
  }

  /** Row `r`'s bytes (a view, not a copy). */
  view(r: number): Buffer {
    const o = this.start(r);
    return this.slab(r).subarray(o, o + this.#len[r]);
  }

  string(r: number): string {
    const o = this.start(r);
    return this.slab(r).toString('utf8', o, o + this.#len[r]);
  }

  /** Whether row `r`'s bytes are `s` in UTF-8 (without making a string of them). */
  equals(r: number, s: string): boolean {
    const n = this.#len[r];
    // A UTF-8 string is at least as many bytes as UTF-16 units / 2 … and at most 3 per unit.
    if (s.length > n || s.length * 3 < n) return false;
    if (Buffer.byteLength(s, 'utf8') !== n) return false;
    const slab = this.slab(r);
    const o = this.start(r);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return slab.toString('utf8', o, o + n) === s;
      if (slab[o + i] !== c) return false;
    }
    return true;
  }

  /** The slab with `n` free bytes at `#used` (a new one when the current one is full). */
  #room(n: number): Buffer {
    let slab = this.#slabs.at(-1);
    if (!slab || this.#used + n > slab.length) {
      // Small while the column is (an index of a few events, as tests make, holds little), then slabs of the full size.
      const size = Math.min(this.#slabSize, slab ? slab.length * 2 : 1 << 14);
      slab = Buffer.allocUnsafe(Math.max(size, n));
      this.#slabs.push(slab);
      this.#used = 0;
    }
    return slab;
  }

  #place(r: number, n: number): void {
    this.#at[r] = (this.#slabs.length - 1) * SLAB_AT + this.#used;
    this.#len[r] = n;
    this.#used += n;
  }
}
