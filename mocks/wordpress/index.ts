// An in-memory WordPress 6.1 REST API (wp/v2) for a calendar mapping, served through msw handlers.
import { DateTime } from 'luxon';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import type { Mapping } from '../../src/mapping/schema.ts';
import { SITE_TIMEZONE } from '../seed-data.ts';
import type { SeedSite } from '../seed-types.ts';
import { serveBatch } from './batch.ts';
import { authenticate, hasCap } from './caps.ts';
import { bodyParams, errorResponse, queryParams, WpError } from './http-util.ts';
import { deleteMedia, mediaOptions, updateMedia, uploadMedia } from './media-write.ts';
import { deletePost, listPosts, type Req, readPost } from './posts.ts';
import { writePost } from './posts-write.ts';
import type { Site } from './render.ts';
import { siteModel } from './schema.ts';
import { loadSeed } from './seed.ts';
import { index, media, postOptions, taxonomies, types, users, usersMe } from './site-routes.ts';
import { Store } from './store.ts';
import { deleteTerm, listTerms, readTerm, termOptions, writeTerm } from './terms.ts';
import { createUser, deleteUser } from './users-write.ts';

export { SAMPLE_PASSWORD_PROTECTED } from '../seed-data.ts';
export type { StoredPost, StoredTerm } from './store.ts';
export { Store } from './store.ts';

export interface MockWordPressOptions {
  mapping: Mapping;
  /** REST root, e.g. `http://wordpress.mock/wp-json`. */
  baseUrl: string;
  seed?: SeedSite;
  /** The application password every seeded user authenticates with. */
  usersPassword: string;
  now?: () => Date;
  /**
   * Other origins that reach the same site (a container's service name, `127.0.0.1` for `localhost`). The site still
   * names itself by `baseUrl`'s origin in its answers and its Link header, as WordPress does by its `home` option.
   */
  aliases?: string[];
  /**
   * How long each call waits before it is served (ms; default 0): a real site's PHP takes milliseconds, so writes
   * sent at once interleave over it; served at once, in-process, each runs to its end before the next is read.
   */
  latencyMs?: number;
}

export interface MockWordPress {
  handlers: RequestHandler[];
  store: Store;
  /** Back to the seeded state (ids restart as on a fresh install). */
  reset(): void;
}

const noRoute = () =>
  new WpError('rest_no_route', 'No route was found matching the URL and request method.', 404);

