// Cache entries (bytes + strong ETag, computed once) and the HTTP rules around them: ETag match, Cache-Control.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

export interface CacheEntry {
  /** The serialised response body, exactly the bytes sent. */
  body: Buffer;
  /** Strong validator over `body`, quoted (`"…"`). */
  etag: string;
  status: number;
  /** Response headers to replay (pagination totals, links…), lower-case names. */
  headers: Record<string, string>;
  /** Epoch ms when the entry was filled from the upstream. */
  storedAt: number;
  /** Invalidation tags (`list:event`, `event:12`, …). */
  tags: string[];
}

/** Strong ETag: a digest of the exact bytes, so equal bytes always validate, across instances too. */
export const strongEtag = (body: Buffer): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

export function makeEntry(
  body: Buffer | string,
  opts: { status?: number; headers?: Record<string, string>; tags?: string[]; now?: number } = {},
): CacheEntry {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
  return {
    body: bytes,
    etag: strongEtag(bytes),
    status: opts.status ?? 200,
    headers,
    storedAt: opts.now ?? Date.now(),
    tags: [...new Set(opts.tags ?? [])],
  };
}

/**
 * Whether `If-None-Match` matches. RFC 9110 §13.1.2: If-None-Match uses the weak comparison, so `W/"x"` matches
 * `"x"`; `*` matches any current representation.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const header = ifNoneMatch.trim();
  if (header === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const part of header.split(',')) {
    if (part.trim().replace(/^W\//, '') === opaque) return true;
  }
  return false;
}

/**
 * RFC 9110 §15.4.5 (304 Not Modified): "The server generating a 304 response MUST generate any of the following
 * header fields that would have been sent in a 200 (OK) response to the same request: Content-Location, Date,
 * ETag, and Vary; Cache-Control and Expires (see [CACHING])." Other representation metadata (Content-Type,
 * pagination totals) is left out: "a sender SHOULD NOT generate representation metadata other than the above
 * listed fields unless said metadata exists for the purpose of guiding cache updates".
 */
export const NOT_MODIFIED_HEADERS = [
  'cache-control',
  'content-location',
  'date',
  'etag',
  'expires',
  'vary',
] as const;

export interface CachePolicy {
  ttlSeconds: number;
  staleWhileRevalidateSeconds: number;
  staleIfErrorSeconds: number;
}

/** `Cache-Control` of a shared (anonymous) response. */
export const publicCacheControl = (p: CachePolicy): string =>
  `public, max-age=${p.ttlSeconds}, stale-while-revalidate=${p.staleWhileRevalidateSeconds}, stale-if-error=${p.staleIfErrorSeconds}`;

/** `Cache-Control` of anything answered for a signed-in caller: never stored by any shared cache. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * `Vary` of a cacheable response: the body depends on who asks (Authorization, Cookie), is sent gzipped to those
 * who accept it (Accept-Encoding), and echoes the caller's Origin in its CORS headers (src/http/cors.ts).
 */
export const VARY = 'Authorization, Cookie, Accept-Encoding, Origin';

/** Seconds since the entry was filled, for the `Age` header (downstream caches count max-age from it). */
export const ageOf = (entry: CacheEntry, now: number): number =>
  Math.max(0, Math.floor((now - entry.storedAt) / 1000));

/** Bodies below this size are sent as they are: gzip's framing would eat most of the gain. */
const GZIP_MIN_BYTES = 1024;
/** An entry's gzipped body and its ETag, made on first demand and kept as long as the entry (null: not worth it). */
const gzipped = new WeakMap<CacheEntry, { body: Buffer; etag: string } | null>();

/**
 * The gzip representation of an entry, compressed once per entry and process, so a hit costs no compression. It has
 * its own strong ETag: RFC 9110 §8.8.3 ties a strong validator to one representation, content coding included.
 */
export function gzipOf(entry: CacheEntry): { body: Buffer; etag: string } | null {
  let gz = gzipped.get(entry);
  if (gz === undefined) {
    const body = entry.body.length >= GZIP_MIN_BYTES ? gzipSync(entry.body) : undefined;
    gz = body && body.length < entry.body.length ? { body, etag: `${entry.etag.slice(0, -1)}-gz"` } : null;
    gzipped.set(entry, gz);
  }
  return gz;
}

/** Whether `Accept-Encoding` accepts gzip (RFC 9110 §12.5.3: a listed `gzip` or `*`, with a non-zero weight). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (coding.trim() === 'gzip') return weight > 0;
    if (coding.trim() === '*') star = weight > 0;
  }
  return star;
}
