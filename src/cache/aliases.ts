// Which cache key a raw request's URL was answered under, so the fast path can answer it again before express.
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';

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
