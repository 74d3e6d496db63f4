// The WordPress client: wp/v2 calls through @wordpress/api-fetch, credentials and options per call.
import apiFetchModule from '@wordpress/api-fetch';
import type { Credentials, RequestContext } from '../context.ts';
import { ApiError, aborted, badUpstreamAnswer, misconfigured, upstreamTimeout } from '../http/errors.ts';
import { nextSlice } from '../pace/turns.ts';
import { mapUpstreamError, upstreamUnavailable } from './errors.ts';
import { UpstreamLimiter } from './limiter.ts';
import type { WpErrorBody } from './types.ts';

export type QueryValue = string | number | boolean | ReadonlyArray<string | number> | undefined | null;
export type Query = Record<string, QueryValue>;

/** Who the upstream call is made as: the caller's own credentials, nobody, or the index's service account. */
export type As = { credentials?: Credentials } | 'anonymous' | 'service';

export interface WpRequest {
  /** Path below the REST root, e.g. `/wp/v2/tribe_events`. */
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  query?: Query;
  /** JSON data, or raw bytes (a media upload) sent as they are with `headers`. */
  body?: unknown;
  /** Extra request headers (a raw body's Content-Type and Content-Disposition). */
  headers?: Record<string, string>;
  as: As;
  signal?: AbortSignal;
  /** When the request this call is made for arrived (epoch ms): its calls share one deadline from then. */
  since?: number;
  /** Content language, sent as the mapping's language parameter. */
  language?: string;
}

/**
 * How a call made for a request goes upstream: with the caller's own credentials, abort signal and language, inside
 * the request's one deadline.
 */
export const asCaller = (ctx: RequestContext): Pick<WpRequest, 'as' | 'signal' | 'language' | 'since'> => ({
  as: { credentials: ctx.credentials },
  signal: ctx.signal,
  language: ctx.language,
  since: ctx.arrivedAt,
});

/**
 * `call`'s outcome, or 504 `upstream_timeout` once `ms` have passed, or `aborted` when `signal` aborts, whichever
 * comes first. The call itself is left to run (its own signal ends it).
 */
function settleWithin<T>(call: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => done(() => reject(aborted()));
    const timer = setTimeout(() => done(() => reject(upstreamTimeout())), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    call.then(
      (v) => done(() => resolve(v)),
      (err: unknown) => done(() => reject(err)),
    );
  });
}

export interface WpResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface WpClientOptions {
  /** REST root, e.g. `https://example.com/wp-json`. */
  baseUrl: string;
  /**
   * The same REST root as WordPress's answers name it, when the gateway reaches the site under another scheme or
   * host (src/wp/discover.ts): links in answers that start with it are WordPress's own, as ones under `baseUrl` are.
   */
  canonicalBaseUrl?: string;
  /** `user:application-password` of the service account (index builds only). */
  serviceAuth?: string;
  timeoutMs: number;
  /** Query parameter that selects the language upstream (`lang`, `wpml_language`), or null; sent on every call
   * that names a language, the default one included (Polylang answers every language when it is absent). */
  languageParam: string | null;
  defaultLanguage: string;
  /** WordPress calls in flight at most, and how many may wait (UPSTREAM_CONCURRENCY, UPSTREAM_QUEUE); unbounded when absent. */
  concurrency?: number;
  queue?: number;
  /** How long a call the gateway gave up on keeps its slot while WordPress may still be running it (ms). */
  slotGraceMs?: number;
}

