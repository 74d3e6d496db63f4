// One log line and one metric per request that reached express, answered or hung up: route, status, duration, cache
// source, caller kind.
import type { NextFunction, Request, Response } from 'express';
import { credentialsOf } from '../http/credentials.ts';
import type { Logger } from '../log.ts';
import type { AnswerSource, Metrics } from './metrics.ts';

/**
 * Runs first in the app. The adapter names the route (`res.locals.route`) and the cache tier that answered
 * (`res.locals.cacheSource`); the caller is described by kind only (`anonymous`, `basic`, `cookie`), never by
 * credentials or user name. Fast-path hits never reach express: they are counted by the fast path instead.
 */
export function requestLog(log: Logger, metrics?: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const t0 = performance.now();
    // `close`, not `finish`: a caller that hangs up never lets the answer finish, and is logged all the same (499,
    // as nginx names it), with how long the gateway worked on it.
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 499;
      const credentials = credentialsOf(req);
      const route = typeof res.locals.route === 'string' ? res.locals.route : 'other';
      const source: AnswerSource =
        res.locals.cacheSource ?? (credentials ? 'private' : route === 'other' ? 'none' : 'wordpress');
      metrics?.request(route, req.method, status, source);
      log.info(
        {
          method: req.method,
          route,
          path: req.path,
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
