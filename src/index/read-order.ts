// Which of two reads of a post with the same stamp is the newer. WordPress saves a post's row, then its terms and
// meta, in separate statements, and keeps the stamp the row got: a read between them (a poll, a re-read, a crawl)
// holds the save half done. Reads of WordPress and writes through the gateway take ticks of one clock as they begin;
// a read begun before the one the index's copy came from does not replace that copy at the same stamp (it would put
// an event back without its dates, or with its old ones, over a write's answer until the next poll), and one begun
// after it does (a re-read that mends what a poll read half done).
import { msOfUtcWall } from '../dates/utc-wall.ts';

/**
 * How old a copy's stamp may be for its tick to be kept (ms): longer than any read of WordPress lasts (its calls
 * time out well within it). An older stamp's save is long over, and no read still out can hold it half done.
 */
const KEPT_MS = 120_000;
/** Posts whose copy's tick is kept at most (a bulk import's: past it, the guard starts over). */
const KEPT = 10_000;

export class ReadOrder {
  #tick = 0;
  /** Post id → the tick of the read its copy came from, for copies stamped in the last KEPT_MS. */
  readonly #at = new Map<number, number>();

  /** A read of WordPress begins (a write's answer is a read begun when it arrives): its tick. */
  begin(): number {
    return ++this.#tick;
  }

  /** Whether a read begun at `tick` of post `id` stamped `stamp` is older than the copy held, stamped `held`. */
  older(id: number, stamp: string, held: string, tick: number): boolean {
    return stamp === held && (this.#at.get(id) ?? 0) > tick;
  }

  /** The copy of `id` now held came from the read begun at `tick` (default: one begun now, a write's answer). */
  took(id: number, stamp: string, tick = this.begin(), nowMs = Date.now()): void {
    if (!(nowMs - msOfUtcWall(stamp) < KEPT_MS)) {
      this.#at.delete(id);
      return;
    }
    if (this.#at.size >= KEPT) this.#at.clear();
    this.#at.set(id, tick);
  }
}
