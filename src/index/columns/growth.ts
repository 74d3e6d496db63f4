// Typed columns moved into bigger ones a slice at a time, while the old ones stay in use.
//
// Copying a million rows' columns in one go held the main thread for 200–250 ms (13 row columns, the text's and
// slugs' offsets, the values). A growth instead allocates the new columns, then copies PACE entries for each one
// written meanwhile, a slice at a time: it starts while the old columns still have room for an eighth of what they
// hold (see {@link growthDue}), so the copy has caught up with the writes before that room runs out.
// The entries written meanwhile go to the old columns and are copied with the rest; an entry that changes after it
// is written (a row's ALIVE bit) is written to both by its owner once copied. Large new columns are allocated one a
// slice before the copy begins (see ALLOCATE_AT_ONCE).

export type Column =
  | Float64Array<ArrayBuffer>
  | Int32Array<ArrayBuffer>
  | Uint32Array<ArrayBuffer>
  | Uint16Array<ArrayBuffer>;

/** Columns this short are grown at once: copying them is well under a millisecond. */
export const AT_ONCE = 1 << 15;
/** Entries copied for each one written while a growth is under way. */
const PACE = 16;
/** Entries copied at most in one slice (8192 rows of ~90 bytes: ~0.1 ms). */
export const SLICE = 1 << 13;

/**
 * Whether columns holding `used` of `cap` entries should start growing: when they are full, or, once they are
 * large, when fewer than an eighth of `used` are free. A growth started then copies `used` entries and those
 * written meanwhile at PACE per write, done within `used / (PACE - 1)` writes (plus a slice): before the free
 * eighth is used up.
 */
export const growthDue = (used: number, cap: number, atOnce = AT_ONCE): boolean =>
  used >= cap || (used >= atOnce && cap - used <= used >> 3);

/**
 * New columns of more entries than this are allocated one at a time, each in a slice of its own, not all at once: at
 * 1M rows a growth's 17 columns are 126–250 MB, and allocating them in one task (plus the full collection V8 makes
 * when outside memory jumps by that much) held the main thread for 50–200 ms.
 */
export const ALLOCATE_AT_ONCE = 1 << 17;

type ColumnOf = {
  new (buffer: ArrayBuffer, offset: number, length: number): Column;
  readonly BYTES_PER_ELEMENT: number;
};

/**
 * A column of `n` entries on memory that is not zeroed (`Buffer.allocUnsafeSlow`: malloc, not calloc). Zeroing a
 * 16 MB column at once was the longest step of a growth at 1M rows: up to 7 ms where malloc hands back memory it had
 * freed, and 32–63 ms on a virtual machine that gives freed pages back to its host, each one faulted in again inside
 * the zeroing. Not zeroed, the pages are faulted in as the copy's slices write them. Nothing reads an entry before it
 * is written: the copy writes every entry the old columns hold, and a new row writes every column (rows.ts `add`,
 * `copy`, `addBytes`); entries past the rows in use are never read (tests fill this memory with junk to show it).
 */
function unzeroed(Kind: ColumnOf, n: number): Column {
  return new Kind(Buffer.allocUnsafeSlow(n * Kind.BYTES_PER_ELEMENT).buffer as ArrayBuffer, 0, n);
}

export class Growth {
  readonly cap: number;
  /** The new columns, in the order of the old ones given (allocated so far: see {@link allocate}). */
  readonly to: Column[] = [];
  /** Entries copied so far (from 0). */
  copied = 0;
  #credit = 0;
  readonly #slice: number;
  readonly #kinds: ColumnOf[];

  /** `slice`: tests make it small, to have growths under way with some entries copied. */
  constructor(from: readonly Column[], cap: number, slice = SLICE, allocateAtOnce = ALLOCATE_AT_ONCE) {
    this.cap = cap;
    this.#slice = slice;
    this.#kinds = from.map((a) => a.constructor as unknown as ColumnOf);
    if (cap <= allocateAtOnce) this.allocate(this.#kinds.length);
  }

  /** Whether every new column is allocated. */
  get allocated(): boolean {
    return this.to.length === this.#kinds.length;
  }

  /** Allocates up to `n` more of the new columns; whether all are allocated. */
  allocate(n = 1): boolean {
    for (let i = 0; i < n && !this.allocated; i++)
      this.to.push(unzeroed(this.#kinds[this.to.length], this.cap));
    return this.allocated;
  }

  /**
   * Counts `n` entries written to the old columns (which now hold `used`); whether a slice is due (a full one, or
   * what completes the copy).
   */
  due(n: number, used: number): boolean {
    this.#credit += PACE * n;
    return this.#credit >= Math.min(this.#slice, used - this.copied);
  }

  /**
   * Copies the slice due of the first `used` entries of `from` (all of them if `all`); whether all are copied. While
   * columns are left to allocate, a slice due allocates the next one instead (and `all` allocates the rest).
   */
  copy(from: readonly Column[], used: number, all = false): boolean {
    if (!this.allocated) {
      if (!all) {
        // A quarter of a slice's credit: the 17 columns of the rows are allocated within 17 × SLICE / 4 / PACE writes
        // (2 176), well within the free eighth of a growth large enough to allocate them one by one.
        this.allocate(1);
        this.#credit = Math.max(0, this.#credit - (this.#slice >> 2));
        return false;
      }
      this.allocate(this.#kinds.length);
    }
    const end = all ? used : Math.min(used, this.copied + this.#credit);
    for (let i = 0; i < from.length; i++)
      this.to[i].set(from[i].subarray(this.copied, end) as never, this.copied);
    this.#credit = Math.max(0, this.#credit - (end - this.copied));
    this.copied = end;
    return end === used;
  }
}
