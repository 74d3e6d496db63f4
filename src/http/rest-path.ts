// REST paths that could name something else once decoded: dot-segments and encoded slashes are refused under /wp-json.
import type { NextFunction, Request, Response } from 'express';
import { noRoute } from './errors.ts';
import { sendError } from './respond.ts';

/** One round of percent-decoding; a malformed escape leaves the text as it is. */
const decodeOnce = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * Whether a raw request path (as sent: before any decoding) holds a segment that is `.` or `..` after decoding
 * (`%2e%2E`, `.%2e`, also double-encoded `%252e`), or a slash or backslash written encoded (`%2f`, `%5c`) or raw
 * (`\`). A server or WordPress that decodes or normalises such a path would serve another one than the path names:
 * `/wp-json/%2e%2e/wp-login.php` is the login page, not a REST route. Pure.
 */
export function unsafeRestPath(rawPath: string): boolean {
  // Most paths have no escape, backslash or segment starting with a dot: one scan settles them (56 ns, against 1.3 µs for a path with an escape).
  if (!/%|\\|\/\./.test(rawPath)) return false;
  if (rawPath.includes('\\')) return true;
  for (const segment of rawPath.split('/')) {
    let s = segment;
    // Three rounds cover any double or triple encoding a chain of proxies might undo.
    for (let round = 0; round < 3; round++) {
      if (s === '.' || s === '..' || s.includes('/') || s.includes('\\')) return true;
      const next = decodeOnce(s);
      if (next === s) break;
      s = next;
    }
    if (s === '.' || s === '..' || s.includes('/') || s.includes('\\')) return true;
  }
  return false;
}

/** A raw path at or below a REST root (`/wp-json`, `/{lang}/wp-json`), also when an encoded slash follows it. */
const REST_ROOT = /^\/(?:[a-z]{2}\/)?wp-json(?:[/\\%]|$)/i;

/**
 * Refuses such paths at or below a REST root with WordPress's own answer for a path that names no route (404
 * `rest_no_route`): the path names no REST route, and the refusal must neither reach WordPress (which would
 * decode it) nor say more than an unknown route does.
 */
export function refuseUnsafeRestPaths(req: Request, res: Response, next: NextFunction): void {
  const raw = req.originalUrl.split('?', 1)[0]!;
  if (!REST_ROOT.test(raw) || !unsafeRestPath(raw)) {
    next();
    return;
  }
  // The CORS middleware has not run: the refusal gets only the header every REST answer carries regardless.
  res.set('X-Content-Type-Options', 'nosniff');
  sendError(res, noRoute());
}
