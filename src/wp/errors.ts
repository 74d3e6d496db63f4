// What WordPress (or the network) answered, in the gateway's one error type: carried over as WordPress said it,
// and, for calls made for a caller, put in TEC's words. The constructors themselves are the table in http/errors.ts.
import {
  ApiError,
  aborted,
  forbidden,
  fromWordPress,
  invalidParams,
  upstreamFailed,
  upstreamTimeout,
  upstreamUnreachable,
} from '../http/errors.ts';
import type { WpErrorBody } from './types.ts';

/**
 * A WordPress refusal (4xx, and 503/504) keeps its code, message and status; data other than status is kept as well.
 * WordPress failing on its side (500 and the other 5xx: a database error, `wp_mkdir_p` losing a race on a new month's
 * upload folder) is the gateway's upstream failing: 502 `upstream_error`, with WordPress's status and code kept in `data` (its message,
 * which can name server paths, goes to the log only).
 */
export function mapUpstreamError(status: number, body: WpErrorBody | null): ApiError {
  // 503 and 504 are WordPress (or its host) saying "not now": passed on as they are, so a caller may retry.
  if (status >= 500 && status !== 503 && status !== 504) {
    const failed = upstreamFailed(status);
    if (body && typeof body.code === 'string') {
      failed.data.upstream_code = body.code;
      failed.cause = body.message; // for the log (toApiError), not for the caller
    }
    return failed;
  }
  if (body && typeof body.code === 'string') {
    const { status: _s, ...rest } = body.data ?? {};
    return fromWordPress(body.code, body.message ?? 'WordPress refused the request.', status, {
      ...rest,
      upstream: true,
    });
  }
  return upstreamFailed(status);
}

/**
 * Network failure or timeout talking to WordPress. The system error (`ENOTFOUND`, `ECONNREFUSED`) is for the log
 * only: it tells an outsider how the upstream is reached.
 */
export function upstreamUnavailable(err: unknown, timedOut: boolean): ApiError {
  const e = timedOut
    ? upstreamTimeout()
    : (err as Error | null)?.name === 'AbortError'
      ? aborted()
      : upstreamUnreachable();
  // For the log (causeOf), never for the answer: ApiError's JSON is code, message and data only.
  e.cause = err;
  return e;
}

/**
 * The innermost cause of an error, as one line for the log: `fetch failed` says nothing, its cause
 * (`connect ECONNREFUSED 10.0.0.5:80`, `getaddrinfo ENOTFOUND wordpress`) says what to fix.
 */
export function causeOf(err: unknown): string | undefined {
  let inner: unknown = (err as Error | null)?.cause;
  if (inner === undefined) return undefined;
  while ((inner as Error | null)?.cause !== undefined) inner = (inner as Error).cause;
  const e = inner as (Error & { code?: string }) | null;
  return e?.message || e?.code || String(inner);
}

const PERMISSION = /^rest_cannot_|^rest_forbidden/;

/** The argument a WordPress refusal is about, for refusals that name none (`rest_invalid_author`). */
const PARAM_OF_CODE: Readonly<Record<string, string>> = {
  rest_invalid_author: 'author',
  rest_invalid_date: 'date',
  rest_invalid_featured_media: 'image',
  rest_invalid_term_id: 'categories',
  rest_post_invalid_page_number: 'page',
};

/** `data.params` of a refusal: WordPress's own, else the argument its code is about, with its message. */
export function paramsOf(err: ApiError): Record<string, string> {
  const own = err.data.params;
  if (own && typeof own === 'object' && !Array.isArray(own) && Object.keys(own).length > 0) {
    return Object.fromEntries(Object.entries(own).map(([k, v]) => [k, String(v)]));
  }
  const name = PARAM_OF_CODE[err.code];
  return name ? { [name]: err.message } : {};
}

/**
 * WordPress's refusal of a call made for a caller (a write, a term read), in TEC's words, the same for events,
 * venues, organizers and terms: a permission refusal is `rest_forbidden` (401 anonymous, 403 signed in); an
 * unknown term id is a 400 about `id`; a 400 about one argument is `rest_invalid_param` naming it (WordPress's
 * code kept in `data.upstream_code`); a 400 about none keeps WordPress's code and data (`term_exists` with its
 * `term_id`), which a venue or organizer write turns into TEC's `could-not-…`. Anything else passes unchanged.
 */
export function refusal(err: unknown, loggedIn: boolean): unknown {
  if (!(err instanceof ApiError)) return err;
  if ((PERMISSION.test(err.code) && err.status < 500) || err.status === 401 || err.status === 403) {
    return forbidden(loggedIn, err.message || undefined);
  }
  if (err.status === 404 && err.code === 'rest_term_invalid')
    return invalidParams({ id: 'id: no term with this id.' });
  if (err.status !== 400 || err.code === 'rest_invalid_param') return err;
  const params = paramsOf(err);
  if (Object.keys(params).length > 0) return invalidParams(params, { upstream_code: err.code });
  const { status: _s, upstream: _u, ...data } = err.data;
  return fromWordPress(err.code, err.message, 400, data);
}

/**
 * WordPress itself failed a trash (it answered a 5xx): TEC's `could-not-delete-…` (500). WordPress out of reach or
 * too slow (503, 504 of the gateway's own) is not: the caller is told so, and may retry.
 */
export const trashFailed = (err: unknown): boolean =>
  err instanceof ApiError && err.code === 'upstream_error';
