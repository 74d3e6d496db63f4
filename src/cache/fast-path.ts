// The hot path in front of express: an anonymous GET whose exact URL was already answered from a stored entry.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { unsharedHeaders } from '../http/answer.ts';
import { corsHeaders, type OriginRule } from '../http/cors.ts';
import { hitHeadersOf } from '../http/raw-headers.ts';
import { sendAnswer, sendShared } from '../http/send.ts';
import type { Metrics } from '../observe/metrics.ts';
import { sharedOf } from './entry.ts';
import type { ResponseCache } from './response-cache.ts';

const anyOrigin: OriginRule = () => true;
/** An anonymous read's answer that no cache may keep, as src/http/adapter.ts sends it. */
const UNSHARED: Readonly<Record<string, string>> = Object.freeze(unsharedHeaders('GET', false));

/**
 * Answers from L1 and returns true, or returns false to let express handle the request. Requests carrying any
 * credential-like header (Authorization, Cookie, X-WP-Nonce) always go through express, which decides who they are.
 *
 * A hit makes nothing of its own but the few objects Node needs: the alias record holds the key and the route it is
 * counted under, CORS headers are one frozen object per Origin, and the header list is made once per second
 * (src/http/send.ts). The rest of a hit is Node checking and writing the headers, which every answer must carry.
 */
export function fastServe(
  cache: ResponseCache,
  req: IncomingMessage,
  res: ServerResponse,
  allowOrigin: OriginRule = anyOrigin,
  metrics?: Metrics,
): boolean {
  const method = req.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  // Read from the raw header lines: `req.headers` would make Node build every header (src/http/raw-headers.ts).
  const h = hitHeadersOf(req);
  if (h.credentials) return false;
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const alias = cache.aliases.lookupRaw(url, h.host, h.forwardedProto);
  if (alias === undefined) return false;
  const entry = cache.peek(alias.key);
  // A caller's own request id is echoed; minting one per cached hit would cost more than the hit itself.
  const id = h.requestId;
  const echo = id ? id.slice(0, 64) : undefined;
  if (entry)
    sendShared(req, res, entry, sharedOf(entry, cache.policy), corsHeaders(h.origin, allowOrigin), echo, h);
  else {
    // A write's previous answer while its refill already runs: what express would send it with, without express.
    const previous = cache.peekSoft(alias.key);
    if (!previous) return false;
    const extra: OutgoingHttpHeaders = { ...corsHeaders(h.origin, allowOrigin), ...UNSHARED };
    if (echo) extra['x-request-id'] = echo;
    sendAnswer(req, res, previous, { extra, stored: true }, h);
  }
  // Counted, not logged: a log line per hit would cost more than the hit.
  metrics?.fastHit(alias.route);
  return true;
}
