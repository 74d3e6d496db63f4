// A map of integer ids split over 64 smaller maps by the id's low bits. A JavaScript Map grows by rehashing every entry
// in one go as it crosses a power of two: at 65 536 entries of a 100k-event site's first start that was one task of
// 16–20 ms in the middle of the change log's seed, whichever turn of the event loop the crossing fell in. Split in 64,
// each rehash moves a sixty-fourth of the entries, and `fill` fills one shard after another: filled in id order, the
// 64 shards would grow alike and all cross the same power of two in the same turn (measured: as long as one Map).
import { nextSlice as nextTurn } from '../pace/turns.ts';

const SHARDS = 64;

export class ShardedMap<V> {
  readonly #shards: Array<Map<number, V>> = Array.from({ length: SHARDS }, () => new Map());

  #of(id: number): Map<number, V> {
    return this.#shards[id & (SHARDS - 1)]!;
  }

  get(id: number): V | undefined {
    return this.#of(id).get(id);
  }

  has(id: number): boolean {
    return this.#of(id).has(id);
  }

  set(id: number, value: V): this {
    this.#of(id).set(id, value);
    return this;
  }

  /**
   * Sets many, a shard at a time, with a turn of the event loop every `slice` entries; `keep`: an id already held keeps
   * its value.
   */
  async fill(entries: ReadonlyArray<readonly [number, V]>, slice: number, keep = false): Promise<void> {
    const byShard: Array<Array<readonly [number, V]>> = Array.from({ length: SHARDS }, () => []);
    for (let i = 0; i < entries.length; i++) {
      if (i > 0 && i % (slice * 4) === 0) await nextTurn();
      const e = entries[i]!;
      byShard[e[0] & (SHARDS - 1)]!.push(e);
    }
    let n = 0;
    for (const [k, list] of byShard.entries()) {
      const shard = this.#shards[k]!;
      for (const [id, value] of list) {
        if (++n % slice === 0) await nextTurn();
        if (!keep || !shard.has(id)) shard.set(id, value);
      }
    }
  }

  get size(): number {
    let n = 0;
    for (const s of this.#shards) n += s.size;
    return n;
  }

  /** Every id, shard by shard (not in insertion order). */
  *keys(): IterableIterator<number> {
    for (const s of this.#shards) yield* s.keys();
  }

  /** Every value, shard by shard (not in insertion order). */
  *values(): IterableIterator<V> {
    for (const s of this.#shards) yield* s.values();
  }
}
