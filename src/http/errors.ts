// The one error type of the gateway, serialised as WordPress does: {code, message, data: {status, ...}}.

export type ErrorData = { status: number } & Record<string, unknown>;

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: ErrorData;

  constructor(code: string, message: string, status: number, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.data = { status, ...extra };
  }

  toJSON(): { code: string; message: string; data: ErrorData } {
    return { code: this.code, message: this.message, data: this.data };
  }
}

/** `rest_invalid_param` as WordPress's request validation emits it: one message per parameter. */
export function invalidParams(params: Record<string, string>, details?: Record<string, unknown>): ApiError {
  const names = Object.keys(params).join(', ');
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${names}`, 400, {
    params,
    ...(details ? { details } : {}),
  });
}

/** `rest_missing_callback_param`: required arguments absent. */
export function missingParams(names: string[]): ApiError {
  return new ApiError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, {
    params: names,
  });
}

/** `rest_forbidden`: 401 for anonymous callers, 403 for logged-in ones (WordPress's rule). */
export function forbidden(loggedIn: boolean, message = 'Sorry, you are not allowed to do that.'): ApiError {
  return new ApiError('rest_forbidden', message, loggedIn ? 403 : 401);
}

export function noRoute(): ApiError {
  return new ApiError('rest_no_route', 'No route was found matching the URL and request method.', 404);
}
