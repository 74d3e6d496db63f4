// Post ids to numbers in two typed arrays (open addressing, linear probing): what a Map<number, number> does for the
// event index's per-event lookups, without a garbage-collected table of a million entries, and with `reserve` to
// size it once when the count is known (a Map rehashes itself in one task each time it doubles: at 500k entries,
// three such maps growing together held the event loop for a third of a second while a snapshot loaded).

/** Keys are WordPress post ids: integers from 1 to 2^31 − 1. 0 marks an empty slot. */
const EMPTY = 0;
/** A slot of the table being emptied into a bigger one (see `IdTable.#resize`) whose key has left it. */
const GONE = -1;
const isKey = (key: number): boolean => Number.isInteger(key) && key > 0 && key <= 0x7fffffff;

/** Tables this small are resized at once: moving their keys is well under a millisecond. */
const AT_ONCE = 1 << 15;
/** Slots of the old table moved for each set while a resize is under way. */
const PACE = 8;

const slotOf = (key: number, bits: number): number => Math.imul(key, 0x9e3779b1) >>> (32 - bits);

/** The slot of `key` in `keys` (of `2^bits` slots), or -1. */
function find(keys: Int32Array, bits: number, key: number): number {
  const mask = keys.length - 1;
  for (let i = slotOf(key, bits); ; i = (i + 1) & mask) {
    const k = keys[i];
    if (k === key) return i;
    if (k === EMPTY) return -1;
  }
}

/**
 * What an IdTable's values are kept in: 32-bit integers (rows, post ids, flags: half the bytes, and half to allocate
 * when it grows) or any number (a sequence that may pass 2^31 in a long-lived process).
 */
type Values = Int32Array | Float64Array;
type ValuesOf = new (n: number) => Values;

/** A table being emptied into a bigger one, moved from slot `at` on. */
interface OldTable {
  keys: Int32Array;
  values: Values;
  bits: number;
  at: number;
}

export class IdTable {
  #keys: Int32Array;
  #values: Values;
  readonly #Values: ValuesOf;
  /** Whether values are 32-bit integers (checked as they are set). */
  readonly #int: boolean;
  #bits: number;
  /** Entries in both tables while a resize is under way. */
  #size = 0;
  /**
   * The smaller table being moved into this one, PACE slots a set, from `at` on: rehashing a million entries in
   * one go held the main thread for tens of ms. Each key is in one table only: a set or a move takes it out of
   * the old one, leaving GONE so that probing the old one still finds the keys past it.
   */
  #old: OldTable | null = null;
  /** Bits asked for by `reserve` while a resize was under way. */
  #want = 0;
  readonly #atOnce: number;

  /**
   * `values`: `Int32Array` where every value is a 32-bit integer (checked by `set`). `atOnce`: tests make it small,
   * to resize a slice at a time at any size.
   */
  constructor(capacity = 0, values: ValuesOf = Float64Array, atOnce = AT_ONCE) {
    this.#Values = values;
    this.#int = values === Int32Array;
    this.#bits = bitsFor(capacity);
    this.#keys = new Int32Array(1 << this.#bits);
    this.#values = new values(1 << this.#bits);
    this.#atOnce = atOnce;
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes its tables hold (the one being emptied too). */
  get bytes(): number {
    const o = this.#old;
    return (
      this.#keys.byteLength + this.#values.byteLength + (o ? o.keys.byteLength + o.values.byteLength : 0)
    );
  }

  get(key: number): number | undefined {
    const i = this.#find(key);
    if (i >= 0) return this.#values[i];
    const o = this.#old;
    if (!o || !isKey(key)) return undefined;
    const j = find(o.keys, o.bits, key);
    return j < 0 ? undefined : o.values[j];
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  set(key: number, value: number): void {
    if (!isKey(key)) throw new RangeError(`not a post id: ${key}`);
    if (this.#int && (value | 0) !== value) throw new RangeError(`not a 32-bit integer: ${value}`);
    if (this.#old) this.#move(PACE);
    else if ((this.#size + 1) * 2 > this.#keys.length) this.#resize(this.#bits + 1);
    // Looked for in the old table after the move or resize: either can have just made the key's table the old one
    // (a move that ends a resize starts the one `reserve` asked for). Left there, the key would be in both tables,
    // and moving it later would put its old value back over the new one.
    const o = this.#old;
    if (o) {
      const j = find(o.keys, o.bits, key);
      if (j >= 0) {
        o.keys[j] = GONE;
        this.#size--;
      }
    }
    this.#put(key, value);
  }

  delete(key: number): boolean {
    let i = this.#find(key);
    if (i < 0) {
      const o = this.#old;
      const j = o ? find(o.keys, o.bits, key) : -1;
      if (!o || j < 0) return false;
      o.keys[j] = GONE;
      this.#size--;
      return true;
    }
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
    this.#old = null;
    this.#want = 0;
    this.#size = 0;
  }

  /**
   * Makes room for `count` entries in all, so that filling it up to there moves nothing (once a resize it starts,
   * or one under way, is over).
   */
  reserve(count: number): void {
    const bits = bitsFor(count);
    if (this.#old) this.#want = Math.max(this.#want, bits);
    else if (bits > this.#bits) this.#resize(bits);
  }

  *keys(): Generator<number> {
    for (const keys of this.#old ? [this.#keys, this.#old.keys] : [this.#keys])
      for (let i = 0; i < keys.length; i++) if (keys[i] > 0) yield keys[i];
  }

  #slot(key: number): number {
    return slotOf(key, this.#bits);
  }

  #find(key: number): number {
    return isKey(key) ? find(this.#keys, this.#bits, key) : -1;
  }

  /** Sets `key` (in no old table) in this one. */
  #put(key: number, value: number): void {
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

  /**
   * Starts moving the entries into a table of `2^bits` slots: at once when small, else PACE old slots a set, done
   * before the new table is half full (the old one's half of its slots are moved by then: at a load of one half
   * when it starts, the new table gets a quarter of its slots from the old one and a quarter from new sets).
   */
  #resize(bits: number): void {
    this.#old = { keys: this.#keys, values: this.#values, bits: this.#bits, at: 0 };
    this.#bits = bits;
    this.#keys = new Int32Array(1 << bits);
    this.#values = new this.#Values(1 << bits);
    if (this.#old.keys.length <= this.#atOnce) this.#move(this.#old.keys.length);
  }

  /** Moves `n` more slots of the old table into this one. */
  #move(n: number): void {
    const o = this.#old as OldTable;
    const end = Math.min(o.keys.length, o.at + n);
    for (; o.at < end; o.at++) {
      const k = o.keys[o.at];
      if (k <= 0) continue;
      o.keys[o.at] = GONE;
      this.#size--;
      this.#put(k, o.values[o.at]);
    }
    if (o.at < o.keys.length) return;
    this.#old = null;
    if (this.#want > this.#bits) this.#resize(this.#want);
  }
}

/** A set of post ids (each set to 1): 32-bit values. */
export const idSet = (): IdTable => new IdTable(0, Int32Array);

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
  readonly #byHash = new IdTable(0, Int32Array);
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

  get bytes(): number {
    return this.#byHash.bytes;
  }

  clear(): void {
    this.#byHash.clear();
    this.#overflow.clear();
  }
}
