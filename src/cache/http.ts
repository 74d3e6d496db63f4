// Writes a cache entry as an HTTP response: gzip when accepted, ETag, 304 on If-None-Match, Cache-Control, Vary, Age.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import {
  acceptsGzip,
  ageOf,
  type CacheEntry,
  type CachePolicy,
  etagMatches,
  gzipOf,
  NOT_MODIFIED_HEADERS,
  publicCacheControl,
  VARY,
} from './entry.ts';

export interface SendOptions {
  policy: CachePolicy;
  /** Whether the entry is shared (anonymous, stored): only then does it get a public Cache-Control. */
  shared: boolean;
  now?: number;
  /** Per-request headers that are never stored (CORS). */
  extra?: OutgoingHttpHeaders;
}

/** The headers of a 200 for this entry. */
export function entryHeaders(entry: CacheEntry, o: SendOptions): OutgoingHttpHeaders {
  const h: OutgoingHttpHeaders = {
    ...entry.headers,
    ...o.extra,
    'content-type': 'application/json; charset=utf-8',
    vary: VARY,
  };
  if (o.shared) {
    h.etag = entry.etag;
    h['cache-control'] = publicCacheControl(o.policy);
    h.age = String(ageOf(entry, o.now ?? Date.now()));
  }
  return h;
}

/** Keeps only what RFC 9110 §15.4.5 asks of a 304 (see NOT_MODIFIED_HEADERS). */
export function notModifiedHeaders(h: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name of [...NOT_MODIFIED_HEADERS, 'age']) if (h[name] !== undefined) out[name] = h[name];
  return out;
}

/** Sends the stored bytes as they are (no JSON work); a matching If-None-Match on a shared entry gets a 304. */
export function sendEntry(
  req: IncomingMessage,
  res: ServerResponse,
  entry: CacheEntry,
  o: SendOptions,
): void {
  const headers = entryHeaders(entry, o);
  const gz = acceptsGzip(req.headers['accept-encoding']) ? gzipOf(entry) : null;
  if (gz) {
    headers['content-encoding'] = 'gzip';
    if (o.shared) headers.etag = gz.etag;
  }
  const inm = req.headers['if-none-match'];
  // Either representation's validator means the caller holds the current state of this answer.
  if (
    o.shared &&
    entry.status === 200 &&
    (etagMatches(inm, entry.etag) || (gz && etagMatches(inm, gz.etag)))
  ) {
    res.writeHead(304, notModifiedHeaders(headers));
    res.end();
    return;
  }
  const body = gz ? gz.body : entry.body;
  headers['content-length'] = body.length;
  res.writeHead(entry.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
