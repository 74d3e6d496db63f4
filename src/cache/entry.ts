// Cache entries: an answer's bytes and ETag (computed once, src/http/answer.ts) with when they were filled and the
// tags that drop them; and the Cache-Control a shared entry goes out with.
import { type Answer, answerOf } from '../http/answer.ts';

export interface CacheEntry extends Answer {
  /** Epoch ms when the entry was filled from the upstream. */
  storedAt: number;
  /** Invalidation tags (`list:event`, `event:12`, …). */
  tags: string[];
}

export function makeEntry(
  body: Buffer | string,
  opts: { status?: number; headers?: Record<string, string>; tags?: string[]; now?: number } = {},
): CacheEntry {
  return entryOf(answerOf(body, opts), opts.tags ?? [], opts.now);
}

/** An answer as an entry, filled now with these tags. */
export const entryOf = (answer: Answer, tags: readonly string[], now = Date.now()): CacheEntry => ({
  ...answer,
  storedAt: now,
  tags: [...new Set(tags)],
});

export interface CachePolicy {
  ttlSeconds: number;
  staleWhileRevalidateSeconds: number;
  staleIfErrorSeconds: number;
}

/** `Cache-Control` of a shared (anonymous) response. */
export const publicCacheControl = (p: CachePolicy): string =>
  `public, max-age=${p.ttlSeconds}, stale-while-revalidate=${p.staleWhileRevalidateSeconds}, stale-if-error=${p.staleIfErrorSeconds}`;

/** Seconds since the entry was filled, for the `Age` header (downstream caches count max-age from it). */
export const ageOf = (entry: CacheEntry, now: number): number =>
  Math.max(0, Math.floor((now - entry.storedAt) / 1000));

/** How a shared entry goes out: the policy's Cache-Control and its age now. */
export const sharedOf = (entry: CacheEntry, policy: CachePolicy, now = Date.now()) => ({
  cacheControl: publicCacheControl(policy),
  age: ageOf(entry, now),
});
