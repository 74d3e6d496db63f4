// One log line and one metric per request that reached express, answered or hung up: route, status, duration, cache
// source, caller kind, and the query with its secrets redacted.
import type { NextFunction, Request, Response } from 'express';
import { OPS_PREFIX } from '../cache/ops.ts';
import { REFERENCE_PATH } from '../discovery/reference.ts';
import { credentialsOf } from '../http/credentials.ts';
import type { Logger } from '../log.ts';
import type { AnswerSource, Metrics } from './metrics.ts';
import { redactUrl } from './redact.ts';

/** The operator routes under OPS_PREFIX (src/cache/ops.ts). */
const OPS_ROUTES = new Set(['health', 'ready', 'status', 'metrics', 'purge', 'notify']);

/**
 * The name of a route the calendar adapter does not name (it names its own: `events.list`…), from the request's
 * path: `ops.health`… for the operator routes, `reference` for the reference page, `site.index` for a REST root's
 * index, `api.no-route` for an unknown path in the calendar namespace, and `proxy.wp/v2`, `proxy.rest` (another
 * namespace) or `proxy.site` (a page) for what goes to WordPress. A fixed set, so metrics labels stay few. Pure.
 */
export function routeOfPath(path: string): string {
  if (path === REFERENCE_PATH || path.startsWith(`${REFERENCE_PATH}/`)) return 'reference';
  if (path.startsWith(`${OPS_PREFIX}/`)) {
    const name = path.slice(OPS_PREFIX.length + 1).replace(/\/+$/, '');
    // Every webhook route is one label: their ids would make labels without end.
    if (/^webhooks(\/|$)/.test(name)) return 'ops.webhooks';
    return OPS_ROUTES.has(name) ? `ops.${name}` : 'ops.no-route';
  }
  const rest = /^\/(?:[a-z]{2}\/)?wp-json(?:\/(.*))?$/i.exec(path);
  if (!rest) return 'proxy.site';
  const tail = (rest[1] ?? '').replace(/\/+$/, '');
  if (tail === '') return 'site.index';
  if (/^calendar\/events\/v1(\/|$)/.test(tail)) return 'api.no-route';
  return /^wp\/v2(\/|$)/.test(tail) ? 'proxy.wp/v2' : 'proxy.rest';
}

/**
 * Runs first in the app. The adapter names the route (`res.locals.route`) and the cache tier that answered
 * (`res.locals.cacheSource`); other routes are named by their path (`routeOfPath`). The caller is described by kind
 * only (`anonymous`, `basic`, `cookie`), never by credentials or user name; the query's credentials (`password`,
 * `_wpnonce`, tokens, keys, signatures: src/observe/redact.ts) are logged as `[redacted]`. Fast-path hits never reach
 * express: they are counted by the fast path instead.
 */
export function requestLog(log: Logger, metrics?: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const t0 = performance.now();
    // express rewrites req.url inside its routers: the URL as it came is originalUrl.
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    // `close`, not `finish`: a caller that hangs up never lets the answer finish, and is logged all the same (499,
    // as nginx names it), with how long the gateway worked on it.
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 499;
      const credentials = credentialsOf(req);
      const named = typeof res.locals.route === 'string';
      const route = named ? (res.locals.route as string) : routeOfPath(path);
      const source: AnswerSource =
        res.locals.cacheSource ?? (credentials ? 'private' : named ? 'wordpress' : 'none');
      metrics?.request(route, req.method, status, source);
      log.info(
        {
          method: req.method,
          route,
          path,
          ...(q === -1 ? {} : { query: redactUrl(url.slice(q)).slice(1) }),
          status,
          ms: Math.round((performance.now() - t0) * 10) / 10,
          source,
          requestId: res.getHeader('x-request-id'),
          caller: credentials?.kind ?? 'anonymous',
        },
        'request',
      );
    });
    next();
  };
}
