// Words (as UTF-8 bytes) to small ids, looked up straight from a text's bytes: what a Map<string, number> does for the
// search postings, without making a string for each word of each event posted (at 100k events, 7 million short-lived
// strings, whose collections stalled crawls and snapshot loads), and without a garbage-collected table of them.

/** FNV-1a's start and multiplier: a word's hash is `FNV_BASIS`, then `Math.imul(h ^ byte, FNV_PRIME)` per byte. */
export const FNV_BASIS = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** A word's 31-bit FNV-1a hash over its bytes (what {@link Vocabulary.idOf} is given with a word, or makes). */
export function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let h = FNV_BASIS;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME);
  return h & 0x7fffffff;
}

export class Vocabulary {
  /** Every word's bytes, one after another: word `id` is `#bytes[#from[id] … #from[id + 1])`. */
  #bytes = new Uint8Array(1 << 12);
  #from = new Int32Array(1 << 10);
  #hash = new Int32Array(1 << 10);
  #size = 0;
  /** Open addressing (linear probing) on the hash: word id + 1, 0 for an empty slot; at most half full. */
  #table = new Int32Array(1 << 11);
  readonly #scratch = Buffer.alloc(256);

  get size(): number {
    return this.#size;
  }

  /** Bytes its arrays hold. */
  get bytes(): number {
    return this.#bytes.byteLength + this.#from.byteLength + this.#hash.byteLength + this.#table.byteLength;
  }

  /**
   * The id of the word `bytes[from, to)`, or -1. `h` is its {@link hashOf}, when the caller made it while reading the
   * bytes (the word posting does: the bytes are then read once to find the word and hash it, and once to compare).
   */
  idOf(bytes: Uint8Array, from: number, to: number, h = hashOf(bytes, from, to)): number {
    const mask = this.#table.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = this.#table[i];
      if (slot === 0) return -1;
      const id = slot - 1;
      if (this.#hash[id] === h && this.#equals(id, bytes, from, to)) return id;
    }
  }

  /** Adds the word `bytes[from, to)` (not held yet) and returns its id: the number of words before it. */
  add(bytes: Uint8Array, from: number, to: number): number {
    const id = this.#size;
    const n = to - from;
    if (id + 2 > this.#from.length) {
      this.#from = grown(this.#from, this.#from.length * 2);
      this.#hash = grown(this.#hash, this.#hash.length * 2);
    }
    const at = this.#from[id];
    if (at + n > this.#bytes.length)
      this.#bytes = grown(this.#bytes, Math.max(this.#bytes.length * 2, at + n));
    this.#bytes.set(bytes.subarray(from, to), at);
    this.#from[id + 1] = at + n;
    this.#hash[id] = hashOf(bytes, from, to);
    this.#size++;
    if (this.#size * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
    else this.#place(id);
    return id;
  }

  /** Every word's bytes, one after another (replaced as it grows: read it again after an `add`). */
  get held(): Uint8Array {
    return this.#bytes;
  }

  /** Where each word's bytes start in {@link held}: word `id` is `held[starts[id], starts[id + 1])`. */
  get starts(): Int32Array {
    return this.#from;
  }

  /** The id of a word given as a string, or -1. */
  idOfString(word: string): number {
    const b = this.#encode(word);
    return this.idOf(b, 0, b.length);
  }

  /** Adds a word given as a string (not held yet). */
  addString(word: string): number {
    const b = this.#encode(word);
    return this.add(b, 0, b.length);
  }

  #encode(word: string): Uint8Array {
    const n = Buffer.byteLength(word, 'utf8');
    const b = n <= this.#scratch.length ? this.#scratch : Buffer.alloc(n);
    b.write(word, 0, 'utf8');
    return b.subarray(0, n);
  }

  #equals(id: number, bytes: Uint8Array, from: number, to: number): boolean {
    const at = this.#from[id];
    if (this.#from[id + 1] - at !== to - from) return false;
    const held = this.#bytes;
    for (let i = from, j = at; i < to; i++, j++) if (held[j] !== bytes[i]) return false;
    return true;
  }

  #place(id: number): void {
    const mask = this.#table.length - 1;
    let i = this.#hash[id] & mask;
    while (this.#table[i] !== 0) i = (i + 1) & mask;
    this.#table[i] = id + 1;
  }

  #rehash(slots: number): void {
    this.#table = new Int32Array(slots);
    for (let id = 0; id < this.#size; id++) this.#place(id);
  }
}

function grown<T extends Uint8Array | Int32Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}
