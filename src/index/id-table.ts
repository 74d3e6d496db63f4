// Post ids to numbers in two typed arrays (open addressing, linear probing): what a Map<number, number> does for the
// event index's per-event lookups, without a garbage-collected table of a million entries, and with `reserve` to
// size it once when the count is known (a Map rehashes itself in one task each time it doubles: at 500k entries,
// three such maps growing together held the event loop for a third of a second while a snapshot loaded).

/** Keys are WordPress post ids: integers from 1 to 2^31 − 1. 0 marks an empty slot. */
const EMPTY = 0;
const isKey = (key: number): boolean => Number.isInteger(key) && key > 0 && key <= 0x7fffffff;

export class IdTable {
  #keys: Int32Array;
  #values: Float64Array;
  #bits: number;
  #size = 0;

  constructor(capacity = 0) {
    this.#bits = bitsFor(capacity);
    this.#keys = new Int32Array(1 << this.#bits);
    this.#values = new Float64Array(1 << this.#bits);
  }

  get size(): number {
    return this.#size;
  }

  get(key: number): number | undefined {
    const i = this.#find(key);
    return i < 0 ? undefined : this.#values[i];
  }

  has(key: number): boolean {
    return this.#find(key) >= 0;
  }

  set(key: number, value: number): void {
    if (!isKey(key)) throw new RangeError(`not a post id: ${key}`);
    if ((this.#size + 1) * 2 > this.#keys.length) this.#resize(this.#bits + 1);
    const mask = this.#keys.length - 1;
    for (let i = this.#slot(key); ; i = (i + 1) & mask) {
      const k = this.#keys[i];
      if (k === EMPTY) {
        this.#keys[i] = key;
        this.#values[i] = value;
        this.#size++;
        return;
      }
      if (k === key) {
        this.#values[i] = value;
        return;
      }
    }
  }

  delete(key: number): boolean {
    let i = this.#find(key);
    if (i < 0) return false;
    // Backward-shift deletion: move later entries of the run into the hole when their home slot allows it.
    const mask = this.#keys.length - 1;
    for (let j = (i + 1) & mask; this.#keys[j] !== EMPTY; j = (j + 1) & mask) {
      const home = this.#slot(this.#keys[j]);
      // The entry at j may move to i when i lies cyclically within [home, j).
      if (((i - home) & mask) < ((j - home) & mask)) {
        this.#keys[i] = this.#keys[j];
        this.#values[i] = this.#values[j];
        i = j;
      }
    }
    this.#keys[i] = EMPTY;
    this.#size--;
    return true;
  }

  clear(): void {
    this.#keys.fill(EMPTY);
    this.#size = 0;
  }

  /** Makes room for `count` entries in all, so that filling it up to there moves nothing. */
  reserve(count: number): void {
    const bits = bitsFor(count);
    if (bits > this.#bits) this.#resize(bits);
  }

  *keys(): Generator<number> {
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== EMPTY) yield keys[i];
  }

  #slot(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> (32 - this.#bits);
  }

  #find(key: number): number {
    if (!isKey(key)) return -1;
    const mask = this.#keys.length - 1;
    for (let i = this.#slot(key); ; i = (i + 1) & mask) {
      const k = this.#keys[i];
      if (k === key) return i;
      if (k === EMPTY) return -1;
    }
  }

  #resize(bits: number): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#bits = bits;
    this.#keys = new Int32Array(1 << bits);
    this.#values = new Float64Array(1 << bits);
    this.#size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== EMPTY) this.set(keys[i], values[i]);
  }
}

/** Table bits for `count` entries at a load of at most one half (at least 16 slots). */
function bitsFor(count: number): number {
  let bits = 4;
  while (1 << bits < count * 2) bits++;
  return bits;
}

/** A slug's 31-bit FNV-1a hash over its UTF-16 code units, never 0 (an IdTable key). */
export function slugHash(slug: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < slug.length; i++) h = Math.imul(h ^ slug.charCodeAt(i), 0x01000193);
  return h & 0x7fffffff || 1;
}

/**
 * Slugs to post ids, as a Map<string, number> would (the last id set for a slug wins), in an IdTable keyed by the
 * slug's hash; the holder's `slugOf` confirms a hit. Slugs whose hash another slug already holds (rare) go to a
 * small Map.
 */
export class SlugTable {
  readonly #byHash = new IdTable();
  readonly #overflow = new Map<string, number>();
  readonly #slugOf: (id: number) => string | undefined;

  constructor(slugOf: (id: number) => string | undefined) {
    this.#slugOf = slugOf;
  }

  get(slug: string): number | undefined {
    const id = this.#byHash.get(slugHash(slug));
    if (id !== undefined && this.#slugOf(id) === slug) return id;
    return this.#overflow.get(slug);
  }

  /** Maps `slug` to `id` (whose slug, by `slugOf`, is `slug` from now on). */
  set(slug: string, id: number): void {
    const h = slugHash(slug);
    const held = this.#byHash.get(h);
    if (held === undefined || held === id || this.#slugOf(held) === slug) {
      this.#byHash.set(h, id);
      this.#overflow.delete(slug);
    } else this.#overflow.set(slug, id);
  }

  /** Unmaps `slug` if it maps to `id` (call while `slugOf(id)` still gives `slug`). */
  delete(slug: string, id: number): void {
    const h = slugHash(slug);
    if (this.#byHash.get(h) === id && this.#slugOf(id) === slug) {
      this.#byHash.delete(h);
      // A slug that overflowed on this hash takes the freed place.
      for (const [s, other] of this.#overflow) {
        if (slugHash(s) !== h) continue;
        this.#overflow.delete(s);
        this.#byHash.set(h, other);
        break;
      }
    } else if (this.#overflow.get(slug) === id) this.#overflow.delete(slug);
  }

  reserve(count: number): void {
    this.#byHash.reserve(count);
  }

  clear(): void {
    this.#byHash.clear();
    this.#overflow.clear();
  }
}
