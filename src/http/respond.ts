// What every answer outside a route's own stages needs: the public base URL, and errors as WordPress's error body.
import type { Request, Response } from 'express';
import { isRedisUnavailable } from '../cache/redis.ts';
import type { Logger } from '../log.ts';
import { type Answer, answerOf } from './answer.ts';
import { ApiError, internalError, invalidJson, storeUnavailable, tooLarge, unreadable } from './errors.ts';
import { schemeOf } from './forwarded.ts';

/** A Host header that is a host name or address with an optional port, and nothing else. */
const SANE_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The base URL clients reach us at: PUBLIC_URL, else the request's scheme (src/http/forwarded.ts) and Host. A Host
 * that is not a plain host name (an injection attempt: `evil.example/x?`, quotes, spaces) is not echoed into links.
 */
export const publicBase = (req: Request, publicUrl: string | undefined): string => {
  if (publicUrl) return publicUrl;
  const host = req.get('host') ?? '';
  return `${schemeOf(req)}://${SANE_HOST.test(host) ? host : 'localhost'}`;
};

/** Turns whatever was thrown into the WordPress error body; unexpected errors never leak a stack. */
export function toApiError(err: unknown, log: Logger, requestId: string): ApiError {
  if (err instanceof ApiError) {
    if (err.code === 'upstream_error' && typeof err.cause === 'string') {
      log.warn({ requestId, upstream: err.data, why: err.cause }, 'WordPress failed on its side');
    }
    return err;
  }
  const e = err as { type?: string; status?: number } | null;
  if (e?.type === 'entity.parse.failed') return invalidJson();
  if (e?.type === 'entity.too.large') return tooLarge();
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return unreadable(e.status);
  // Redis late or down under a route that needs it (not a bug of ours): a refusal that passes, as WordPress's busy is.
  if (isRedisUnavailable(err)) {
    log.warn({ err: (err as Error).message, requestId }, 'Redis did not answer a request that needs it');
    return storeUnavailable();
  }
  log.error({ err, requestId }, 'unexpected error');
  return internalError(requestId);
}

/** An error as an answer; a refusal that passes by itself (WordPress busy) says when to come back. */
export function errorAnswer(err: ApiError): Answer {
  const headers: Record<string, string> = {};
  if (typeof err.data.retry_after === 'number') headers['retry-after'] = String(err.data.retry_after);
  return answerOf(JSON.stringify(err.toJSON()), { status: err.status, headers });
}

/** An error sent by express itself (outside the stages): no shared cache keeps it (a 404 is cacheable by default). */
export function sendError(res: Response, err: ApiError): void {
  const a = errorAnswer(err);
  if (!res.get('cache-control')) res.set('cache-control', 'no-store');
  res.status(a.status).set(a.headers).type('application/json').send(a.body);
}
