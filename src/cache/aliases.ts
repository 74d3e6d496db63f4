// Which cache key a raw request's URL was answered under, so the fast path can answer it again before express.
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';

/**
 * Raw request → cache key, learnt from requests the adapter resolved (route match, parameter parsing, language,
 * base URL). Only the exact same raw inputs (Host, X-Forwarded-Proto, URL) reuse a key, so the fast path can never
 * answer differently from the adapter; an alias to an invalidated key simply misses.
 */
/** Bytes the aliases may hold: every unique URL asked for (a search per visitor) learns one, so bound them by size. */
export const ALIAS_BYTES = 8 * 1024 * 1024;

/**
 * Bytes one alias holds, counted high: V8 keeps a string with any character above U+00FF at two bytes a
 * character, and each entry costs lru-cache slots and string headers besides. `alias` is `host|proto|url`.
 */
export const aliasBytes = (alias: string, key: string): number => 2 * (alias.length + key.length) + 96;

/** Host and scheme pairs kept per URL: more (a client cycling Host headers) drops the oldest. */
const PAIRS_PER_URL = 8;

/**
 * What a learnt URL leads to: its cache key, and the contract route the key starts with (the fast path counts hits
 * by route; cut once here rather than per hit, where a fresh string would be hashed again for the counter's map).
 */
export interface Alias {
  key: string;
  route: string;
}

/** One learnt (Host, X-Forwarded-Proto) of a URL, and the next one learnt for the same URL. */
interface Learnt extends Alias {
  host: string;
  proto: string;
  next: Learnt | undefined;
}

/** The route a cache key starts with (`events.list|…` → `events.list`, src/cache/key.ts). */
export const routeOfKey = (key: string): string => {
  const bar = key.indexOf('|');
  return bar < 0 ? key : key.slice(0, bar);
};

/** The raw inputs an alias is learnt by. The scheme header counts whoever sent it (see `learn`). */
function inputsOf(req: IncomingMessage): { url: string; host: string; proto: string } {
  // Express rewrites `url` below a mount point; `originalUrl` is what arrived (and what the fast path sees).
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const h = req.headers;
  return { url, host: h.host ?? '', proto: `${h['x-forwarded-proto'] ?? ''}` };
}

/** Bytes a URL's records hold, as `aliasBytes` counts each (`host|proto|url`, its key). */
function chainBytes(url: string, first: Learnt): number {
  let n = 0;
  for (let a: Learnt | undefined = first; a; a = a.next) {
    n += 2 * (a.host.length + a.proto.length + url.length + 2 + a.key.length) + 96;
  }
  return n;
}

export class UrlAliases {
  // Keyed by the URL alone: the parser's string is hashed as it came, where a joined `host|proto|url` would be built,
  // flattened and hashed on every hit (a third of the fast path's own work). Host and scheme are compared after.
  // A URL of more than ~16 000 characters is never kept (lru-cache skips an entry above maxEntrySize): it is answered
  // through express every time, as any URL not learnt yet. Bounded by bytes alone (at most ~75 000 aliases of the
  // shortest URLs): a `max` as well made lru-cache allocate all its slots at once, in the start's task (1.8 ms).
  readonly #map = new LRUCache<string, Learnt>({
    maxSize: ALIAS_BYTES,
    maxEntrySize: 32 * 1024,
    sizeCalculation: (first, url) => chainBytes(url, first),
  });

  /** Aliases kept and their bytes as counted (for metrics and tests). */
  get size(): { entries: number; bytes: number } {
    let entries = 0;
    for (const first of this.#map.values()) for (let a: Learnt | undefined = first; a; a = a.next) entries++;
    return { entries, bytes: this.#map.calculatedSize };
  }

  learn(req: IncomingMessage, key: string): void {
    // The scheme header is part of the alias whoever sent it: whether it counts is express's `trust proxy` (which
    // the fast path does not see), and a header that does not count only splits one alias into two.
    const { url, host, proto } = inputsOf(req);
    const first = this.#map.get(url);
    // Learnt again on every answer through express: an unchanged alias keeps its record (and is made recent).
    if (find(first, host, proto)?.key === key) return;
    // The records are never changed once made (a lookup may hold one): a new head, then the others for this URL.
    const head: Learnt = { key, route: routeOfKey(key), host, proto, next: undefined };
    let tail = head;
    let kept = 1;
    for (let a = first; a && kept < PAIRS_PER_URL; a = a.next) {
      if (a.host === host && a.proto === proto) continue;
      tail.next = { ...a, next: undefined };
      tail = tail.next;
      kept++;
    }
    this.#map.set(url, head);
  }

  lookup(req: IncomingMessage): Alias | undefined {
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
    const first = this.#map.get(url);
    if (first === undefined) return undefined;
    const h = req.headers;
    const proto = h['x-forwarded-proto'];
    return find(first, h.host ?? '', typeof proto === 'string' ? proto : `${proto ?? ''}`);
  }

  /** `lookup` from the raw inputs: the URL as it arrived, Host and X-Forwarded-Proto (undefined when absent). */
  lookupRaw(url: string, host: string | undefined, proto: string | undefined): Alias | undefined {
    const first = this.#map.get(url);
    return first === undefined ? undefined : find(first, host ?? '', proto ?? '');
  }
}

function find(first: Learnt | undefined, host: string, proto: string): Learnt | undefined {
  let a = first;
  while (a !== undefined && (a.host !== host || a.proto !== proto)) a = a.next;
  return a;
}
