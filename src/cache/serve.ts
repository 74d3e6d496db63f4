// The cache in the request path: anonymous reads of cacheable routes, and tag invalidation after writes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { makeEntry } from './entry.ts';
import { sendEntry } from './http.ts';
import { cacheKey } from './key.ts';
import type { CacheSource, ResponseCache } from './response-cache.ts';
import { kindOfRoute, tag } from './tags.ts';

/** What a handler returned (the adapter's HandlerResult, repeated here to keep this folder standalone). */
export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  cache?: { tags: string[] };
}

/** The tags a handler said its answer carries; a route that says none is dropped with its kind's list. */
export const tagsOf = (route: string, r: RouteResult): string[] =>
  r.cache?.tags ?? [tag.list(kindOfRoute(route))];

export interface CachedRead {
  route: string;
  /** Raw query + path parameters. */
  params: Record<string, unknown>;
  language: string;
  /** Public API root the body's URLs are built from. */
  base: string;
}

/**
 * Only anonymous GET/HEAD requests are shared. A request carrying a post password is not: its answer depends on a
 * secret, and storing it would hand the protected content to whoever guesses the URL.
 */
export function isShareable(method: string, anonymous: boolean, params: Record<string, unknown>): boolean {
  return (method === 'GET' || method === 'HEAD') && anonymous && params.password === undefined;
}

/**
 * Answers from the cache, filling it through `run` on a miss. 4xx answers are sent but never stored (and never
 * replaced by a stale copy); 5xx and thrown upstream failures fall back to a stale copy within stale-if-error, else
 * are rethrown for the adapter's error path.
 */
export async function serveCached(
  cache: ResponseCache,
  req: IncomingMessage,
  res: ServerResponse,
  read: CachedRead,
  run: () => Promise<RouteResult>,
  clientError: (err: unknown) => { status: number; body: unknown } | undefined,
): Promise<CacheSource> {
  const key = cacheKey({ ...read, audience: 'anonymous' });
  cache.aliases.learn(req, key);
  const hit = cache.peek(key);
  if (hit) {
    sendEntry(req, res, hit, { policy: cache.policy, shared: true });
    return 'l1';
  }
  const { entry, shared, source } = await cache.get(key, async () => {
    let r: RouteResult;
    try {
      r = await run();
    } catch (err) {
      const e = clientError(err);
      if (!e) throw err;
      return { entry: makeEntry(JSON.stringify(e.body), { status: e.status }), store: false };
    }
    const status = r.status ?? 200;
    if (status >= 500) throw new Error(`upstream answered ${status}`);
    const entry = makeEntry(JSON.stringify(r.body), {
      status,
      headers: r.headers,
      tags: tagsOf(read.route, r),
    });
    return { entry, store: status === 200 };
  });
  sendEntry(req, res, entry, { policy: cache.policy, shared });
  return source;
}
