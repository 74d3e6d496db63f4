// Wires contract routes to express: matches WordPress-style route regexes, parses args, writes responses.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { PRIVATE_CACHE_CONTROL, VARY } from '../cache/entry.ts';
import type { CacheSource, ResponseCache } from '../cache/response-cache.ts';
import { isShareable, serveCached, tagsOf } from '../cache/serve.ts';
import type { RequestContext } from '../context.ts';
import { compilePattern, type RouteContract } from '../contract/route.ts';
import type { Logger } from '../log.ts';
import type { AnswerSource } from '../observe/metrics.ts';
import { audienceOf, credentialsOf } from './credentials.ts';
import {
  ApiError,
  forbidden,
  internalError,
  invalidJson,
  invalidParams,
  missingParams,
  noRoute,
  tooLarge,
  unreadable,
} from './errors.ts';
import type { Binding } from './handler.ts';
import { checkKey, fingerprintOf, type IdempotencyStore, onceFor } from './idempotency.ts';
import { parseArgs } from './parse-args.ts';
import { decodeSegment, queryOf } from './query.ts';

export interface ApiRootOptions {
  /** Where the namespace is mounted, e.g. `/wp-json/calendar/events/v1`. */
  prefix: string;
  defaultLanguage: string;
  /** Public base URL override (otherwise taken from the request's protocol and Host). */
  publicUrl?: string;
  home: string;
  timezone: string;
  log: Logger;
  /** The response cache; absent, every request goes to the handlers. */
  cache?: ResponseCache;
  /** Keeps the answers of POSTs sent with an `Idempotency-Key` (absent: the header is ignored). */
  idempotency?: IdempotencyStore;
  /**
   * Checks a signed-in caller's credentials with WordPress before anything of the request is parsed (401
   * `incorrect_password` when rejected), so a wrong password is refused everywhere, not only where a handler happens
   * to ask upstream. Resolves the user WordPress vouches for: their id scopes their `Idempotency-Key`s.
   */
  authenticate?: (ctx: RequestContext) => Promise<{ id: number } | null>;
  /**
   * The body parsers, run here once the caller may write (absent: bodies were parsed before the router). An
   * anonymous write is refused before its body is read, and a GET's body is never parsed.
   */
  bodies?: RequestHandler[];
  /** The body of an OPTIONS answer for the contracts of one route (WordPress describes the route). */
  describe?: (contracts: RouteContract[], apiRoot: string) => unknown;
}

/** A Host header that is a host name or address with an optional port, and nothing else. */
const SANE_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The base URL clients reach us at: PUBLIC_URL, else the request's scheme (after `trust proxy`) and Host. A Host
 * that is not a plain host name (an injection attempt: `evil.example/x?`, quotes, spaces) is not echoed into links.
 */
export const publicBase = (req: Request, publicUrl: string | undefined): string => {
  if (publicUrl) return publicUrl;
  const host = req.get('host') ?? '';
  return `${req.protocol}://${SANE_HOST.test(host) ? host : 'localhost'}`;
};

export function sendError(res: Response, err: ApiError): void {
  // A refusal that passes by itself (WordPress busy) says when to come back.
  if (typeof err.data.retry_after === 'number') res.set('Retry-After', String(err.data.retry_after));
  res.status(err.status).type('application/json').send(JSON.stringify(err.toJSON()));
}

/** Turns whatever was thrown into the WordPress error body; unexpected errors never leak a stack. */
export function toApiError(err: unknown, log: Logger, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { type?: string; status?: number } | null;
  if (e?.type === 'entity.parse.failed') return invalidJson();
  if (e?.type === 'entity.too.large') return tooLarge();
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return unreadable(e.status);
  log.error({ err, requestId }, 'unexpected error');
  return internalError(requestId);
}

/** The body's fields, for writes only: a GET or HEAD body is ignored (it must never change a read's answer). */
function bodyOf(req: Request, method: string): Record<string, unknown> {
  if (method === 'GET') return {};
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
}

/** Path parameters decoded; a broken percent-encoding is the caller's error, named by its parameter. */
function pathParams(groups: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const bad: Record<string, string> = {};
  for (const [k, v] of Object.entries(groups ?? {})) {
    const d = decodeSegment(v);
    if (d === undefined) bad[k] = `${k} is not a valid percent-encoded string.`;
    else out[k] = d;
  }
  if (Object.keys(bad).length) throw invalidParams(bad);
  return out;
}

