// The one query-string parser of a request: the cache key, the shareability decision and the handlers all read
// what it returns, so no part of the gateway can see parameters another part does not.
import type { IncomingMessage } from 'node:http';
import qs from 'qs';
import { type ApiError, tooManyQueryParams } from './errors.ts';

/** As many parameters as PHP keeps (`max_input_vars`); a longer query is refused rather than cut short. */
export const MAX_QUERY_PARAMS = 1000;

export type ParsedQuery = Record<string, unknown>;

/** Too many parameters: refused whole, since any cut would make two readers of one request disagree. */
export const tooManyParams = (): ApiError => tooManyQueryParams(MAX_QUERY_PARAMS);

/**
 * Parses a query string as WordPress's PHP would (`a[]=1&a[]=2`, `a[b]=1`), with prototype keys dropped, and
 * throws {@link tooManyParams} past the limit. Pure.
 */
export function parseQueryString(search: string): ParsedQuery {
  try {
    return qs.parse(search, {
      parameterLimit: MAX_QUERY_PARAMS,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
      depth: 5,
    }) as ParsedQuery;
  } catch (err) {
    if (err instanceof RangeError) throw tooManyParams();
    throw err;
  }
}

const parsed = new WeakMap<IncomingMessage, ParsedQuery>();

/** The query of a request, parsed once (express's `req.query` parses again on every read). Throws past the limit. */
export function queryOf(req: IncomingMessage): ParsedQuery {
  let q = parsed.get(req);
  if (!q) {
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
    const at = url.indexOf('?');
    q = at < 0 ? {} : parseQueryString(url.slice(at + 1));
    parsed.set(req, q);
  }
  return q;
}

/** Like {@link queryOf}, but an unreadable query counts as none (for decisions that must not throw, e.g. logging). */
export function queryOrEmpty(req: IncomingMessage): ParsedQuery {
  try {
    return queryOf(req);
  } catch {
    return {};
  }
}

/** A path segment decoded, or undefined when its percent-encoding is broken (`%zz`, a cut UTF-8 sequence). */
export function decodeSegment(v: string): string | undefined {
  try {
    return decodeURIComponent(v);
  } catch {
    return undefined;
  }
}

/** For express's `req.query` outside the namespace (the site index, operator routes): the same parser, never throwing. */
export function parseQueryStringOrEmpty(search: string): ParsedQuery {
  try {
    return parseQueryString(search);
  } catch {
    return {};
  }
}
