// What a route handler receives and returns: data in, data out; the stages make it bytes and HTTP.
import type { RequestContext } from '../context.ts';
import type { ArgsOf, ArgsShape } from '../contract/args.ts';
import type { RouteContract } from '../contract/route.ts';
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
   * Every parameter of the request as sent (query, then body for writes, then path), which `args` was parsed from.
   * Only for parameters a route does not declare (`password`, `context`), which TEC reads from the raw request: the
   * cache key is made of `args`, so nothing else here may change an answer that could be shared (a `password` makes
   * the answer the caller's own, src/stages/cache.ts; `context=edit` counts only for a signed-in caller).
   */
  raw: Record<string, unknown>;
}

export interface HandlerResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * Cache tags beyond what the answer shows: those a write touched (src/stages/invalidate.ts), or those a read's
   * answer depends on (src/stages/cache.ts; an occurrence's, on its series and on overrides made later).
   */
  tags?: string[];
  /**
   * The write took nothing out of public view (src/cache/soft.ts): its drop may be soft, anonymous readers keeping
   * the previous answer while it refills. Absent: a hard drop.
   */
  soft?: boolean;
  /** What a write does once its invalidation is done (src/stages/invalidate.ts): hold its public copy. */
  afterDrop?: () => void;
}

export type Handler<S extends ArgsShape> = (input: HandlerInput<S>) => Promise<HandlerResult>;

export interface Binding<S extends ArgsShape = ArgsShape> {
  contract: RouteContract<S>;
  handler: Handler<S>;
  /** `false` keeps a GET route out of the response cache (anonymous GETs are cached by default). */
  cache?: false;
}

/** A contract bound to its handler. */
export const bind = <S extends ArgsShape>(
  contract: RouteContract<S>,
  handler: Handler<S>,
  options: { cache?: false } = {},
): Binding => ({ contract, handler, ...options }) as unknown as Binding;
