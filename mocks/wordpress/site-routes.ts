// Index, types, taxonomies, OPTIONS schema, users and media routes of the mock WordPress.

import { HttpResponse } from 'msw';
import { WRITE_META, WRITE_QUERY } from '../../src/wp/probe.ts';
import { hasCap } from './caps.ts';
import { authCode, filterFields, parseList, WpError } from './http-util.ts';
import { validateParams } from './params.ts';
import type { Req } from './posts.ts';
import { type Context, renderMedia, renderUser } from './render.ts';
import type { PostTypeInfo, TaxonomyInfo } from './schema.ts';

const withFields = (req: Req, data: Record<string, unknown>) => {
  const fields = parseList(req.params._fields);
  return fields.length ? filterFields(data, fields) : data;
};

export function index(req: Req, opts: { name: string; description: string; gmtOffset: number }): Response {
  const { site } = req;
  const routes: Record<string, unknown> = {
    '/': { namespace: '', methods: ['GET'] },
    '/wp/v2': { namespace: 'wp/v2', methods: ['GET'] },
  };
  for (const t of site.store.model.postTypes) {
    routes[`/wp/v2/${t.restBase}`] = { namespace: 'wp/v2', methods: ['GET', 'POST'] };
    routes[`/wp/v2/${t.restBase}/(?P<id>[\\d]+)`] = {
      namespace: 'wp/v2',
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    };
  }
  for (const t of site.store.model.taxonomies) {
    routes[`/wp/v2/${t.restBase}`] = { namespace: 'wp/v2', methods: ['GET', 'POST'] };
    routes[`/wp/v2/${t.restBase}/(?P<id>[\\d]+)`] = {
      namespace: 'wp/v2',
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    };
  }
  for (const r of ['/wp/v2/types', '/wp/v2/taxonomies', '/wp/v2/users', '/wp/v2/users/me', '/wp/v2/media']) {
    routes[r] = { namespace: 'wp/v2', methods: ['GET'] };
  }
  return HttpResponse.json(
    withFields(req, {
      name: opts.name,
      description: opts.description,
      url: site.url,
      home: site.url,
      gmt_offset: opts.gmtOffset,
      timezone_string: site.store.timezone,
      namespaces: ['oembed/1.0', 'wp/v2', 'wp-site-health/v1', 'batch/v1'],
      authentication: {
        'application-passwords': {
          endpoints: { authorization: `${site.url}/wp-admin/authorize-application.php` },
        },
      },
      routes,
      site_logo: 0,
      site_icon: 0,
      site_icon_url: '',
      _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
    }),
  );
}

