// Maps what WordPress (or the network) answered into the gateway's one error type.
import { ApiError } from '../http/errors.ts';
import type { WpErrorBody } from './types.ts';

/** A WordPress error keeps its code, message and status; data other than status is kept as well. */
export function mapUpstreamError(status: number, body: WpErrorBody | null): ApiError {
  if (body && typeof body.code === 'string') {
    const { status: _s, ...rest } = body.data ?? {};
    return new ApiError(body.code, body.message ?? 'WordPress refused the request.', status, {
      ...rest,
      upstream: true,
    });
  }
  if (status >= 500) {
    return new ApiError('upstream_error', `WordPress failed with HTTP ${status}.`, 502, {
      upstream_status: status,
    });
  }
  return new ApiError('upstream_error', `WordPress answered HTTP ${status}.`, status, { upstream: true });
}

/**
 * Network failure or timeout talking to WordPress. The system error (`ENOTFOUND`, `ECONNREFUSED`) is for the log
 * only: it tells an outsider how the upstream is reached.
 */
export function upstreamUnavailable(err: unknown, timedOut: boolean): ApiError {
  if (timedOut) return new ApiError('upstream_timeout', 'WordPress did not answer in time.', 504);
  if ((err as Error | null)?.name === 'AbortError') {
    return new ApiError('request_aborted', 'The request was aborted.', 499);
  }
  return new ApiError('upstream_unavailable', 'WordPress cannot be reached.', 503);
}
