// Builds the change log from the configuration: in Redis when configured (shared, durable), else in memory.
import { Cluster } from 'ioredis';
import type { RedisClient, RedisLink } from '../cache/redis.ts';
import type { Mapping } from '../mapping/schema.ts';
import { MemoryChangeLog } from './memory-log.ts';
import { RedisChangeLog } from './redis-log.ts';
import type { ChangeStore } from './store.ts';

export function createChangeLog(
  opts: { retentionDays: number; prefix: string; apiRoot: string; mapping: Mapping },
  link?: RedisLink,
): ChangeStore {
  const ctx = {
    apiRoot: opts.apiRoot,
    taxonomy: {
      category: opts.mapping.event.categories?.taxonomy ?? 'category',
      tag: opts.mapping.event.tags?.taxonomy ?? 'post_tag',
    },
    retentionMs: Math.round(opts.retentionDays * 86_400_000),
  };
  // The follower blocks on XREAD: a connection of its own, with the invalidation reader's options (no command timeout).
  const reader = (): RedisClient => {
    const r = link!.reader;
    const c: RedisClient = r instanceof Cluster ? r.duplicate() : r.duplicate();
    // Its errors are the outage the link already logs; the follower retries.
    c.on('error', () => {});
    return c;
  };
  return link ? new RedisChangeLog(link.cmd, reader, opts.prefix, ctx) : new MemoryChangeLog(ctx);
}
