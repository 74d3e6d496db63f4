// The hot path in front of express: an anonymous GET whose exact URL was already answered from a stored entry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, type OriginRule } from '../http/cors.ts';
import { mayCarryCredentials } from '../http/credentials.ts';
import { sendAnswer } from '../http/send.ts';
import type { Metrics } from '../observe/metrics.ts';
import { sharedOf } from './entry.ts';
import type { ResponseCache } from './response-cache.ts';

/**
 * Answers from L1 and returns true, or returns false to let express handle the request. Requests carrying any
 * credential-like header (Authorization, Cookie, X-WP-Nonce) always go through express, which decides who they are.
 */
export function fastServe(
  cache: ResponseCache,
  req: IncomingMessage,
  res: ServerResponse,
  allowOrigin: OriginRule = () => true,
  metrics?: Metrics,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const h = req.headers;
  if (mayCarryCredentials(h)) return false;
  const key = cache.aliases.lookup(req);
  if (key === undefined) return false;
  const entry = cache.peek(key);
  if (!entry) return false;
  // A caller's own request id is echoed; minting one per cached hit would cost more than the hit itself.
  const id = h['x-request-id'];
  if (typeof id === 'string' && id) res.setHeader('X-Request-Id', id.slice(0, 64));
  const extra = corsHeaders(h.origin, allowOrigin);
  sendAnswer(req, res, entry, { shared: sharedOf(entry, cache.policy), extra });
  // Counted, not logged: a log line per hit would cost more than the hit (the key starts with its route id).
  metrics?.fastHit(key.slice(0, key.indexOf('|')));
  return true;
}
