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

// ---- WordPress's codes (the REST server's and core controllers') ----

/**
 * `rest_invalid_param` as WordPress's request validation emits it: one message per parameter, each naming it.
 * `details` adds a machine-readable reason where one helps.
 */
export function invalidParams(params: Record<string, string>, details?: Record<string, unknown>): ApiError {
  const names = Object.keys(params);
  if (names.length === 0) throw new TypeError('invalidParams needs the parameter that failed.');
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, 400, {
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

export const noRoute = (): ApiError =>
  new ApiError('rest_no_route', 'No route was found matching the URL and request method.', 404);

/** `_jsonp` named a callback that is not a plain dotted identifier (WordPress's `wp_check_jsonp_callback`). */
export const jsonpCallbackInvalid = (): ApiError =>
  new ApiError('rest_callback_invalid', 'Invalid JSONP callback function.', 400);

/** `_jsonp` on a site that turned JSONP off (WordPress's `rest_jsonp_enabled` filter; JSONP_ENABLED here). */
export const jsonpDisabled = (): ApiError =>
  new ApiError('rest_callback_disabled', 'JSONP support is disabled on this site.', 400);

export const invalidJson = (): ApiError =>
  new ApiError('rest_invalid_json', 'Invalid JSON body passed.', 400);

export const tooLarge = (): ApiError =>
  new ApiError('rest_request_too_large', 'The request body is too large.', 413);

export const unreadable = (status: number): ApiError =>
  new ApiError('rest_bad_request', 'The request could not be read.', status);

export const tooManyQueryParams = (max: number): ApiError =>
  new ApiError(
    'rest_too_many_params',
    `The query string has more than ${max} parameters; the gateway reads at most ${max}.`,
    400,
  );

export const unknownNamespace = (): ApiError =>
  new ApiError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);

export const credentialsRejected = (): ApiError =>
  new ApiError('incorrect_password', 'The provided credentials were rejected by WordPress.', 401);

/** A WordPress error answered by the upstream, kept as it came (its own code, message and data). */
export const fromWordPress = (code: string, message: string, status: number, data: Record<string, unknown>) =>
  new ApiError(code, message, status, data);

// ---- TEC's codes (tec-contract.md) ----

export type LinkedKind = 'venue' | 'organizer';

export const notAnEvent = (id: number): ApiError =>
  new ApiError('rest-invalid-event-id', `The post with ID ${id} is not an event.`, 400);

export const eventNotFound = (id: number): ApiError =>
  new ApiError('rest-event-not-found', `The event with ID ${id} does not exist.`, 404);

export const passwordProtected = (): ApiError =>
  new ApiError('event-password-protected', 'The event is password protected.', 403);

export const eventNotAccessible = (id: number): ApiError =>
  new ApiError('event-not-accessible', `The event with ID ${id} is not accessible.`, 403);

export const eventGone = (id: number): ApiError =>
  new ApiError('event-no-longer-available', `The event with ID ${id} is no longer available.`, 403);

export const eventInTrash = (id: number): ApiError =>
  new ApiError('event-is-in-trash', `The event with ID ${id} is already in the trash.`, 410);

/** `event-archive-page-not-found`, `venue-archive-page-not-found`, `organizer-archive-page-not-found`. */
export const archivePageNotFound = (kind: 'event' | LinkedKind): ApiError =>
  new ApiError(`${kind}-archive-page-not-found`, `The requested ${kind} archive page does not exist`, 404);

export const linkedNotAccessible = (kind: LinkedKind, id: number): ApiError =>
  new ApiError(`${kind}-not-accessible`, `The ${kind} with ID ${id} is not accessible.`, 403);

export const linkedInTrash = (kind: LinkedKind, id: number): ApiError =>
  new ApiError(`${kind}-is-in-trash`, `The ${kind} with ID ${id} is already in the trash.`, 410);

export const notALinkedPost = (kind: LinkedKind): ApiError =>
  new ApiError('invalid-linked-post-id', `The ${kind} id is not a ${kind}.`, 400);

/**
 * `could-not-create-venue` and its kin: a write WordPress refused for a reason no one argument explains, or a
 * trash that failed (`could-not-delete-event`, 500).
 */
export const couldNot = (
  verb: 'create' | 'update' | 'delete',
  kind: 'event' | LinkedKind,
  why: string | undefined,
  status = 400,
  extra: Record<string, unknown> = {},
): ApiError =>
  new ApiError(
    `could-not-${verb}-${kind}`,
    `The ${kind} could not be ${verb}d${why ? `: ${why}` : '.'}`,
    status,
    extra,
  );

// ---- The gateway's own codes ----

export const internalError = (requestId: string | undefined): ApiError =>
  new ApiError('internal_error', 'The gateway failed to answer this request.', 500, {
    request_id: requestId,
  });

export const misconfigured = (): ApiError =>
  new ApiError('gateway_misconfigured', 'No service credential configured.', 500);

/** WordPress answered something the gateway cannot read (cut off, not JSON, not an object). */
export const badUpstreamAnswer = (message: string, upstreamStatus?: number): ApiError =>
  new ApiError(
    'upstream_bad_response',
    message,
    502,
    upstreamStatus ? { upstream_status: upstreamStatus } : {},
  );

/** WordPress failed (5xx: 502 to the caller) or answered an HTTP error without a WordPress error body. */
export const upstreamFailed = (status: number): ApiError =>
  status >= 500
    ? new ApiError('upstream_error', `WordPress failed with HTTP ${status}.`, 502, {
        upstream_status: status,
      })
    : new ApiError('upstream_error', `WordPress answered HTTP ${status}.`, status, { upstream: true });

export const upstreamTimeout = (): ApiError =>
  new ApiError('upstream_timeout', 'WordPress did not answer in time.', 504);

export const upstreamUnreachable = (): ApiError =>
  new ApiError('upstream_unavailable', 'WordPress cannot be reached.', 503);

export const upstreamBusy = (): ApiError =>
  new ApiError(
    'upstream_busy',
    'WordPress is busy: too many requests are waiting for it. Try again in a moment.',
    503,
    { retry_after: 1 },
  );

/**
 * Too many wrong post passwords from this client (src/http/password-guesses.ts): refused, whatever the password,
 * until the window ends, so the answer says nothing about the guess.
 */
export const tooManyPasswordAttempts = (retryAfterSeconds: number): ApiError =>
  new ApiError(
    'too_many_password_attempts',
    'Too many wrong passwords were tried from your address. Try again later.',
    429,
    { retry_after: retryAfterSeconds },
  );

/**
 * Too many failed sign-ins (Basic or cookie) from this address, or for this user name from it (src/auth/throttle.ts):
 * refused before WordPress is asked, whatever the password, and the same for a user name that does not exist.
 */
export const tooManyAuthAttempts = (retryAfterSeconds: number): ApiError =>
  new ApiError(
    'too_many_auth_attempts',
    'Too many failed sign-ins were tried from your address. Try again later.',
    429,
    { retry_after: retryAfterSeconds },
  );

/**
 * What only the shared store holds (the changes feed, webhook subscriptions and deliveries) could not be read or
 * written: Redis did not answer in time, or is down or failing over (src/cache/redis.ts `isRedisUnavailable`).
 */
export const storeUnavailable = (): ApiError =>
  new ApiError(
    'store_unavailable',
    "The gateway's shared store (Redis) did not answer. Try again in a moment.",
    503,
    { retry_after: 1 },
  );

export const aborted = (): ApiError => new ApiError('request_aborted', 'The request was aborted.', 499);

/** An event write whose venue, organizer, term or image was deleted under it twice (src/events/write.ts). */
export const linkedRemoved = (): ApiError =>
  new ApiError(
    'linked_record_removed',
    'A venue, organizer, term or image this write links to was being removed by a failed write; nothing was written. Try again.',
    503,
    { retry_after: 1 },
  );

/** Another write to the same recurring series held its turn past the wait (src/recurrence/series-lock.ts). */
export const seriesBusy = (): ApiError =>
  new ApiError(
    'event_series_busy',
    'Another change to this recurring series is still being written; nothing was written. Try again in a moment.',
    409,
    { retry_after: 1 },
  );

export const idempotencyKeyReused = (): ApiError =>
  new ApiError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used for a different request.',
    422,
  );

