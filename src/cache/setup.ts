// Builds the caching layer from the configuration: response cache, Redis link, freshness, index snapshots.

import type { CdnPurger } from '../cdn/purger.ts';
import { cdnPolicyOf, createPurger } from '../cdn/setup.ts';
import type { Config } from '../config.ts';
import { RedisSnapshotStore, type SnapshotStore } from '../index/snapshot.ts';
import type { Logger } from '../log.ts';
import { Freshness } from './freshness.ts';
import { connectRedis, type RedisLink } from './redis.ts';
import { ResponseCache } from './response-cache.ts';

export interface CacheLayer {
  cache?: ResponseCache;
  freshness?: Freshness;
  snapshots?: SnapshotStore;
  /** The Redis link, when configured (idempotency keys share it). */
  redis?: RedisLink;
  /** The CDN purger, when `CDN_PURGE` is set. */
  purger?: CdnPurger;
  /** For the index registry's `onChange`. */
  onIndexChange: (language: string, ids: number[], links: string[], soft: boolean) => void;
  close(): Promise<void>;
}

export function createCacheLayer(config: Config, log: Logger): CacheLayer {
  const link: RedisLink | undefined = config.redisUrl
    ? connectRedis(
        { mode: config.redisMode, url: config.redisUrl, sentinelName: config.redisSentinelName },
        {
          warn: (o, m) => log.warn(o, m),
          info: (o, m) => log.info(o, m),
        },
      )
    : undefined;
  const purger = config.cacheTtlSeconds > 0 ? createPurger(config, log) : undefined;
  const cache =
    config.cacheTtlSeconds > 0
      ? new ResponseCache({
          policy: {
            ttlSeconds: config.cacheTtlSeconds,
            staleWhileRevalidateSeconds: config.cacheStaleWhileRevalidateSeconds,
            staleIfErrorSeconds: config.cacheStaleIfErrorSeconds,
            cdn: cdnPolicyOf(config),
          },
          maxBytes: Math.round(config.cacheMaxMb * 1024 * 1024),
          softStaleMs: config.cacheSoftStaleMs,
          redis: link,
          prefix: config.redisPrefix,
          log,
          purger,
        })
      : undefined;
  const freshness = cache ? new Freshness(cache) : undefined;
  const snapshots = link
    ? new RedisSnapshotStore(link.cmd, {
        prefix: config.redisPrefix,
        up: link.up,
        waitUp: () => link.waitUp(2_000),
      })
    : undefined;
  return {
    redis: link,
    purger,
    cache,
    freshness,
    snapshots,
    onIndexChange: (_language, ids, links, soft) => freshness?.indexChanged(ids, links, soft),
    close: async () => {
      await purger?.flush();
      await link?.close();
    },
  };
}
