// An answer as bytes (status, headers, body and its strong ETag, made once) and the HTTP rules around it:
// validators, the 304 header list, gzip made once per answer, Cache-Control and Vary.
import { createHash } from 'node:crypto';
import { gzip, gzipSync } from 'node:zlib';
import { keptBeside } from './beside.ts';

export interface Answer {
  /** The serialised body, exactly the bytes sent. */
  body: Buffer;
  /** Strong validator over `body`, quoted (`"…"`). */
  etag: string;
  status: number;
  /** Response headers to send with it (content type, pagination totals, links…), lower-case names. */
  headers: Record<string, string>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Strong ETag: a digest of the exact bytes, so equal bytes always validate, across instances too. */
export const strongEtag = (body: Buffer): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/** Strings up to this length are encoded through the scratch buffer below (3 bytes a UTF-16 unit at most). */
const SCRATCH_CHARS = 256 * 1024;
let scratch: Buffer | undefined;
const encoder = new TextEncoder();

/**
 * The UTF-8 bytes of `text`, as `Buffer.from(text)` makes them. TextEncoder.encodeInto writes them into a scratch
 * buffer, then they are copied out at their size: together half the CPU of Buffer.from for an answer's JSON (a list of
 * ten events, 43 KB: 61 + 5 against 122 µs), as one character past Latin-1 (an en dash) makes V8 hold the whole text
 * in two bytes a character, which Buffer.from encodes one character at a time. The scratch holds nothing between calls.
 */
export function utf8Bytes(text: string): Buffer {
  if (text.length > SCRATCH_CHARS) return ownBytes(Buffer.from(text));
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_CHARS * 3);
  const { written } = encoder.encodeInto(text, scratch);
  return ownBytes(scratch.subarray(0, written));
}

/**
 * `b` in memory of its own size: `b` itself when it has its memory to itself, else a copy. A Buffer is often a view
 * into a larger block it shares: Node's pool (64 KB blocks, from which `Buffer.from` carves anything under 32 KB),
 * zlib's output chunk (64 KB for a gzip of 900 bytes) or a socket read (ioredis answers with views into it). While
 * the view lives, the whole block does. A cached answer lives for hours, and the cache counts its bytes, not its
 * block's: 1 000 cached gzips of single events held 64 MB. Copying costs a few microseconds, once per answer.
 */
export function ownBytes(b: Buffer): Buffer {
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength) return b;
  const own = Buffer.allocUnsafeSlow(b.length);
  b.copy(own);
  return own;
}

/** The answer of these bytes; header names lower-cased, the content type JSON unless one is given. */
export function answerOf(
  body: Buffer | string,
  opts: { status?: number; headers?: Record<string, string>; type?: string } = {},
): Answer {
  const bytes = typeof body === 'string' ? utf8Bytes(body) : ownBytes(body);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
  if (opts.type) headers['content-type'] = opts.type;
  return { body: bytes, etag: strongEtag(bytes), status: opts.status ?? 200, headers };
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

/** `Cache-Control` of anything answered for a signed-in caller or a secret: never stored by any shared cache. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * `Vary` of a readable answer: the body depends on who asks (Authorization, Cookie), is sent gzipped to those who
 * accept it (Accept-Encoding), and echoes the caller's Origin in its CORS headers (src/http/cors.ts).
 */
export const VARY = 'Authorization, Cookie, Accept-Encoding, Origin';

/**
 * The headers of an answer no shared cache may keep: a read's (GET or HEAD, whose headers are GET's) varies by caller,
 * and is `private` when it is the caller's own (signed in, or unlocked by a post password), else `no-store` (an error,
 * or an answer that raced a write: without it a CDN would keep it for its own default time, and no purge names it).
 */
export function unsharedHeaders(method: string, own: boolean): Record<string, string> {
  const read = method === 'GET' || method === 'HEAD';
  const extra: Record<string, string> = {};
  if (read) extra.vary = VARY;
  if (own) extra['cache-control'] = PRIVATE_CACHE_CONTROL;
  else if (read) extra['cache-control'] = 'no-store';
  return extra;
}

/** Bodies below this size are sent as they are: gzip's framing would eat most of the gain. */
const GZIP_MIN_BYTES = 1024;
/**
 * Bodies from this size (a feed of thousands of events) are compressed off the event loop: the answers sent until
 * their gzip is ready go out uncompressed, which any client accepts, instead of holding every other request.
 */
const GZIP_ASYNC_BYTES = 128 * 1024;
/**
 * An answer's gzipped body and its ETag, made on first demand and kept as long as the answer (null: not worth it;
 * `pending`: being made off the event loop).
 */
const gzipped = new WeakMap<Answer, { body: Buffer; etag: string } | null | 'pending'>();

const gzOf = (answer: Answer, body: Buffer) =>
  body.length < answer.body.length ? { body: ownBytes(body), etag: `${answer.etag.slice(0, -1)}-gz"` } : null;

/** Keeps the gzip made for an answer, and counts its bytes as kept beside it (a stored answer's budget counts them). */
function settle(answer: Answer, gz: { body: Buffer; etag: string } | null): typeof gz {
  gzipped.set(answer, gz);
  if (gz) keptBeside(answer, gz.body.length);
  return gz;
}

/**
 * The gzip representation of an answer, compressed once per answer and process, so a cache hit costs no
 * compression. It has its own strong ETag: RFC 9110 §8.8.3 ties a strong validator to one representation, content
 * coding included. Null while a large body's gzip is being made.
 *
 * A `stored` answer (a cache entry, sent again to later callers) is compressed off the event loop from its first
 * demand: the answer that filled the entry goes out uncompressed, without waiting for gzip (0.7 ms for a list of
 * ten events, a seventh of a miss's own work), and the callers after it get the gzip. An answer made for one
 * request alone is compressed now, as it is sent only once.
 */
export function gzipOf(answer: Answer, stored = false): { body: Buffer; etag: string } | null {
  const known = gzipped.get(answer);
  if (known === 'pending') return null;
  if (known !== undefined) return known;
  const size = answer.body.length;
  if (size < GZIP_MIN_BYTES) {
    gzipped.set(answer, null);
    return null;
  }
  if (stored || size >= GZIP_ASYNC_BYTES) {
    gzipped.set(answer, 'pending');
    // Started once this answer is written: setting up the compression stream alone costs 0.15 ms of the event loop.
    setImmediate(() => gzip(answer.body, (err, body) => settle(answer, err ? null : gzOf(answer, body))));
    return null;
  }
  return settle(answer, gzOf(answer, gzipSync(answer.body)));
}

/** `Accept-Encoding` values read lately: browsers send one of a handful, on every request. */
const ENCODINGS_KEPT = 256;
const gzipAccepted = new Map<string, boolean>();

/** Whether `Accept-Encoding` accepts gzip (RFC 9110 §12.5.3: a listed `gzip` or `*`, with a non-zero weight). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let yes = gzipAccepted.get(header);
  if (yes === undefined) {
    // Bounded: made-up values cost a parse each, never memory.
    if (gzipAccepted.size >= ENCODINGS_KEPT) gzipAccepted.clear();
    yes = readAcceptsGzip(header);
    gzipAccepted.set(header, yes);
  }
  return yes;
}

function readAcceptsGzip(header: string): boolean {
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
