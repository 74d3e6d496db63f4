// CORS as WordPress's REST server sends it (rest_send_cors_headers), so browser apps on other origins can call us.
import type { NextFunction, Request, Response } from 'express';

export const CORS_METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
/** WordPress exposes its totals and Link; TEC's own total headers are exposed as well. */
export const CORS_EXPOSE = 'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages';
/** WordPress's list, plus `Idempotency-Key` (safe retries of writes, src/stages/idempotency.ts). */
export const CORS_ALLOW_HEADERS =
  'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Idempotency-Key';

/** Which origins get `Access-Control-Allow-Origin`: any (WordPress's default) or the configured ones. */
export type OriginRule = (origin: string) => boolean;

export function originRule(allowed: readonly string[] | undefined): OriginRule {
  if (!allowed || allowed.length === 0 || allowed.includes('*')) return () => true;
  const set = new Set(allowed.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return (origin) => set.has(origin.toLowerCase());
}

/** An Origin header we may echo: `null` (file: and data: pages) or `scheme://host[:port]`, nothing else. */
const echoable = (origin: string) => origin === 'null' || /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/i.test(origin);

/**
 * What every REST answer carries, whoever asks: WordPress's CORS lists and its security headers
 * (`WP_REST_Server::serve_request` sends `X-Content-Type-Options: nosniff` and `X-Robots-Tag: noindex`).
 */
const WITHOUT_ORIGIN: Readonly<Record<string, string>> = Object.freeze({
  'access-control-expose-headers': CORS_EXPOSE,
  'access-control-allow-headers': CORS_ALLOW_HEADERS,
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex',
});

/**
 * `Origin: null` comes from sandboxed frames and file: pages, which any site can open: such a page may read what
 * anyone may read, but never with the visitor's credentials (WordPress would allow them).
 */
const NULL_ORIGIN: Readonly<Record<string, string>> = Object.freeze({
  ...WITHOUT_ORIGIN,
  'access-control-allow-origin': 'null',
  'access-control-allow-methods': 'OPTIONS, GET',
});

/** Origins whose headers were made lately; a page embedding the calendar sends the same one on every call. */
const ORIGINS_KEPT = 256;
const withOrigin = new Map<string, Readonly<Record<string, string>>>();

/**
 * The CORS and security headers of a REST answer to a request with this Origin: one frozen object per origin, so a
 * stored answer's header list made for it (src/http/send.ts) serves that origin's next hits as well.
 */
export function corsHeaders(origin: string | undefined, allow: OriginRule): Readonly<Record<string, string>> {
  // The common case (no Origin: a server or a same-origin page) allocates nothing.
  if (!origin || !echoable(origin) || !allow(origin)) return WITHOUT_ORIGIN;
  if (origin === 'null') return NULL_ORIGIN;
  let made = withOrigin.get(origin);
  if (made === undefined) {
    // Bounded: a flood of made-up origins costs a rebuild now and then, never memory.
    if (withOrigin.size >= ORIGINS_KEPT) withOrigin.clear();
    made = Object.freeze({
      ...WITHOUT_ORIGIN,
      'access-control-allow-origin': origin,
      'access-control-allow-methods': CORS_METHODS,
      'access-control-allow-credentials': 'true',
    });
    withOrigin.set(origin, made);
  }
  return made;
}

/** Sets the CORS headers on everything below a REST root (the namespace, the site index, proxied wp/v2). */
export function cors(allow: OriginRule) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.set(corsHeaders(req.get('origin'), allow));
    next();
  };
}
