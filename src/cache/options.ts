// What a response cache is built with, and what its loads carry (src/cache/response-cache.ts).
import type { CacheEntry, CachePolicy } from './entry.ts';
import type { CacheLogger, RedisLink } from './redis.ts';

export interface ResponseCacheOptions {
  policy: CachePolicy;
  /** Bytes the in-process tier may hold (bodies + headers). Default 64 MiB. */
  maxBytes?: number;
  redis?: RedisLink;
  /** Prefix of every Redis key and of the invalidation stream (tests use one per run). Default `cg:`. */
  prefix?: string;
  log?: CacheLogger;
  now?: () => number;
  /** A shared cache in front (src/cdn/purger.ts): told of this instance's own invalidations only. */
  purger?: { purge(tags: readonly string[] | null): void };
  /**
   * After a soft invalidation, how long (ms) anonymous readers may still get the previous answer of a dropped key
   * while one refill runs; past it, up to SOFT_BOUND_MS (10 s), while that refill is still running or waits for one
   * of the SOFT_REFILLS slots (src/cache/soft-marks.ts); then they wait for it. 0 (the default): every invalidation
   * drops at once.
   */
  softStaleMs?: number;
}

/** What a loader produced: the entry, and whether it may be shared (a 200 for an anonymous caller). */
export interface Loaded {
  entry: CacheEntry;
  store: boolean;
}

/** What lru-cache's fetch carries for one load of ResponseCache (src/cache/response-cache.ts). */
export interface FetchContext {
  load: () => Promise<Loaded>;
  /** Invalidation sequence number when the load started: a load that raced an invalidation is not stored. */
  seq: number;
  /** When it started: a load that raced only soft invalidations is kept as a previous answer since then. */
  at: number;
  result?: Loaded;
  /** The load was shareable but not stored (it raced an invalidation, or its tags are held): no cache may keep it. */
  unstored?: boolean;
  /**
   * This caller's own load, once started: when lru-cache gives the fetch up under it (a delete or a clear of the key
   * while it runs, e.g. the whole-L1 drop after an invalidation stream gap), the caller waits for it instead of
   * loading a second time (which would run the request's stages twice: a 500).
   */
  running?: Promise<Loaded>;
}
