// One request's way through the stages (hono's Context and compose): what each stage reads and leaves for the next.
import type { Request, Response } from 'express';
import type { Credentials, RequestContext } from '../context.ts';
import type { ArgsShape } from '../contract/args.ts';
import type { AnswerSource } from '../observe/metrics.ts';
import type { SiteInfo } from '../serialize/index.ts';
import type { Answer } from './answer.ts';
import { audienceOf } from './credentials.ts';
import type { Globals } from './globals.ts';
import type { Binding, HandlerResult } from './handler.ts';
import type { Parsed } from './parse-args.ts';
import type { SharedHeaders } from './send.ts';

export interface Exchange {
  readonly req: Request;
  readonly res: Response;
  /** The route this request matched (match). */
  readonly binding: Binding<ArgsShape>;
  /** The method as routes know it (`HEAD` is a `GET`). */
  readonly method: string;
  readonly path: string;
  readonly requestId: string;
  /** Path parameters, decoded. */
  readonly params: Record<string, string>;
  /** The query string, parsed once (src/http/query.ts). */
  readonly query: Record<string, unknown>;
  /** WordPress's global parameters of the query (`_envelope`, `_jsonp`), read with it (src/http/globals.ts). */
  readonly globals: Globals;
  /** Credentials as sent (src/http/credentials.ts); absent for an anonymous caller. */
  readonly credentials?: Credentials;
  /** The root's site facts and the public API root this request reaches. */
  readonly site: SiteInfo;
  /** The root's language: the cache key's, and the context's unless the arguments name another. */
  readonly rootLanguage: string;
  readonly signal: AbortSignal;
  /** When the request arrived (epoch ms). */
  readonly arrivedAt: number;
  /** The user WordPress vouched for (authenticate); absent for an anonymous caller. */
  user?: { id: number };
  /** The body's fields, read once the caller may send one (authenticate); `{}` for a GET. */
  body: Record<string, unknown>;
  /** Query, then body, then path parameters, as sent: what the one parser reads (src/stages/parse.ts). */
  raw: Record<string, unknown>;
  /** What the one parser made of `raw`, once, by whichever stage asked first (the cache stage or parse). */
  parsed?: Parsed;
  /** The arguments, parsed and checked by the route's contract: what the cache key and the handler read (parse). */
  args?: Record<string, unknown>;
  /** Who asks, in which language (parse). */
  ctx?: RequestContext;
  /** What the handler returned (handle). */
  result?: HandlerResult;
  /** The bytes to send (render, or a stage that answers from a store). */
  answer?: Answer;
  /** Set by the cache stage: the answer is the shared one, sent with its validator and public Cache-Control. */
  shared?: SharedHeaders;
  /** Where the answer came from, for metrics and the request log. */
  source?: AnswerSource;
}

/** A stage does its part, and calls `next` to let the stages after it run (or answers without calling it). */
export type Stage = (x: Exchange, next: () => Promise<void>) => Promise<void>;

/** The stages as one, in order: each runs around the ones after it. */
export function compose(stages: readonly Stage[]): (x: Exchange) => Promise<void> {
  return (x) => {
    let last = -1;
    const run = (i: number): Promise<void> => {
      // A stage that calls next twice would run the handler twice (a write made twice).
      if (i <= last) return Promise.reject(new Error('next() called twice'));
      last = i;
      const stage = stages[i];
      return stage ? stage(x, () => run(i + 1)) : Promise.resolve();
    };
    return run(0);
  };
}

/** The request context of this exchange in `language`: who asks (as credentials.ts decides), its id and signal. */
export const contextOf = (x: Exchange, language: string): RequestContext => ({
  audience: audienceOf(x.credentials),
  credentials: x.credentials,
  language,
  requestId: x.requestId,
  // Whom password guesses are counted against: the address express sees (after TRUST_PROXY).
  client: x.req.ip,
  signal: x.signal,
  arrivedAt: x.arrivedAt,
});