export const idempotencyInProgress = (): ApiError =>
  new ApiError(
    'idempotency_in_progress',
    'A request with this Idempotency-Key is still being processed; retry in a moment.',
    409,
    { retry_after: 1 },
  );

/** Cache operations: 401 without an administrator's credentials, 403 for a caller who cannot manage options. */
export const needsAdministrator = (what: string, loggedIn: boolean): ApiError =>
  loggedIn
    ? new ApiError('rest_forbidden', `${what} needs the manage_options capability.`, 403)
    : new ApiError('rest_forbidden', `${what} needs a WordPress administrator.`, 401);

export const webhookDisabled = (): ApiError =>
  new ApiError('gateway_webhook_disabled', 'Change notifications are off: set WEBHOOK_SECRET.', 404);

export const badSignature = (header: string): ApiError =>
  new ApiError('gateway_bad_signature', `Missing or wrong ${header}.`, 401);

export const badNotification = (reason: string, status: number): ApiError =>
  new ApiError('gateway_bad_notification', reason, status);

export const replayedNotification = (): ApiError =>
  new ApiError('gateway_replayed', 'This notification was already received.', 409);

// ---- The changes feed (src/changes/) ----

/** A cursor older than the feed keeps (or of another log): the reader starts again with an initial sync. */
export const changesCursorExpired = (retentionDays: number): ApiError =>
  new ApiError(
    'changes_cursor_expired',
    `This cursor is older than the ${retentionDays} days the changes feed keeps, or from a log that was reset: changes after it may be lost. Sync again from the start with since=0, then go on from its next cursor.`,
    410,
    { resync: 'since=0', retention_days: retentionDays },
  );

/** More long polls or event streams of the changes feed from one address than CHANGES_WAITS_PER_CLIENT. */
export const tooManyChangeWaits = (max: number): ApiError =>
  new ApiError(
    'changes_too_many_waits',
    `At most ${max} long polls or event streams of the changes feed may be open from one address at once.`,
    429,
    { retry_after: 5 },
  );

// ---- outbound webhooks (src/webhooks/) ----

export const webhookNotFound = (): ApiError =>
  new ApiError('gateway_webhook_not_found', 'No webhook subscription has this id.', 404);

export const webhookMessageNotFound = (): ApiError =>
  new ApiError(
    'gateway_webhook_message_not_found',
    'This subscription has no message with this id (delivered and failed messages are kept 7 days).',
    404,
  );
