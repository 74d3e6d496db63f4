// `@calendar-gateway/client`: a typed client of calendar/events/v1 for TypeScript front-ends. Paths, parameters and
// bodies are typed by ./schema.ts, which the gateway's `npm run client:types` generates from its own contract
// (openapi-fetch does the requests); this file adds what a calendar front-end needs on top: credentials, WordPress
// errors, paging.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
// `.js`: the name the emitted declarations keep, and the one a consumer's tsc resolves.
import type { components, paths } from './schema.js';

export type { components, paths };
export type Event = components['schemas']['Event'];
export type Venue = components['schemas']['Venue'];
export type Organizer = components['schemas']['Organizer'];
export type Term = components['schemas']['Term'];

/** The body of every error the gateway answers, as WordPress's REST server shapes it. */
export interface WordPressError {
  code: string;
  message: string;
  data: { status: number; params?: Record<string, string>; details?: Record<string, unknown> };
}

/** A non-2xx answer: WordPress's error body, with the HTTP status and the response's headers. */
export class CalendarApiError extends Error implements WordPressError {
  readonly code: string;
  readonly data: WordPressError['data'];
  readonly status: number;
  readonly headers: Headers;

  constructor(body: WordPressError, response: Response) {
    super(body.message);
    this.name = 'CalendarApiError';
    this.code = body.code;
    this.data = body.data;
    this.status = response.status;
    this.headers = response.headers;
  }
}

/**
 * How the client signs in: a WordPress application password (server side), or the cookie WordPress set plus the
 * `wp_rest` nonce (a browser on the site's own origin, as `@wordpress/api-fetch` does). Anonymous when absent:
 * anonymous answers are the ones the gateway caches and shares.
 */
export type Credentials =
  | { applicationPassword: { user: string; password: string } }
  | { nonce: string }
  | { authorization: string };

export interface CalendarClientOptions {
  /** The API root, e.g. `https://example.com/wp-json/calendar/events/v1` (or a language root `…/es/wp-json/…`). */
  baseUrl: string;
  credentials?: Credentials;
  /** Passed to every request, e.g. Next.js's `{ next: { tags: ['calendar'] } }`. */
  requestInit?: RequestInit & Record<string, unknown>;
  fetch?: ClientOptions['fetch'];
  headers?: Record<string, string>;
}

type ListPath = '/events' | '/venues' | '/organizers' | '/categories' | '/tags';
type ListKey<P extends ListPath> = P extends `/${infer K}` ? K : never;
type ListQuery<P extends ListPath> = NonNullable<paths[P]['get']['parameters']['query']>;
type ListBody<P extends ListPath> = paths[P]['get']['responses'][200]['content']['application/json'];
type Item<P extends ListPath> =
  NonNullable<ListBody<P>[ListKey<P> & keyof ListBody<P>]> extends Array<infer T> ? T : never;

/** One page of a list, with the totals the envelope and TEC's headers carry. */
export interface Page<T> {
  items: T[];
  total: number;
  totalPages: number;
  page: number;
  /** The next page's URL when there is one (the envelope's `next_rest_url`). */
  next?: string;
}

function authHeaders(credentials: Credentials | undefined): Record<string, string> {
  if (!credentials) return {};
  if ('nonce' in credentials) return { 'X-WP-Nonce': credentials.nonce };
  if ('authorization' in credentials) return { Authorization: credentials.authorization };
  const { user, password } = credentials.applicationPassword;
  // Application passwords are shown with spaces; WordPress accepts them either way.
  return { Authorization: `Basic ${btoa(`${user}:${password}`)}` };
}

