// Maps WordPress's refusals of a write onto the contract's codes (permission → rest_forbidden 401/403).
import { ApiError } from '../http/errors.ts';

const PERMISSION = /^rest_cannot_|^rest_forbidden/;

export function writeError(err: unknown, loggedIn: boolean): unknown {
  if (!(err instanceof ApiError)) return err;
  if (PERMISSION.test(err.code) || err.status === 401 || err.status === 403) {
    return new ApiError(
      'rest_forbidden',
      err.message || 'Sorry, you are not allowed to do that.',
      loggedIn ? 403 : 401,
    );
  }
  if (err.status === 400 && err.code !== 'rest_invalid_param') {
    return new ApiError('rest_invalid_param', err.message, 400, {
      params: err.data.params ?? {},
      upstream_code: err.code,
    });
  }
  return err;
}