/** Runs express middlewares (the body parsers) in turn, throwing the first error one passes on. */
async function runAll(handlers: RequestHandler[], req: Request, res: Response): Promise<void> {
  for (const h of handlers) {
    await new Promise<void>((resolve, reject) => {
      h(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
  }
}

/**
 * What an `Idempotency-Key` is held to: the method, path, query and body, so the same key with other arguments
 * anywhere is a different request. `_wpnonce` is a credential, not an argument: a retry may carry a fresh one.
 */
function requestOf(method: string, path: string, query: Record<string, unknown>, body: unknown): unknown[] {
  const { _wpnonce, ...args } = query;
  return [method, path, args, body];
}

/** The cache's name for where an answer came from, as metrics and logs name it. */
const SOURCES: Record<CacheSource, AnswerSource> = { l1: 'memory', l2: 'redis', upstream: 'wordpress' };

export function apiRouter(bindings: Binding[], opts: ApiRootOptions): express.Router {
  const router = express.Router();
  const compiled = bindings.map((b) => ({ ...b, regex: compilePattern(b.contract.pattern) }));

  /**
   * OPTIONS on a route, as WordPress answers it (also a browser's CORS preflight): 200, the route described, and
   * `Allow` with the methods this caller may use. WordPress asks each method's permission check; here anonymous
   * callers are offered the reads and signed-in ones every method, and the call itself is still decided upstream.
   */
  const answerOptions = (req: Request, res: Response, path: string): void => {
    const routes = compiled.filter((b) => b.regex.test(path)).map((b) => b.contract);
    if (!routes.length) {
      sendError(res, noRoute());
      return;
    }
    const methods = [...new Set(routes.flatMap((c) => c.methods as readonly string[]))];
    const allowed = credentialsOf(req) ? methods : methods.filter((m) => m === 'GET');
    const base = publicBase(req, opts.publicUrl);
    const body = opts.describe?.(routes, `${base}${opts.prefix}`) ?? {};
    // Browsers may reuse a preflight for 10 minutes (WordPress lets them default to 5 seconds).
    res.status(200).set({ Allow: allowed.join(', '), 'Access-Control-Max-Age': '600' });
    res.type('application/json').send(JSON.stringify(body));
  };

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    const requestId = (req.get('x-request-id') ?? randomUUID()).slice(0, 64);
    res.set('X-Request-Id', requestId);
    const path = req.path.replace(/\/+$/, '') || '';
    if (req.method === 'OPTIONS') return answerOptions(req, res, path);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    let groups: Record<string, string> | undefined;
    const match = compiled.find((b) => {
      const m = b.regex.exec(path);
      if (!m || !(b.contract.methods as readonly string[]).includes(method)) return false;
      groups = m.groups;
      return true;
    });
    if (!match) {
      if (path === '' && method === 'GET') return next();
      return sendError(res, noRoute());
    }
    res.locals.route = match.contract.id;
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const credentials = credentialsOf(req);
      const contextIn = (language: string): RequestContext => ({
        audience: audienceOf(credentials),
        credentials,
        language,
        requestId,
        signal: controller.signal,
      });
      // Who the caller is, and whether they may write, comes before any parsing (design.md): an anonymous write is
      // refused before its body, arguments and dates cost anything, and before its Idempotency-Key is kept. The
      // handlers refuse it with the same 401; WordPress would validate the arguments first (docs/differences.md).
      if (method !== 'GET' && !credentials) throw forbidden(false);
      const caller = credentials ? await opts.authenticate?.(contextIn(opts.defaultLanguage)) : undefined;
      if (method !== 'GET' && opts.bodies) await runAll(opts.bodies, req, res);
      const params = pathParams(groups);
      const body = bodyOf(req, method);
      // One parse for everything below: cache key, shareability, arguments, and what handlers read raw.
      const query = queryOf(req);
      const raw = { ...query, ...body, ...params };
      const base = publicBase(req, opts.publicUrl);
      const site = { home: opts.home, timezone: opts.timezone, apiRoot: `${base}${opts.prefix}` };
      const run = async () => {
        const parsed = parseArgs(match.contract.args, raw);
        if (!parsed.ok) {
          if ('missing' in parsed) throw missingParams(parsed.missing);
          throw invalidParams(Object.fromEntries(parsed.invalid.map((i) => [i.name, i.message])));
        }
        const lang =
          (parsed.args as { multilang_language?: string }).multilang_language ?? opts.defaultLanguage;
        return match.handler({ args: parsed.args, params, body, ctx: contextIn(lang), site, raw });
      };
      const cache = match.cache === false ? undefined : opts.cache;
      if (cache && isShareable(method, !credentials, raw)) {
        // Anonymous read: stored bytes and ETag, no JSON work on a hit (design decision 3).
        const read = {
          route: match.contract.id,
          params: raw,
          language: opts.defaultLanguage,
          base: site.apiRoot,
        };
        const source = await serveCached(cache, req, res, read, run, (err) => {
          const e = err instanceof ApiError && err.status < 500 ? err : undefined;
          return e && { status: e.status, body: e.toJSON() };
        });
        res.locals.cacheSource = SOURCES[source];
        return;
      }
      // Keys are kept only for a user WordPress vouched for, under their id (however their credentials are spelt).
      const idem = method === 'POST' && opts.idempotency && caller ? req.get('idempotency-key') : undefined;
      const result =
        idem !== undefined && opts.idempotency && caller
          ? await onceFor(
              opts.idempotency,
              `user:${caller.id}|${match.contract.id}|${checkKey(idem)}`,
              fingerprintOf(requestOf(method, path, query, body)),
              async () => {
                const r = await run();
                return { ...r, status: r.status ?? 200 };
              },
            )
          : await run();
      // A successful write drops every cached answer that showed what it touched, before the caller hears back.
      if (opts.cache && method !== 'GET' && (result.status ?? 200) < 300) {
        await opts.cache.invalidate(tagsOf(match.contract.id, result));
      }
      res.status(result.status ?? 200);
      if (result.headers) res.set(result.headers);
      if (method === 'GET') res.set('Vary', VARY);
      if (credentials) res.set('Cache-Control', PRIVATE_CACHE_CONTROL);
      res.type('application/json').send(JSON.stringify(result.body));
    } catch (err) {
      if (res.headersSent) return;
      if (credentialsOf(req)) res.set('Cache-Control', 'private, no-store');
      sendError(res, toApiError(err, opts.log, requestId));
    }
  });
  return router;
}
