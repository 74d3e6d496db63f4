// Typed columns moved into bigger ones a slice at a time, while the old ones stay in use.
//
// Copying a million rows' columns in one go held the main thread for 200–250 ms (13 row columns, the text's and
// slugs' offsets, the values). A growth instead allocates the new columns, then copies PACE entries for each one
// written meanwhile, a slice at a time: it starts while the old columns still have room for an eighth of what they
// hold (see {@link growthDue}), so the copy has caught up with the writes before that room runs out.
// The entries written meanwhile go to the old columns and are copied with the rest; an entry that changes after it
// is written (a row's ALIVE bit) is written to both by its owner once copied.

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

export class Growth {
  readonly cap: number;
  /** The new columns, in the order of the old ones given. */
  readonly to: Column[];
  /** Entries copied so far (from 0). */
  copied = 0;
  #credit = 0;
  readonly #slice: number;

  /** `slice`: tests make it small, to have growths under way with some entries copied. */
  constructor(from: readonly Column[], cap: number, slice = SLICE) {
    this.cap = cap;
    this.#slice = slice;
    this.to = from.map((a) => new (a.constructor as new (n: number) => Column)(cap));
  }

  /**
   * Counts `n` entries written to the old columns (which now hold `used`); whether a slice is due (a full one, or
   * what completes the copy).
   */
  due(n: number, used: number): boolean {
    this.#credit += PACE * n;
    return this.#credit >= Math.min(this.#slice, used - this.copied);
  }

  /** Copies the slice due of the first `used` entries of `from` (all of them if `all`); whether all are copied. */
  copy(from: readonly Column[], used: number, all = false): boolean {
    const end = all ? used : Math.min(used, this.copied + this.#credit);
    for (let i = 0; i < from.length; i++)
      this.to[i].set(from[i].subarray(this.copied, end) as never, this.copied);
    this.#credit = Math.max(0, this.#credit - (end - this.copied));
    this.copied = end;
    return end === used;
  }
}
