// Wires contract routes to express: matches WordPress-style route regexes, runs the app's stages over the request
// (src/app.ts composes them), and sends the answer they leave. OPTIONS is answered here, as WordPress describes a
// route.
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import express from 'express';
import { compilePattern, type RouteContract } from '../contract/route.ts';
import type { Logger } from '../log.ts';
import { jsonpRefusal, shaped, shapeOf } from '../stages/shape.ts';
import { unsharedHeaders } from './answer.ts';
import { credentialsOf } from './credentials.ts';
import { type ApiError, invalidParams, noRoute } from './errors.ts';
import { compose, type Exchange, type Stage } from './exchange.ts';
import { effectiveMethod, globalsOf } from './globals.ts';
import type { Binding } from './handler.ts';
import { decodeSegment, queryOf, queryOrEmpty } from './query.ts';
import { errorAnswer, publicBase, sendError, toApiError } from './respond.ts';
import { sendAnswer } from './send.ts';

export interface ApiRootOptions {
  /** Where the namespace is mounted, e.g. `/wp-json/calendar/events/v1`. */
  prefix: string;
  defaultLanguage: string;
  /** Public base URL override (otherwise taken from the request's protocol and Host). */
  publicUrl?: string;
  home: string;
  timezone: string;
  log: Logger;
  /** The stages a matched request runs through, in order (src/app.ts). */
  stages: readonly Stage[];
  /** Whether `_jsonp` is served (JSONP_ENABLED; WordPress's `rest_jsonp_enabled`, on by default). */
  jsonp?: boolean;
  /** The body of an OPTIONS answer for the contracts of one route (WordPress describes the route). */
  describe?: (contracts: RouteContract[], apiRoot: string) => unknown;
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

/**
 * Whether an answer is the caller's own, never to be kept by a browser, proxy or CDN: one for a signed-in caller, or
 * one that depends on a post `password` (the record unlocked, or 403 for a wrong one).
 */
const isOwn = (x: Pick<Exchange, 'credentials' | 'raw'>): boolean =>
  x.credentials !== undefined || x.raw.password !== undefined;

/** Sends what the stages left: a shared answer with its validator, anything else with this request's headers. */
function send(x: Exchange): void {
  if (!x.answer) throw new Error('the stages left no answer');
  if (x.source) x.res.locals.cacheSource = x.source;
  // A shared answer takes nothing from `extra` (its own Cache-Control wins): one object for all of them lets the
  // stored answer's header list, made once a second, serve hits through express too (an anonymous caller with a
  // site's analytics cookie comes this way on every read).
  // An unshared answer from the cache is a stored entry: a write's previous answer while its refill runs.
  const stored = x.source === 'memory' || x.source === 'redis';
  const extra = x.shared ? SHARED_EXTRA : unsharedHeaders(x.method, isOwn(x));
  sendAnswer(x.req, x.res, x.answer, { shared: x.shared, extra, stored });
}

const SHARED_EXTRA: Readonly<Record<string, string>> = Object.freeze({});

export function apiRouter(bindings: Binding[], opts: ApiRootOptions): express.Router {
  const router = express.Router();
  const compiled = bindings.map((b) => ({ ...b, regex: compilePattern(b.contract.pattern) }));
  const run = compose(opts.stages);
  const jsonp = opts.jsonp ?? true;

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

  router.use(async (req: Request, res: Response, next) => {
    const arrivedAt = Date.now();
    const requestId = (req.get('x-request-id') ?? randomUUID()).slice(0, 64);
    res.set('X-Request-Id', requestId);
    const path = req.path.replace(/\/+$/, '') || '';
    if (req.method === 'OPTIONS') return answerOptions(req, res, path);
    // `_method` / X-HTTP-Method-Override on a POST: the route, credentials, idempotency and writes of that method.
    const dispatched = effectiveMethod(req.method, queryOrEmpty(req), req.headers);
    const method = dispatched === 'HEAD' ? 'GET' : dispatched;
    let groups: Record<string, string> | undefined;
    const match = compiled.find((b) => {
      const m = b.regex.exec(path);
      if (!m || !(b.contract.methods as readonly string[]).includes(method)) return false;
      groups = m.groups;
      return true;
    });
    if (!match) {
      if (path === '' && method === 'GET') return next();
      return sendRefusal(req, res, noRoute(), credentialsOf(req) !== undefined);
    }
    res.locals.route = match.contract.id;
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const credentials = credentialsOf(req);
    // What an error is judged by when it comes before the exchange is made (a broken path parameter).
    let own: Pick<Exchange, 'credentials' | 'raw'> = { credentials, raw: {} };
    try {
      const params = pathParams(groups);
      const query = queryOf(req);
      const base = publicBase(req, opts.publicUrl);
      const x: Exchange = {
        req,
        res,
        binding: match,
        method,
        path,
        requestId,
        params,
        query,
        credentials,
        globals: globalsOf(query),
        site: { home: opts.home, timezone: opts.timezone, apiRoot: `${base}${opts.prefix}` },
        rootLanguage: opts.defaultLanguage,
        signal: controller.signal,
        arrivedAt,
        // A GET or HEAD body is ignored: it must never change a read's answer. Writes read theirs after authenticate.
        body: {},
        raw: { ...query, ...params },
      };
      own = x;
      await run(x);
      if (res.headersSent) return;
      send(x);
    } catch (err) {
      if (res.headersSent) return;
      sendRefusal(req, res, toApiError(err, opts.log, requestId), isOwn(own));
    }
  });

  /** An error met before the stages ran, shaped as the query's global parameters ask (WordPress's order). */
  const sendRefusal = (req: Request, res: Response, err: ApiError, own: boolean): void => {
    const query = queryOrEmpty(req);
    const globals = globalsOf(query);
    const shape = shapeOf(globals, query, jsonp);
    const answer =
      jsonpRefusal(globals, jsonp) ?? (shape ? shaped(errorAnswer(err), shape) : errorAnswer(err));
    // Never shared: a CDN must not keep an error for its own default time either.
    sendAnswer(req, res, answer, { extra: unsharedHeaders(req.method, own) });
  };
  return router;
}
