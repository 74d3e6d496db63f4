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
      params: paramsOf(err),
      upstream_code: err.code,
    });
  }
  return err;
}

/** The argument a WordPress refusal is about, for refusals that name none (`rest_invalid_author`). */
const PARAM_OF_CODE: Readonly<Record<string, string>> = {
  rest_invalid_author: 'author',
  rest_invalid_date: 'date',
  rest_invalid_featured_media: 'image',
  rest_invalid_term_id: 'categories',
  rest_post_invalid_page_number: 'page',
};

/** `data.params` of a refusal: WordPress's own, else the argument its code is about, with its message. */
export function paramsOf(err: ApiError): Record<string, unknown> {
  const own = err.data.params;
  if (own && typeof own === 'object' && Object.keys(own).length > 0) return own as Record<string, unknown>;
  const name = PARAM_OF_CODE[err.code];
  return name ? { [name]: err.message } : {};
}
