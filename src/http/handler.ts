// What a route handler receives and returns: data in, data out; the adapter writes HTTP.

import { readTags, type Shows, writeTags } from '../cache/tags.ts';
import type { RequestContext } from '../context.ts';
import type { ArgsOf, ArgsShape } from '../contract/args.ts';
import type { Returns, RouteContract } from '../contract/route.ts';
import type { SiteInfo } from '../serialize/index.ts';

export interface HandlerInput<S extends ArgsShape> {
  args: ArgsOf<S>;
  /** Path parameters exactly as matched. */
  params: Record<string, string>;
  /** The request body as sent (JSON or form), for fields whose presence matters (partial updates). */
  body: Record<string, unknown>;
  ctx: RequestContext;
  site: SiteInfo;
  /**
   * Every parameter of the request as parsed once by the adapter (query, then body for writes, then path), the same
   * map the cache key and the shareability decision read. For parameters a route does not declare (`password`,
   * `context`), which TEC reads from the raw request.
   */
  raw: Record<string, unknown>;
}

export interface HandlerResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** What the answer showed, for the response cache: the tags a change must drop it by (reads) or drops (writes). */
  cache?: { tags: string[] };
}

export type Handler<S extends ArgsShape> = (input: HandlerInput<S>) => Promise<HandlerResult>;

export interface Binding<S extends ArgsShape = ArgsShape> {
  contract: RouteContract<S>;
  handler: Handler<S>;
  /** `false` keeps a GET route out of the response cache (anonymous GETs are cached by default). */
  cache?: false;
}

/** The cache's word for what a contract says its route returns (categories and tags are terms). */
export function showsOf(returns: Returns | undefined): Shows | undefined {
  if (!returns) return undefined;
  const kind = returns.record.kind;
  return { kind: kind === 'categories' || kind === 'tags' ? 'term' : kind, list: returns.list };
}

/**
 * A contract bound to its handler. The bound handler's results carry the cache tags that follow from what the
 * contract says the route returns: read tags for GET routes, the tags a write touched for the others.
 */
export const bind = <S extends ArgsShape>(
  contract: RouteContract<S>,
  handler: Handler<S>,
  options: { cache?: false } = {},
): Binding => {
  const shows = showsOf(contract.returns);
  const write = !contract.methods.includes('GET');
  const tagged: Handler<S> = shows
    ? async (input) => {
        const r = await handler(input);
        return { ...r, cache: { tags: write ? writeTags(shows.kind, r.body) : readTags(shows, r.body) } };
      }
    : handler;
  return { contract, handler: tagged, ...options } as unknown as Binding;
};
