// Stage: anonymous reads of cacheable routes answered from the response cache, filled by the stages after it.

import { entryOf, sharedOf } from '../cache/entry.ts';
import { cacheKey } from '../cache/key.ts';
import type { CacheSource, ResponseCache } from '../cache/response-cache.ts';
import { readAnswerTags } from '../cache/tags.ts';
import type { Answer } from '../http/answer.ts';
import type { Exchange, Stage } from '../http/exchange.ts';
import { GLOBAL_PARAMS } from '../http/globals.ts';
import type { FormatChecks, Parsed } from '../http/parse-args.ts';
import type { AnswerSource } from '../observe/metrics.ts';
import { parsedOf } from './parse.ts';

/**
 * Only anonymous GET/HEAD requests are shared. A request carrying a post password is not: its answer depends on a
 * secret, and storing it would hand the protected content to whoever guesses the URL. The password is looked for in
 * what was sent as well as in the parsed arguments: TEC reads it from the raw request on routes that do not declare
 * it (venues, organizers: src/linked/read.ts), so any `password` at all makes the answer the caller's own.
 */
export function isShareable(
  method: string,
  anonymous: boolean,
  raw: Record<string, unknown>,
  args: Record<string, unknown> = {},
): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    anonymous &&
    raw.password === undefined &&
    args.password === undefined
  );
}

/** The cache's name for where an answer came from, as metrics and logs name it. */
const SOURCES: Record<CacheSource, AnswerSource> = { l1: 'memory', l2: 'redis', upstream: 'wordpress' };

/** WordPress failed (5xx): the cache may stand a stale copy in for this answer, else it is sent as it is. */
class Failed extends Error {
  readonly answer: Answer;
  constructor(answer: Answer) {
    super(`upstream answered ${answer.status}`);
    this.answer = answer;
  }
}

/**
 * Answers from the cache, filling it through the stages after this one on a miss. 4xx answers are sent but never
 * stored (and never replaced by a stale copy); a 5xx falls back to a stale copy within stale-if-error, else goes out
 * as it is. Only a 200 is stored.
 */
export const cacheStage =
  (cache: ResponseCache, formats: FormatChecks): Stage =>
  async (x, next) => {
    if (x.binding.cache === false || !isShareable(x.method, !x.credentials, x.raw)) return next();
    // A URL already resolved to a stored answer is answered as the fast path answers it, without parsing it again (an
    // anonymous reader with a site's analytics cookie comes this way on every read).
    const known = cache.aliases.lookup(x.req);
    const stored = known && cache.peek(known.key);
    if (stored) return served(x, stored, cache, 'l1', true);
    // Keyed by the arguments the handler will read, parsed once here (src/stages/parse.ts reuses them). Arguments the
    // route refuses are the parse stage's 400, which is never stored.
    let parsed: Parsed;
    try {
      parsed = parsedOf(x, formats);
    } catch {
      // A parser that throws is a bug: the parse stage meets it again inside render, which answers it as an error.
      return next();
    }
    if (!parsed.ok || !isShareable(x.method, !x.credentials, x.raw, parsed.args)) return next();
    // Anonymous read: stored bytes and ETag, no JSON work on a hit (design decision 3). Names the route does not take
    // (utm_source, fbclid, a random one) are not arguments, so they neither split the cache nor reach WordPress; nor
    // are WordPress's global parameters, which shape the answer outside this stage (src/stages/shape.ts).
    const args = parsed.args;
    const key = cacheKey({
      route: x.binding.contract.id,
      args,
      language: x.rootLanguage,
      base: x.site.apiRoot,
      audience: 'anonymous',
    });
    // The fast path sends stored answers as they are: a URL asking for a shaped one must come through the stages.
    if (!GLOBAL_PARAMS.some((p) => x.query[p] !== undefined)) cache.aliases.learn(x.req, key);
    const hit = cache.peek(key);
    if (hit) return served(x, hit, cache, 'l1', true);
    try {
      const { entry, shared, source } = await cache.get(key, async () => {
        await next();
        const a = x.answer as Answer;
        if (a.status >= 500) throw new Failed(a);
        const shown = a.status === 200 ? await readAnswerTags(x.binding.contract, x.result?.body, args) : [];
        // What the handler says the answer depends on besides (an occurrence: its series, later overrides).
        const tags = a.status === 200 ? [...new Set([...shown, ...(x.result?.tags ?? [])])].sort() : [];
        return { entry: entryOf(a, tags), store: a.status === 200 };
      });
      served(x, entry, cache, source, shared);
    } catch (err) {
      if (!(err instanceof Failed)) throw err;
      x.answer = err.answer;
      x.source = 'wordpress';
    }
  };

function served(
  x: Exchange,
  entry: Parameters<typeof sharedOf>[0],
  cache: ResponseCache,
  source: CacheSource,
  shared: boolean,
): void {
  x.answer = entry;
  x.source = SOURCES[source];
  x.shared = shared ? sharedOf(entry, cache.policy) : undefined;
}
