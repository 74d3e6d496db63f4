// Stage: anonymous reads of cacheable routes answered from the response cache, filled by the stages after it.

import { entryOf, sharedOf } from '../cache/entry.ts';
import { cacheKey } from '../cache/key.ts';
import type { CacheSource, ResponseCache } from '../cache/response-cache.ts';
import { answerTags } from '../cache/tags.ts';
import type { Answer } from '../http/answer.ts';
import type { Exchange, Stage } from '../http/exchange.ts';
import { GLOBAL_PARAMS } from '../http/globals.ts';
import type { AnswerSource } from '../observe/metrics.ts';

/**
 * Only anonymous GET/HEAD requests are shared. A request carrying a post password is not: its answer depends on a
 * secret, and storing it would hand the protected content to whoever guesses the URL.
 */
export function isShareable(method: string, anonymous: boolean, params: Record<string, unknown>): boolean {
  return (method === 'GET' || method === 'HEAD') && anonymous && params.password === undefined;
}

/** The arguments without WordPress's global parameters, which never change the stored answer. */
function withoutGlobals(raw: Record<string, unknown>): Record<string, unknown> {
  if (!GLOBAL_PARAMS.some((p) => raw[p] !== undefined)) return raw;
  const out = { ...raw };
  for (const p of GLOBAL_PARAMS) delete out[p];
  return out;
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
  (cache: ResponseCache): Stage =>
  async (x, next) => {
    if (x.binding.cache === false || !isShareable(x.method, !x.credentials, x.raw)) return next();
    // Anonymous read: stored bytes and ETag, no JSON work on a hit (design decision 3).
    // WordPress's global parameters shape the answer outside this stage (src/stages/shape.ts): one stored answer.
    const key = cacheKey({
      route: x.binding.contract.id,
      params: withoutGlobals(x.raw),
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
        const tags = a.status === 200 ? answerTags(x.binding.contract, false, x.result?.body, x.raw) : [];
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
