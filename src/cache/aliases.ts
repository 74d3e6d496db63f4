// Which cache key a raw request's URL was answered under, so the fast path can answer it again before express.
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';

/**
 * Raw request → cache key, learnt from requests the adapter resolved (route match, parameter parsing, language,
 * base URL). Only the exact same raw inputs reuse a key, so the fast path can never answer differently from the
 * adapter; an alias to an invalidated key simply misses.
 */
/** Bytes the aliases may hold: every unique URL asked for (a search per visitor) learns one, so bound them by size. */
export const ALIAS_BYTES = 8 * 1024 * 1024;

/**
 * Bytes one alias holds, counted high: V8 keeps a string with any character above U+00FF at two bytes a
 * character, and each entry costs lru-cache slots and string headers besides.
 */
export const aliasBytes = (alias: string, key: string): number => 2 * (alias.length + key.length) + 96;

export class UrlAliases {
  // A URL of more than ~16 000 characters is never kept (lru-cache skips an entry above maxEntrySize): it is answered
  // through express every time, as any URL not learnt yet.
  readonly #map = new LRUCache<string, string>({
    max: 20_000,
    maxSize: ALIAS_BYTES,
    maxEntrySize: 32 * 1024,
    sizeCalculation: (key, alias) => aliasBytes(alias, key),
  });

  /** Aliases kept and their bytes as counted (for metrics and tests). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#map.size, bytes: this.#map.calculatedSize };
  }

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
