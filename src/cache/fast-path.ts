// The hot path in front of express: an anonymous GET whose exact URL was already answered from a stored entry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { corsHeaders, type OriginRule } from '../http/cors.ts';
import { mayCarryCredentials } from '../http/credentials.ts';
import { sendAnswer } from '../http/send.ts';
import type { Metrics } from '../observe/metrics.ts';
import { sharedOf } from './entry.ts';
import type { ResponseCache } from './response-cache.ts';

/**
 * Raw request → cache key, learnt from requests the adapter resolved (route match, parameter parsing, language,
 * base URL). Only the exact same raw inputs reuse a key, so the fast path can never answer differently from the
 * adapter; an alias to an invalidated key simply misses.
 */
export class UrlAliases {
  readonly #map = new LRUCache<string, string>({ max: 20_000 });

  static of(req: IncomingMessage): string {
    // Express rewrites `url` below a mount point; `originalUrl` is what arrived (and what the fast path sees).
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
    // The scheme header is part of the alias whoever sent it: whether it counts is express's `trust proxy` (which
    // the fast path does not see), and a header that does not count only splits one alias into two.
    return `${req.headers.host ?? ''}|${req.headers['x-forwarded-proto'] ?? ''}|${url}`;
  }

  learn(req: IncomingMessage, key: string): void {
    this.#map.set(UrlAliases.of(req), key);
  }

  lookup(req: IncomingMessage): string | undefined {
    return this.#map.get(UrlAliases.of(req));
  }
}

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
