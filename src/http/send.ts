// Writes an answer: gzip when accepted (made once per answer), and for a shared answer its ETag, a 304 on
// If-None-Match, its public Cache-Control and Age. Cached hits, the fast path and direct answers all end here.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import {
  type Answer,
  acceptsGzip,
  etagMatches,
  gzipOf,
  JSON_TYPE,
  NOT_MODIFIED_HEADERS,
  VARY,
} from './answer.ts';

/** What a shared answer goes out with: its Cache-Control, Age, and its cache tags for a CDN (src/cdn/). */
export interface SharedHeaders {
  cacheControl: string;
  age: number;
  tags?: Record<string, string>;
}

export interface SendOptions {
  /**
   * The answer is shared (anonymous, stored): it goes out with its validator, this Cache-Control and Age. Absent, it
   * was made for this request alone and carries no validator.
   */
  shared?: SharedHeaders;
  /** Headers of this request only (CORS, Vary, a private Cache-Control), never stored with the answer. */
  extra?: OutgoingHttpHeaders;
}

/** The headers of a 200 for this answer. */
export function answerHeaders(answer: Answer, o: SendOptions): OutgoingHttpHeaders {
  const h: OutgoingHttpHeaders = { 'content-type': JSON_TYPE, ...answer.headers, ...o.extra };
  if (o.shared) {
    h.vary = VARY;
    h.etag = answer.etag;
    h['cache-control'] = o.shared.cacheControl;
    h.age = String(o.shared.age);
    if (o.shared.tags) Object.assign(h, o.shared.tags);
  }
  return h;
}

/** Keeps only what RFC 9110 §15.4.5 asks of a 304 (see NOT_MODIFIED_HEADERS). */
export function notModifiedHeaders(h: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name of [...NOT_MODIFIED_HEADERS, 'age']) if (h[name] !== undefined) out[name] = h[name];
  return out;
}

/** Sends the answer's bytes as they are (no JSON work); a matching If-None-Match on a shared answer gets a 304. */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer, o: SendOptions): void {
  const headers = answerHeaders(answer, o);
  // A shared answer is a stored one: its gzip is made off the event loop, and it goes out as it is until then.
  const gz = acceptsGzip(req.headers['accept-encoding']) ? gzipOf(answer, o.shared !== undefined) : null;
  if (gz) {
    headers['content-encoding'] = 'gzip';
    if (o.shared) headers.etag = gz.etag;
  }
  const inm = req.headers['if-none-match'];
  // Either representation's validator means the caller holds the current state of this answer.
  if (
    o.shared &&
    answer.status === 200 &&
    (etagMatches(inm, answer.etag) || (gz && etagMatches(inm, gz.etag)))
  ) {
    res.writeHead(304, notModifiedHeaders(headers));
    res.end();
    return;
  }
  const body = gz ? gz.body : answer.body;
  headers['content-length'] = body.length;
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
