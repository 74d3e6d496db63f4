// Cache entries: an answer's bytes and ETag (computed once, src/http/answer.ts) with when they were filled and the
// tags that drop them; and the Cache-Control a shared entry goes out with.
import { type TagHeader, tagHeadersOf } from '../cdn/headers.ts';
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
  /** A shared cache in front (src/cdn/): the tag headers it reads, and how long it may keep an answer. */
  cdn?: CdnPolicy;
}

export interface CdnPolicy {
  /** Headers that carry an answer's tags (Surrogate-Key, Cache-Tag, xkey). */
  tagHeaders: readonly TagHeader[];
  /** `s-maxage`: only when a purger drops the shared cache's copies, else the shared cache keeps `max-age`. */
  sMaxAgeSeconds?: number;
}

/** Each policy's Cache-Control, made once: every cached hit sends it. */
const cacheControls = new WeakMap<CachePolicy, string>();

/** The policy asked for last and its Cache-Control: a gateway has one policy, so a hit skips the WeakMap. */
let last: { policy: CachePolicy; made: string } | undefined;

/** `Cache-Control` of a shared (anonymous) response. */
export const publicCacheControl = (p: CachePolicy): string => {
  if (last?.policy === p) return last.made;
  let made = cacheControls.get(p);
  if (made === undefined) {
    const s = p.cdn?.sMaxAgeSeconds;
    made = `public, max-age=${p.ttlSeconds}${s === undefined ? '' : `, s-maxage=${s}`}, stale-while-revalidate=${p.staleWhileRevalidateSeconds}, stale-if-error=${p.staleIfErrorSeconds}`;
    cacheControls.set(p, made);
  }
  last = { policy: p, made };
  return made;
};

/** Tag headers per entry, made the first time the entry goes out (entries never change). */
const tagHeaderCache = new WeakMap<CacheEntry, Record<string, string>>();

function tagHeaders(entry: CacheEntry, cdn: CdnPolicy | undefined): Record<string, string> | undefined {
  if (!cdn || cdn.tagHeaders.length === 0) return undefined;
  let h = tagHeaderCache.get(entry);
  if (!h) {
    h = tagHeadersOf(entry.tags, cdn.tagHeaders);
    tagHeaderCache.set(entry, h);
  }
  return h;
}

/** Seconds since the entry was filled, for the `Age` header (downstream caches count max-age from it). */
export const ageOf = (entry: CacheEntry, now: number): number =>
  Math.max(0, Math.floor((now - entry.storedAt) / 1000));

/** How a shared entry goes out: the policy's Cache-Control, its age now and its tags for a shared cache. */
export const sharedOf = (entry: CacheEntry, policy: CachePolicy, now = Date.now()) => ({
  cacheControl: publicCacheControl(policy),
  age: ageOf(entry, now),
  tags: tagHeaders(entry, policy.cdn),
});