export function buildQuery(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

// The package's types are read as CommonJS under NodeNext; at run time the ESM default export is the function.
type Fetcher = (options: Record<string, unknown>) => Promise<unknown>;
const apiFetch = apiFetchModule as unknown as Fetcher & { defaultFetchHandler: Fetcher };

/**
 * What api-fetch's middleware would add to a read: `_locale=user` (user-locale). Its other middlewares change
 * nothing on a GET (namespace-endpoint needs `namespace`, http-v1 rewrites PUT, PATCH and DELETE, fetch-all needs
 * `per_page=-1` and parsing).
 */
const READ_LOCALE = { _locale: 'user' } as const;

/** Answers longer than this (characters) wait for a turn with room before they are parsed (src/pace/turns.ts). */
const PARSE_IN_TURN_CHARS = 64 * 1024;

const basic = (userPass: string): string => `Basic ${Buffer.from(userPass).toString('base64')}`;

export class WpClient {
  readonly options: WpClientOptions;
  private readonly serviceHeader?: string;
  /** Epoch ms of the last answer from WordPress, whatever its status (readiness: "WordPress answered recently"). */
  lastAnsweredAt: number | undefined;
  readonly #limiter?: UpstreamLimiter;
  /** Told of every call's duration and outcome (metrics). */
  observer?: (call: { method: string; as: string; outcome: string; ms: number }) => void;

  constructor(options: WpClientOptions) {
    this.options = { ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
    this.serviceHeader = options.serviceAuth ? basic(options.serviceAuth) : undefined;
    if (options.concurrency) {
      this.#limiter = new UpstreamLimiter({
        concurrency: options.concurrency,
        queue: options.queue ?? 0,
        waitMs: options.timeoutMs,
      });
    }
  }

  /** The site's home URL: the REST root without `/wp-json`. */
  get siteUrl(): string {
    return this.options.baseUrl.replace(/\/wp-json$/, '');
  }

  private authHeaders(as: As): Record<string, string> {
    if (as === 'anonymous') return {};
    if (as === 'service') {
      if (!this.serviceHeader) throw misconfigured();
      return { Authorization: this.serviceHeader };
    }
    const c = as.credentials;
    if (!c) return {};
    if (c.kind === 'basic') return { Authorization: c.header };
    return { Cookie: c.cookie, 'X-WP-Nonce': c.nonce };
  }

  url(path: string, query: Query = {}, language?: string): string {
    const { languageParam } = this.options;
    const q: Query = { ...query };
    if (languageParam && language) q[languageParam] = language;
    return `${this.options.baseUrl}${path}${buildQuery(q)}`;
  }

  /**
   * One upstream call. Throws ApiError for WordPress errors (mapped), for an unreachable upstream, and (503
   * `upstream_busy`) when too many calls already wait for WordPress. The index's crawls wait their turn instead.
   *
   * Every call a request makes shares one deadline, `UPSTREAM_TIMEOUT_MS` from the request's arrival (`since`): a
   * read that needs two calls answers within the timeout, not twice it. A call without `since` has the timeout to
   * itself. The caller is answered at the deadline or when it hangs up; the call itself keeps its slot until
   * WordPress has answered it, for at most `UPSTREAM_SLOT_GRACE_MS` more, since PHP goes on with a request whose
   * client has gone: so `UPSTREAM_CONCURRENCY` also bounds what WordPress is running.
   */
  async request<T>(req: WpRequest): Promise<WpResponse<T>> {
    const { timeoutMs } = this.options;
    const release = this.#limiter
      ? await this.#limiter.acquire({
          patient: req.as === 'service',
          signal: req.signal,
          maxWaitMs: req.since === undefined ? undefined : req.since + timeoutMs - Date.now(),
        })
      : () => undefined;
    // A call made for no request (a crawl's page) has the timeout to itself from when it is sent.
    return this.#send<T>(req, (req.since ?? Date.now()) + timeoutMs, release);
  }

  async #send<T>(req: WpRequest, deadline: number, release: () => void): Promise<WpResponse<T>> {
    const t0 = performance.now();
    const observe = (outcome: string) =>
      this.observer?.({
        method: req.method ?? 'GET',
        as: typeof req.as === 'string' ? req.as : req.as.credentials ? 'caller' : 'anonymous',
        outcome,
        ms: performance.now() - t0,
      });
    const left = deadline - Date.now();
    if (left <= 0 || req.signal?.aborted) {
      release();
      if (req.signal?.aborted) throw aborted();
      observe('timeout');
      throw upstreamTimeout();
    }
    const graceMs = this.#limiter ? (this.options.slotGraceMs ?? 0) : 0;
    const hard = AbortSignal.timeout(left + graceMs);
    const call = this.#call(req, hard);
    call.then(release, release);
    let answered: { response: Response; text: string | undefined };
    try {
      answered = await settleWithin(call, left, req.signal);
    } catch (err) {
      if (err instanceof ApiError) {
        observe(
          err.code === 'upstream_timeout'
            ? 'timeout'
            : err.code === 'request_aborted'
              ? 'aborted'
              : 'unreachable',
        );
        throw err;
      }
      // The call itself failed: the connection, or its own time ran out (a race with the deadline's timer).
      const e = upstreamUnavailable(err, hard.aborted);
      observe(e.code === 'upstream_timeout' ? 'timeout' : 'unreachable');
      throw e;
    }
    const { response, text } = answered;
    this.lastAnsweredAt = Date.now();
    observe(`${Math.floor(response.status / 100)}xx`);
    // A body cut off (WordPress died while sending it) or missing is no answer: what the write did is unknown.
    if (text === undefined || (text === '' && response.ok && response.status !== 204)) {
      throw badUpstreamAnswer("WordPress's answer was cut off.", response.status);
    }
    let body: unknown = null;
    if (text) {
      // A large answer is parsed in a slice of a turn of its own (a page of 100 events is several ms): pages that
      // arrive together were parsed back to back in one turn (four of a feed's pages: a 36 ms turn).
      if (text.length > PARSE_IN_TURN_CHARS) await nextSlice();
      try {
        body = JSON.parse(text);
      } catch {
        throw badUpstreamAnswer('WordPress answered with something that is not JSON.', response.status);
      }
    }
    if (!response.ok) throw mapUpstreamError(response.status, body as WpErrorBody | null);
    return { status: response.status, body: body as T, headers: response.headers };
  }

  /** The call on the wire, until WordPress has answered it whole (or `signal` ends it). */
  async #call(
    req: WpRequest,
    signal: AbortSignal,
  ): Promise<{ response: Response; text: string | undefined }> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...req.headers,
      ...this.authHeaders(req.as),
    };
    const raw = req.body instanceof Uint8Array;
    const method = req.method ?? 'GET';
    // A read goes straight to api-fetch's fetch handler, with what its middleware would add already in the URL: the
    // chain parses and rebuilds the URL on every call (about 20 µs of CPU, measured in docs/benchmarks.md), and
    // a miss makes several reads. Writes keep the whole chain (http-v1 sends PATCH as POST with an override).
    const read = method === 'GET' && req.body === undefined;
    let response: Response;
    try {
      response = (await (read ? apiFetch.defaultFetchHandler : apiFetch)({
        url: this.url(req.path, read ? { ...req.query, ...READ_LOCALE } : req.query, req.language),
        method,
        headers,
        data: raw ? undefined : (req.body as Record<string, unknown> | undefined),
        body: raw ? req.body : undefined,
        signal,
        parse: false,
        credentials: 'omit',
      })) as Response;
    } catch (err) {
      if (!(err instanceof Response)) throw err;
      response = err;
    }
    const text = await response.text().catch(() => undefined);
    return { response, text };
  }

  /**
   * An update of a record (`POST /wp/v2/<base>/<id>`), sent again once when WordPress answers 500
   * `rest_meta_database_error`. WordPress gives that when update_metadata() finds a row already holding the value
   * asked for (another save wrote the same row between the REST server's check and its write): an update is
   * repeatable, and sent again it finds every row as asked.
   */
  async update<T>(req: WpRequest): Promise<WpResponse<T>> {
    try {
      return await this.request<T>(req);
    } catch (err) {
      if (!(err instanceof ApiError && err.data.upstream_code === 'rest_meta_database_error')) throw err;
      return this.request<T>(req);
    }
  }

  /** A list page with WordPress's totals. */
  async list<T>(req: WpRequest): Promise<ListPage<T>> {
    const res = await this.request<T[]>(req);
    return {
      items: res.body ?? [],
      total: Number(res.headers.get('x-wp-total') ?? res.body?.length ?? 0),
      totalPages: Number(res.headers.get('x-wp-totalpages') ?? 1),
    };
  }

  /**
   * Every item of a collection, 100 per page, pages fetched `parallel` at a time after the first
   * (which tells how many there are). `onPage` reports progress.
   */
  async all<T>(req: WpRequest, onPage?: (done: number, total: number) => void, parallel = 4): Promise<T[]> {
    const items: T[] = [];
    await eachPage(
      (page) => this.list<T>({ ...req, query: { ...req.query, per_page: 100, page } }),
      parallel,
      (r) => {
        items.push(...r.items);
        onPage?.(items.length, r.total);
      },
    );
    return items;
  }
}

/** One page of a list, with WordPress's totals. */
export interface ListPage<T> {
  items: T[];
  total: number;
  totalPages: number;
}

/**
 * Reads page 1 (which tells how many pages there are), then the others `parallel` at a time, handing each page to
 * `apply` in page order as its batch arrives.
 */
export async function eachPage<T>(
  list: (page: number) => Promise<ListPage<T>>,
  parallel: number,
  apply: (page: ListPage<T>) => void | Promise<void>,
): Promise<void> {
  const first = await list(1);
  await apply(first);
  for (let page = 2; page <= first.totalPages; page += parallel) {
    const pages: number[] = [];
    for (let p = page; p < page + parallel && p <= first.totalPages; p++) pages.push(p);
    for (const r of await allSettled(pages.map(list))) await apply(r);
  }
}

/**
 * Like `Promise.all`, but a failure is thrown only once every call has settled: a failed batch of pages leaves no
 * request of its own in flight, so a retry that follows cannot exceed the batch's bound on concurrent calls.
 */
export async function allSettled<T>(calls: Array<Promise<T>>): Promise<T[]> {
  const results = await Promise.allSettled(calls);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
