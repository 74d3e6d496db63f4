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
import type { HitHeaders } from './raw-headers.ts';

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
  /** An unshared answer that is a stored entry (a write's previous answer): its gzip is made off the event loop. */
  stored?: boolean;
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

type Gzipped = ReturnType<typeof gzipOf>;

/** The headers of a 200 for this answer in this representation, Content-Length included. */
function fullHeaders(answer: Answer, o: SendOptions, gz: Gzipped): OutgoingHttpHeaders {
  const headers = answerHeaders(answer, o);
  if (gz) {
    headers['content-encoding'] = 'gzip';
    if (o.shared) headers.etag = gz.etag;
  }
  headers['content-length'] = (gz ? gz.body : answer.body).length;
  return headers;
}

/** A shared answer's 200 headers as the flat list writeHead takes, and what they were made for. */
interface Made {
  flat: Array<string | number | string[]>;
  age: number;
  cacheControl: string;
  tags: SharedHeaders['tags'];
  extra: SendOptions['extra'];
}

/**
 * Made once per stored answer, representation and second (Age), not per hit: a cached hit then builds no header
 * object, and the list is read by writeHead at once, so one list serves every hit of that second. The fast path's
 * `extra` is one frozen object per Origin (none, or the caller's: src/http/cors.ts), so a hit finds its list here.
 */
const madeHeaders = new WeakMap<Answer, { plain?: Made; gzip?: Made }>();

function sharedHeaders(
  answer: Answer,
  shared: SharedHeaders,
  extra: SendOptions['extra'],
  gz: Gzipped,
): Made['flat'] {
  let slots = madeHeaders.get(answer);
  const m = gz ? slots?.gzip : slots?.plain;
  if (
    m &&
    m.age === shared.age &&
    m.extra === extra &&
    m.tags === shared.tags &&
    m.cacheControl === shared.cacheControl
  ) {
    return m.flat;
  }
  const flat: Made['flat'] = [];
  for (const [k, v] of Object.entries(fullHeaders(answer, { shared, extra }, gz))) {
    if (v !== undefined) flat.push(k, v);
  }
  const made = { flat, age: shared.age, cacheControl: shared.cacheControl, tags: shared.tags, extra };
  if (!slots) {
    slots = {};
    madeHeaders.set(answer, slots);
  }
  if (gz) slots.gzip = made;
  else slots.plain = made;
  return flat;
}

/** The name the caller's request id is echoed under (src/observe/request-log.ts sets the same on express's path). */
const REQUEST_ID = 'X-Request-Id';

/**
 * Sends a shared answer (anonymous, stored) with its validator, Cache-Control and Age: a matching If-None-Match gets
 * a 304. `requestId` is echoed; it goes in the list given to writeHead, as a header set before writeHead would make
 * Node merge every header of the list one by one.
 */
export function sendShared(
  req: IncomingMessage,
  res: ServerResponse,
  answer: Answer,
  shared: SharedHeaders,
  extra?: SendOptions['extra'],
  requestId?: string,
  read?: Pick<HitHeaders, 'acceptEncoding' | 'ifNoneMatch'>,
): void {
  // The fast path passes what it read of the raw header lines (src/http/raw-headers.ts).
  const ae = read ? read.acceptEncoding : req.headers['accept-encoding'];
  // A stored answer's gzip is made off the event loop, and it goes out as it is until then.
  const gz = acceptsGzip(ae) ? gzipOf(answer, true) : null;
  const inm = read ? read.ifNoneMatch : req.headers['if-none-match'];
  // Either representation's validator means the caller holds the current state of this answer.
  if (
    inm !== undefined &&
    answer.status === 200 &&
    (etagMatches(inm, answer.etag) || (gz && etagMatches(inm, gz.etag)))
  ) {
    const headers = notModifiedHeaders(fullHeaders(answer, { shared, extra }, gz));
    if (requestId) headers[REQUEST_ID] = requestId;
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const flat = sharedHeaders(answer, shared, extra, gz);
  res.writeHead(answer.status, requestId ? [REQUEST_ID, requestId, ...flat] : flat);
  res.end(req.method === 'HEAD' ? undefined : gz ? gz.body : answer.body);
}

/**
 * Sends the answer's bytes as they are (no JSON work); a matching If-None-Match on a shared answer gets a 304. `read`:
 * what the fast path read of the raw header lines.
 */
export function sendAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  answer: Answer,
  o: SendOptions,
  read?: Pick<HitHeaders, 'acceptEncoding' | 'ifNoneMatch'>,
): void {
  if (o.shared) {
    sendShared(req, res, answer, o.shared, o.extra, undefined, read);
    return;
  }
  const ae = read ? read.acceptEncoding : req.headers['accept-encoding'];
  const gz = acceptsGzip(ae) ? gzipOf(answer, o.stored) : null;
  res.writeHead(answer.status, fullHeaders(answer, o, gz));
  res.end(req.method === 'HEAD' ? undefined : gz ? gz.body : answer.body);
}