function typeRecord(
  req: Req,
  t: { name: string; restBase: string; label: string; taxonomies: string[] },
  context: Context,
) {
  const out: Record<string, unknown> = {
    description: '',
    hierarchical: false,
    has_archive: false,
    name: t.label,
    slug: t.name,
    icon: null,
    taxonomies: t.taxonomies,
    rest_base: t.restBase,
    rest_namespace: 'wp/v2',
    _links: {
      collection: [{ href: `${req.site.root}/wp/v2/types` }],
      'wp:items': [{ href: `${req.site.root}/wp/v2/${t.restBase}` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    },
  };
  if (context === 'edit')
    Object.assign(out, {
      capabilities: {},
      labels: { name: t.label },
      supports: {},
      viewable: true,
      visibility: { show_in_nav_menus: true, show_ui: true },
    });
  return out;
}

const CORE_TYPES = [
  { name: 'post', restBase: 'posts', label: 'Posts', taxonomies: ['category', 'post_tag'] },
  { name: 'page', restBase: 'pages', label: 'Pages', taxonomies: [] },
  { name: 'attachment', restBase: 'media', label: 'Media', taxonomies: [] },
];

function allTypes(req: Req): Array<{ name: string; restBase: string; label: string; taxonomies: string[] }> {
  return [...CORE_TYPES, ...req.site.store.model.postTypes.map((p: PostTypeInfo) => ({ ...p }))];
}

export function types(req: Req, name?: string): Response {
  const context = String(req.params.context ?? 'view') as Context;
  if (context === 'edit' && !hasCap(req.user, 'edit_posts')) {
    throw new WpError(
      'rest_cannot_view',
      'Sorry, you are not allowed to edit posts in this post type.',
      authCode(req.user !== null),
    );
  }
  const list = allTypes(req);
  if (name !== undefined) {
    const t = list.find((x) => x.name === name);
    if (!t) throw new WpError('rest_type_invalid', 'Invalid post type.', 404);
    return HttpResponse.json(withFields(req, typeRecord(req, t, context)));
  }
  return HttpResponse.json(
    Object.fromEntries(list.map((t) => [t.name, withFields(req, typeRecord(req, t, context))])),
  );
}

function taxRecord(req: Req, t: TaxonomyInfo): Record<string, unknown> {
  return {
    name: t.label,
    slug: t.name,
    description: '',
    types: t.types,
    hierarchical: t.hierarchical,
    rest_base: t.restBase,
    rest_namespace: 'wp/v2',
    _links: {
      collection: [{ href: `${req.site.root}/wp/v2/taxonomies` }],
      'wp:items': [{ href: `${req.site.root}/wp/v2/${t.restBase}` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    },
  };
}

export function taxonomies(req: Req, name?: string): Response {
  const list = req.site.store.model.taxonomies;
  if (name !== undefined) {
    const t = list.find((x) => x.name === name);
    if (!t) throw new WpError('rest_taxonomy_invalid', 'Invalid taxonomy.', 404);
    return HttpResponse.json(withFields(req, taxRecord(req, t)));
  }
  const type = typeof req.params.type === 'string' ? req.params.type : undefined;
  const shown = list.filter((t) => !type || t.types.includes(type));
  return HttpResponse.json(
    Object.fromEntries(shown.map((t) => [t.name, withFields(req, taxRecord(req, t))])),
  );
}

/** OPTIONS on a post collection or item: the route's methods, endpoints and item schema (with registered meta). */
export function postOptions(req: Req, info: PostTypeInfo, single: boolean): Response {
  const metaProps: Record<string, unknown> = {};
  for (const [key, mk] of info.meta) {
    metaProps[key] = mk.single
      ? {
          type: mk.type,
          description: '',
          default: mk.default ?? (mk.type === 'integer' ? 0 : ''),
          context: mk.editOnly ? ['edit'] : ['view', 'edit'],
        }
      : {
          type: 'array',
          items: { type: mk.type, description: '', default: mk.type === 'integer' ? 0 : '' },
          description: '',
          default: [],
          context: ['view', 'edit'],
        };
  }
  const str = (ctx: string[]) => ({ type: 'string', context: ctx });
  const properties: Record<string, unknown> = {
    date: { type: ['string', 'null'], format: 'date-time', context: ['view', 'edit', 'embed'] },
    date_gmt: { type: ['string', 'null'], format: 'date-time', context: ['view', 'edit'] },
    guid: { type: 'object', context: ['view', 'edit'], readonly: true },
    id: { type: 'integer', context: ['view', 'edit', 'embed'], readonly: true },
    link: { type: 'string', format: 'uri', context: ['view', 'edit', 'embed'], readonly: true },
    modified: { type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
    modified_gmt: { type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
    slug: str(['view', 'edit', 'embed']),
    status: {
      type: 'string',
      enum: ['publish', 'future', 'draft', 'pending', 'private'],
      context: ['view', 'edit'],
    },
    type: { type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    password: str(['edit']),
    title: { type: 'object', context: ['view', 'edit', 'embed'] },
    content: { type: 'object', context: ['view', 'edit'] },
    author: { type: 'integer', context: ['view', 'edit', 'embed'] },
    excerpt: { type: 'object', context: ['view', 'edit', 'embed'] },
    featured_media: { type: 'integer', context: ['view', 'edit', 'embed'] },
    menu_order: { type: 'integer', context: ['view', 'edit'] },
    template: str(['view', 'edit']),
    meta: { type: 'object', context: ['view', 'edit'], properties: metaProps },
  };
  for (const taxName of info.taxonomies) {
    const tax = req.site.store.model.taxonomies.find((t) => t.name === taxName);
    if (tax)
      properties[tax.restBase] = { type: 'array', items: { type: 'integer' }, context: ['view', 'edit'] };
  }
  const methods = single ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : ['GET', 'POST'];
  const endpoints = single
    ? [
        { methods: ['GET'], args: {} },
        { methods: ['POST', 'PUT', 'PATCH'], args: {} },
        { methods: ['DELETE'], args: {} },
      ]
    : [
        { methods: ['GET'], args: {} },
        { methods: ['POST'], args: {} },
      ];
  const schema = {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: info.name,
    type: 'object',
    properties,
  };
  return HttpResponse.json(
    { namespace: 'wp/v2', methods, endpoints, schema },
    { headers: { Allow: methods.join(', ') } },
  );
}

export function usersMe(req: Req): Response {
  if (!req.user) throw new WpError('rest_not_logged_in', 'You are not currently logged in.', 401);
  const context = String(req.params.context ?? 'view') as Context;
  return HttpResponse.json(withFields(req, renderUser(req.site, req.user, context)));
}

export function users(req: Req, id?: string): Response {
  validateParams(req.params, {
    context: { kind: 'enum', values: ['view', 'embed', 'edit'] },
    per_page: { kind: 'int', min: 1, max: 100 },
  });
  const context = String(req.params.context ?? 'view') as Context;
  if (context === 'edit' && !hasCap(req.user, 'list_users')) {
    throw new WpError(
      'rest_forbidden_context',
      'Sorry, you are not allowed to list users.',
      authCode(req.user !== null),
    );
  }
  const all = req.site.store.users;
  if (id !== undefined) {
    const u = all.find((x) => x.id === Number(id));
    if (!u) throw new WpError('rest_user_invalid_id', 'Invalid user ID.', 404);
    return HttpResponse.json(withFields(req, renderUser(req.site, u, context)));
  }
  // Anonymous callers only see users who have published posts (has_published_posts).
  const published = new Set(
    [...req.site.store.posts.values()].filter((p) => p.status === 'publish').map((p) => p.author),
  );
  const list = hasCap(req.user, 'list_users') ? all : all.filter((u) => published.has(u.id));
  const body = list.map((u) => withFields(req, renderUser(req.site, u, context)));
  return HttpResponse.json(body, { headers: { 'X-WP-Total': String(list.length), 'X-WP-TotalPages': '1' } });
}

export function media(req: Req, id?: string): Response {
  const context = String(req.params.context ?? 'view') as Context;
  const all = [...req.site.store.posts.values()].filter((p) => p.type === 'attachment');
  if (id !== undefined) {
    const m = all.find((p) => p.id === Number(id));
    if (!m) throw new WpError('rest_post_invalid_id', 'Invalid post ID.', 404);
    return HttpResponse.json(withFields(req, renderMedia(req.site, m, context)));
  }
  const include = parseList(req.params.include).map(Number);
  const search = String(req.params.search ?? '').toLowerCase();
  const token = req.params[WRITE_QUERY];
  const list = all
    .filter((p) => !include.length || include.includes(p.id))
    .filter((p) => token === undefined || String(p.meta[WRITE_META]?.[0] ?? '') === String(token))
    .filter((p) => !search || `${p.title} ${p.content} ${p.excerpt}`.toLowerCase().includes(search));
  const body = list.map((m) => withFields(req, renderMedia(req.site, m, context)));
  const headers = new Headers({
    'X-WP-Total': String(list.length),
    'X-WP-TotalPages': list.length ? '1' : '0',
  });
  return HttpResponse.json(body, { headers });
}