export function createMockWordPress(opts: MockWordPressOptions): MockWordPress {
  const root = opts.baseUrl.replace(/\/+$/, '');
  const url = root.replace(/\/wp-json$/, '');
  const timezone = opts.seed?.timezone ?? SITE_TIMEZONE;
  const model = siteModel(opts.mapping);
  const store = new Store({ timezone, now: opts.now ?? (() => new Date()), model });
  const site: Site = { root, url, store };

  /** The general settings the REST index and `/wp/v2/settings` show (a subset of WordPress's). */
  const settings = { title: 'Calendar sample site', description: 'Events, venues and organizers' };
  /** GET or POST /wp/v2/settings: manage_options only; a POST changes the title, tagline and time zone. */
  const siteSettings = (req: Req, effective: string, isRead: boolean): Response => {
    if (!hasCap(req.user, 'manage_options')) {
      throw new WpError('rest_forbidden', 'Sorry, you are not allowed to do that.', req.user ? 403 : 401);
    }
    if (!isRead && !['POST', 'PUT', 'PATCH'].includes(effective)) throw noRoute();
    const p = req.params;
    if (!isRead) {
      if (typeof p.title === 'string') settings.title = p.title;
      if (typeof p.description === 'string') settings.description = p.description;
      if (typeof p.timezone === 'string' && p.timezone) store.timezone = p.timezone;
    }
    return HttpResponse.json({
      title: settings.title,
      description: settings.description,
      url,
      timezone: store.timezone,
      date_format: 'F j, Y',
      time_format: 'g:i a',
      start_of_week: 1,
    });
  };

  const reset = () => {
    settings.title = 'Calendar sample site';
    settings.description = 'Events, venues and organizers';
    store.timezone = timezone;
    store.clear();
    if (opts.seed) loadSeed(store, opts.seed);
    else store.addUser({ login: 'admin', role: 'administrator', email: 'admin@example.test', name: 'admin' });
  };
  reset();

  const route = async (request: Request): Promise<Response> => {
    const reqUrl = new URL(request.url);
    const path = reqUrl.pathname.slice(new URL(root).pathname.length).replace(/\/+$/, '') || '/';
    const method = request.method.toUpperCase();
    const query = queryParams(reqUrl);
    // A media upload's body is the file itself, not parameters.
    const upload = method === 'POST' && /^\/wp\/v2\/media\/?$/.test(path);
    const bytes = upload ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const body =
      method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || upload
        ? {}
        : await bodyParams(request);
    const params = { ...query, ...body };
    // `_method` or the X-HTTP-Method-Override header (what @wordpress/api-fetch sends) lets a POST stand for
    // PUT/PATCH/DELETE, as WordPress's REST server allows.
    const override =
      request.headers.get('x-http-method-override') ??
      (typeof query._method === 'string' ? query._method : null);
    const effective = method === 'POST' && override ? override.toUpperCase() : method;
    const user = authenticate(request.headers.get('authorization'), store.users, opts.usersPassword);
    const req: Req = { method: effective, url: reqUrl, params, user, site };
    const isRead = effective === 'GET' || effective === 'HEAD';
    // Writes edit posts in place: cached collection queries are dropped first.
    if (!isRead) store.changed();

    if (path === '/') {
      if (!isRead) throw noRoute();
      return index(req, {
        name: settings.title,
        description: settings.description,
        gmtOffset: gmtOffset(store.timezone, store.now()),
      });
    }
    if (path === '/batch/v1') {
      if (effective !== 'POST') throw noRoute();
      return serveBatch(params, request, {
        root,
        run: answer,
        allowsBatch,
        exists: (p) => baseOf(p) !== undefined,
      });
    }
    const parts = path.split('/').filter(Boolean);
    if (parts[0] !== 'wp' || parts[1] !== 'v2') throw noRoute();
    const [, , base, id, extra] = parts;
    if (extra !== undefined || base === undefined) throw noRoute();
    if (
      id !== undefined &&
      !/^\d+$/.test(id) &&
      base !== 'users' &&
      base !== 'types' &&
      base !== 'taxonomies'
    )
      throw noRoute();

    if (base === 'settings' && id === undefined) return siteSettings(req, effective, isRead);
    if (base === 'types' && isRead) return types(req, id);
    if (base === 'taxonomies' && isRead) return taxonomies(req, id);
    if (base === 'users' && isRead) return id === 'me' ? usersMe(req) : users(req, id);
    if (base === 'users' && id === undefined && effective === 'POST') return createUser(req);
    if (base === 'users' && id !== undefined && /^\d+$/.test(id) && effective === 'DELETE')
      return deleteUser(req, id);
    if (base === 'media') {
      if (isRead) return media(req, id);
      if (effective === 'OPTIONS') return mediaOptions();
      if (id === undefined && bytes) return uploadMedia(req, request, bytes);
      if (id !== undefined && effective === 'DELETE') return deleteMedia(req, id);
      if (id !== undefined && ['POST', 'PUT', 'PATCH'].includes(effective)) return updateMedia(req, id);
      throw noRoute();
    }

    const postType = model.postTypes.find((t) => t.restBase === base);
    if (postType) {
      if (effective === 'OPTIONS') return postOptions(req, postType, id !== undefined);
      if (id === undefined) {
        if (isRead) return listPosts(req, postType);
        if (effective === 'POST') return writePost(req, postType, undefined);
      } else {
        if (isRead) return readPost(req, postType, id);
        if (['POST', 'PUT', 'PATCH'].includes(effective)) return writePost(req, postType, id);
        if (effective === 'DELETE') return deletePost(req, postType, id);
      }
      throw noRoute();
    }
    const tax = model.taxonomies.find((t) => t.restBase === base);
    if (tax) {
      if (effective === 'OPTIONS') return termOptions(tax);
      if (id === undefined) {
        if (isRead) return listTerms(req, tax);
        if (effective === 'POST') return writeTerm(req, tax, undefined);
      } else {
        if (isRead) return readTerm(req, tax, id);
        if (['POST', 'PUT', 'PATCH'].includes(effective)) return writeTerm(req, tax, id);
        if (effective === 'DELETE') return deleteTerm(req, tax, id);
      }
    }
    throw noRoute();
  };

  /** The wp/v2 rest_base a path names (`/wp/v2/<base>[/<id>]`), when the site has it. */
  const baseOf = (p: string): string | undefined => {
    const m = /^\/wp\/v2\/([\w-]+)(?:\/[\w-]+)?\/?$/.exec(p);
    const known = [
      ...model.postTypes.map((t) => t.restBase),
      ...model.taxonomies.map((t) => t.restBase),
      'media',
      'users',
      'types',
      'taxonomies',
    ];
    return m && known.includes(m[1]!) ? m[1] : undefined;
  };
  /** Posts and terms controllers allow batching (allow_batch v1); attachments and users do not. */
  const allowsBatch = (p: string): boolean => {
    const base = baseOf(p);
    return base !== undefined && [...model.postTypes, ...model.taxonomies].some((t) => t.restBase === base);
  };

  const origin = new URL(root).origin;
  const origins = [origin, ...(opts.aliases ?? []).map((a) => new URL(a).origin)];
  const escapeRe = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const roots = origins.map((o) => escapeRe(o + root.slice(origin.length))).join('|');
  const handler = http.all(new RegExp(`^(?:${roots})(/.*)?$`), async ({ request }) => {
    if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
    return withCors(request, await answer(request));
  });
  const answer = async (request: Request): Promise<Response> => {
    try {
      return await route(request);
    } catch (e) {
      if (e instanceof WpError) return errorResponse(e);
      const message = e instanceof Error ? e.message : String(e);
      return HttpResponse.json(
        { code: 'internal_server_error', message, data: { status: 500 } },
        { status: 500 },
      );
    }
  };
  // The site's front page, so that what passes through a gateway to the site itself can be tested too. WordPress
  // names its REST root in a Link header there (rest_output_link_header), which clients use to discover it.
  const sites = origins.map((o) => o + url.slice(origin.length));
  const frontPages = sites.map((site) =>
    http.get(`${site}/`, () =>
      HttpResponse.html(
        '<!doctype html><html><head><title>Calendar sample site</title></head><body></body></html>',
        { headers: { Link: `<${root}/>; rel="https://api.w.org/"` } },
      ),
    ),
  );
  // Any other page of the site: WordPress's theme answers 404 (a gateway in demo mode must not try DNS for it).
  const notFound = sites.map((site) =>
    http.all(`${site}/*`, () =>
      HttpResponse.html(
        '<!doctype html><html><head><title>Page not found</title></head><body></body></html>',
        { status: 404 },
      ),
    ),
  );
  return { handlers: [handler, ...frontPages, ...notFound], store, reset };
}