/** The data of an openapi-fetch answer, or a thrown CalendarApiError. */
async function unwrap<T>(answer: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await answer;
  if (response.ok) return data as T;
  const body = error as Partial<WordPressError> | undefined;
  throw new CalendarApiError(
    {
      code: typeof body?.code === 'string' ? body.code : 'http_error',
      message: typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`,
      data: { status: response.status, ...(body?.data ?? {}) },
    },
    response,
  );
}

type JsonBody<T> = T extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** An event's write body, as /doc describes it: `venue` and `organizer` take ids or records to create or reuse. */
export type EventCreate = JsonBody<paths['/events']['post']>;
export type EventUpdate = Partial<JsonBody<paths['/events/{id}']['post']>>;
/** Which occurrences of a series an update or delete changes. */
export type EventScope = NonNullable<EventUpdate['scope']>;

/** The filters of an iCalendar feed: the list's, without paging. */
export type FeedQuery = NonNullable<paths['/events.ics']['get']['parameters']['query']>;

/** A query string as the gateway reads it: lists comma-separated (`categories=jazz,blues`). */
function queryString(query: Record<string, unknown> | undefined): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    q.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

type ChangesBody = paths['/changes']['get']['responses'][200]['content']['application/json'];
/** One item of the changes feed: what changed (`kind`, `id`), how, when, where to read it, its cache tags. */
export type Change = ChangesBody['items'][number];

export interface ChangesOptions {
  /** The cursor to go on from (a `cursor` saved from an earlier change); none or `0`: an initial sync first. */
  since?: string;
  /** Items per request (at most 500). */
  limit?: number;
  /**
   * After catching up, wait for the next changes (long polls of `timeout` seconds) instead of ending. A follower also
   * rides out a refusal that passes by itself (503 with `Retry-After`: the gateway's Redis or WordPress busy), asking
   * again with the same cursor after the time it names.
   */
  follow?: boolean;
  timeout?: number;
  /** Ends the iteration (a long poll in flight is aborted). */
  signal?: AbortSignal;
}

/**
 * A change with the cursor to save once it is handled: resuming from it replays nothing after it (and may replay a
 * few changes of its page before it: handle changes idempotently, by `kind` and `id`).
 */
export type ChangeAt = Change & { cursor: string };

/** A feed URL as calendar apps subscribe to it: `webcal://` opens the subscription dialog (Apple, Outlook). */
const webcal = (url: string): string => url.replace(/^https?:\/\//, 'webcal://');

export interface CalendarClient {
  /** openapi-fetch's typed methods, for any route: `api.GET('/events/{id}', { params: { path: { id } } })`. */
  api: Client<paths>;
  /** One page of a list route. */
  list<P extends ListPath>(path: P, query?: ListQuery<P>): Promise<Page<Item<P>>>;
  /** Every item of a list route, page after page (`per_page` per request). */
  all<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<Item<P>>;
  /**
   * GET /events/{id}. An occurrence's id (list items of a series carry one) answers that occurrence: the series' fields
   * at its own dates, or its override, under the occurrence's id, with `series_id` and `original_start_utc`.
   */
  event(id: number): Promise<Event>;
  /** POST /events; `idempotencyKey` makes a retry return the first answer instead of creating twice. */
  createEvent(body: EventCreate, opts?: { idempotencyKey?: string }): Promise<Event>;
  /** On a series or one of its occurrences, `scope` in the body says which occurrences change (`this`, `following`, `all`). */
  updateEvent(id: number, body: EventUpdate): Promise<Event>;
  /** On a series or one of its occurrences, `scope` says which go: this one, this and the following ones, or all. */
  deleteEvent(id: number, opts?: { scope?: EventScope }): Promise<Event>;
  /**
   * The URL of an iCalendar feed of the events a list query selects, for "Subscribe" links: `webcal: true` gives the
   * `webcal://` form calendar apps open; Google Calendar's "From URL" takes the `https://` one.
   */
  feedUrl(query?: FeedQuery, opts?: { webcal?: boolean }): string;
  /** The URL of one event as an iCalendar file, for "Add to calendar" links (an occurrence's id: that date alone). */
  eventFeedUrl(id: number): string;
  /**
   * The changes feed, change after change: an initial sync (what exists now, as `created`) unless `since` is given,
   * then every create, update and delete in commit order, as this client's credentials may see them. Ends when caught
   * up, unless `follow` (then it long-polls until `signal` aborts). A 410 (`changes_cursor_expired`) is thrown as a
   * CalendarApiError: start again without `since`.
   */
  changes(opts?: ChangesOptions): AsyncGenerator<ChangeAt>;
}

/** Seconds to wait before asking again after a 503 that names them (`Retry-After`); undefined for any other error. */
function retryAfter(err: unknown): number | undefined {
  if (!(err instanceof CalendarApiError) || err.status !== 503) return undefined;
  const s = Number(err.headers.get('retry-after'));
  return Number.isFinite(s) && s > 0 ? Math.min(s, 60) : undefined;
}

/** Resolves after `ms`, or at once when `signal` aborts; leaves no listener on `signal` (a follower pauses often). */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done) => {
    const stop = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      done();
    };
    const timer = setTimeout(stop, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });

const pageOf = (query: unknown): number => Number((query as { page?: number } | undefined)?.page ?? 1);

export function createCalendarClient(opts: CalendarClientOptions): CalendarClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const api = createClient<paths>({
    baseUrl,
    fetch: opts.fetch,
    headers: { ...opts.headers, ...authHeaders(opts.credentials) },
    // Cookie + nonce needs the browser to send the site's cookies.
    credentials: opts.credentials && 'nonce' in opts.credentials ? 'include' : undefined,
    // TEC's list arguments are comma-separated (`categories=1,2`), as /doc says (form, explode: false).
    querySerializer: { array: { style: 'form', explode: false } },
    ...opts.requestInit,
  });

  async function list<P extends ListPath>(path: P, query?: ListQuery<P>): Promise<Page<Item<P>>> {
    // The union of list paths is too wide for openapi-fetch's overloads; each path's own types are used above.
    const get = api.GET as unknown as (
      p: string,
      init: { params: { query?: unknown } },
    ) => Promise<{ data?: Record<string, unknown>; error?: unknown; response: Response }>;
    const answer = get(path, { params: { query } });
    const body = await unwrap(answer);
    const { response } = await answer;
    return {
      items: (body[path.slice(1)] ?? []) as Item<P>[],
      total: Number(body.total ?? response.headers.get('X-TEC-Total') ?? 0),
      totalPages: Number(body.total_pages ?? response.headers.get('X-TEC-TotalPages') ?? 0),
      page: pageOf(query),
      next: typeof body.next_rest_url === 'string' ? body.next_rest_url : undefined,
    };
  }

  return {
    api,
    list,
    async *all(path, query) {
      for (let page = pageOf(query); ; page++) {
        const result = await list(path, { ...query, page } as typeof query);
        yield* result.items;
        if (!result.next || page >= result.totalPages) return;
      }
    },
    event: (id) => unwrap(api.GET('/events/{id}', { params: { path: { id } } })) as Promise<Event>,
    createEvent: (body, o) =>
      unwrap(
        api.POST('/events', {
          body: body as JsonBody<paths['/events']['post']>,
          headers: o?.idempotencyKey ? { 'Idempotency-Key': o.idempotencyKey } : undefined,
        }),
      ) as Promise<Event>,
    updateEvent: (id, body) =>
      unwrap(
        api.POST('/events/{id}', {
          params: { path: { id } },
          body: body as JsonBody<paths['/events/{id}']['post']>,
        }),
      ) as Promise<Event>,
    deleteEvent: (id, o) =>
      unwrap(
        api.DELETE('/events/{id}', {
          params: { path: { id }, query: o?.scope ? { scope: o.scope } : undefined },
        }),
      ) as Promise<Event>,
    feedUrl: (query, o) => {
      const url = `${baseUrl}/events.ics${queryString(query as Record<string, unknown> | undefined)}`;
      return o?.webcal ? webcal(url) : url;
    },
    eventFeedUrl: (id) => `${baseUrl}/events/${id}.ics`,
    async *changes(o = {}) {
      let since = o.since ?? '0';
      let caughtUp = false;
      while (!o.signal?.aborted) {
        const wait = caughtUp && o.follow ? { feed: 'longpoll' as const, timeout: o.timeout } : {};
        // JSON: the event stream this route also serves is asked for by Accept, which this request does not send.
        let body: ChangesBody;
        try {
          body = (await unwrap(
            api.GET('/changes', { params: { query: { since, limit: o.limit, ...wait } }, signal: o.signal }),
          )) as ChangesBody;
        } catch (err) {
          const seconds = o.follow ? retryAfter(err) : undefined;
          if (seconds === undefined || o.signal?.aborted) throw err;
          await pause(seconds * 1000, o.signal);
          continue;
        }
        for (const [i, item] of body.items.entries()) {
          yield { ...item, cursor: i === body.items.length - 1 ? body.next : since };
        }
        since = body.next;
        caughtUp = !body.has_more;
        if (caughtUp && !o.follow) return;
      }
    },
  };
}
