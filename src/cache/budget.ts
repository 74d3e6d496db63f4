// The in-process tier's byte budget over what its entries keep beside their bodies: gzip copies, shaped forms.
import type { LRUCache } from 'lru-cache';
import { countBeside, uncount } from '../http/beside.ts';
import type { CacheEntry } from './entry.ts';

interface Counted {
  entry: CacheEntry;
  bytes: number;
  count: (delta: number) => void;
}

/**
 * lru-cache bounds the bodies it holds (their size is known when they are stored). A stored answer's gzip is made on
 * its first demand, off the event loop, and its `_fields`/`_envelope`/`_jsonp` forms (src/stages/shape.ts) when asked
 * for; they live as long as the entry does. This counts them as they come and evicts the least recently used
 * entries until bodies and all they keep fit the budget together, so `CACHE_MAX_MB` bounds what the cache holds.
 */
export class BesideBudget {
  readonly #l1: LRUCache<string, CacheEntry, unknown>;
  readonly #max: number;
  readonly #counted = new Map<string, Counted>();
  #bytes = 0;

  constructor(l1: LRUCache<string, CacheEntry, unknown>, maxBytes: number) {
    this.#l1 = l1;
    this.#max = maxBytes;
  }

  /** Bytes kept beside the bodies of the entries held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** `entry` went into L1 under `key` (lru-cache's `onInsert`). */
  inserted(key: string, entry: CacheEntry): void {
    if (this.#counted.get(key)?.entry === entry) return;
    this.#forget(key);
    const c: Counted = { entry, bytes: 0, count: (delta) => this.#add(key, c, delta) };
    this.#counted.set(key, c);
    countBeside(entry, c.count);
  }

  /** `entry` left L1, or was replaced under `key` (lru-cache's `dispose`). */
  disposed(key: string, entry: CacheEntry): void {
    if (this.#counted.get(key)?.entry === entry) this.#forget(key);
  }

  #forget(key: string): void {
    const c = this.#counted.get(key);
    if (!c) return;
    this.#counted.delete(key);
    this.#bytes -= c.bytes;
    uncount(c.entry, c.count);
  }

  #add(key: string, c: Counted, delta: number): void {
    if (this.#counted.get(key) !== c) return;
    c.bytes += delta;
    this.#bytes += delta;
    // Never from inside lru-cache's own calls: counts arrive from zlib's callback, a send, or a microtask.
    while (this.#l1.size > 0 && this.#l1.calculatedSize + this.#bytes > this.#max) this.#l1.pop();
  }
}