/** The CORS headers WordPress 6.1 puts on every REST answer (rest_send_cors_headers and serve_request). */
function withCors(request: Request, response: Response): Response {
  const h = response.headers;
  h.set('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link');
  h.set(
    'Access-Control-Allow-Headers',
    'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
  );
  const origin = request.headers.get('origin');
  if (origin) {
    h.set('Access-Control-Allow-Origin', origin);
    h.set('Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
    h.set('Access-Control-Allow-Credentials', 'true');
  }
  if (origin || request.method === 'GET') h.append('Vary', 'Origin');
  return response;
}

/** gmt_offset of the index: hours from UTC at `now` in the site timezone (WordPress sends a number). */
function gmtOffset(timezone: string, now: Date): number {
  return DateTime.fromJSDate(now, { zone: timezone }).offset / 60;
}

/**
 * msw patches the process's fetch/http once: a second setupServer() shadows the first, so every mock started in
 * this process shares one interceptor and the active mocks' handlers are swapped in and out of it.
 */
let shared: { server: ReturnType<typeof setupServer>; active: Set<MockWordPress> } | undefined;

function refreshHandlers(): void {
  if (!shared) return;
  shared.server.resetHandlers(...[...shared.active].flatMap((m) => m.handlers));
}

export function startMockWordPress(opts: MockWordPressOptions): {
  server: ReturnType<typeof setupServer>;
  mock: MockWordPress;
  close(): void;
} {
  const mock = createMockWordPress(opts);
  if (!shared) {
    shared = { server: setupServer(), active: new Set() };
    shared.server.listen({ onUnhandledRequest: 'bypass' });
  }
  const current = shared;
  current.active.add(mock);
  refreshHandlers();
  let closed = false;
  return {
    server: current.server,
    mock,
    close: () => {
      if (closed) return;
      closed = true;
      current.active.delete(mock);
      if (current.active.size === 0 && shared === current) {
        current.server.close();
        shared = undefined;
      } else refreshHandlers();
    },
  };
}
