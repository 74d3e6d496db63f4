// What a response cache is built with (src/cache/response-cache.ts).
import type { CachePolicy } from './entry.ts';
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
