// /wp/v2/{taxonomy rest_base}[/{id}]: list, read, create, update and delete terms as WP_REST_Terms_Controller does.

import { HttpResponse } from 'msw';
import { WRITE_META, WRITE_QUERY } from '../../src/wp/probe.ts';
import { slugify } from '../seed-data.ts';
import { canPost, hasCap, type MockUser } from './caps.ts';
import { authCode, filterFields, linkHeader, parseList, WpError } from './http-util.ts';
import { intList, type Specs, toBool, validateParams } from './params.ts';
import type { Req } from './posts.ts';
import { type Context, renderTerm, termLinks } from './render.ts';
import type { TaxonomyInfo } from './schema.ts';
import type { StoredTerm } from './store.ts';

/** Taxonomy caps for a custom taxonomy (and category/post_tag): manage/edit/delete need manage_categories, assign needs edit_posts. */
const canManage = (u: MockUser | null) => hasCap(u, 'manage_categories');
const canAssign = (u: MockUser | null) => hasCap(u, 'edit_posts');

const ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'];

function getTerm(req: Req, tax: TaxonomyInfo, id: string): StoredTerm {
  const term = req.site.store.terms.get(Number(id));
  if (!term || term.taxonomy !== tax.name)
    throw new WpError('rest_term_invalid', 'Term does not exist.', 404);
  return term;
}

function present(req: Req, term: StoredTerm, count: number, context: Context): Record<string, unknown> {
  let data = renderTerm(req.site, term, count, context);
  const fields = parseList(req.params._fields);
  if (fields.length) data = filterFields(data, fields);
  if (!fields.length || fields.includes('_links')) data._links = termLinks(req.site, term);
  return data;
}

export function listTerms(req: Req, tax: TaxonomyInfo): Response {
  const { params, user, site } = req;
  const specs: Specs = {
    context: { kind: 'enum', values: ['view', 'embed', 'edit'] },
    page: { kind: 'int', min: 1 },
    per_page: { kind: 'int', min: 1, max: 100 },
    offset: { kind: 'int' },
    order: { kind: 'enum', values: ['asc', 'desc'] },
    orderby: { kind: 'enum', values: ORDERBY },
    include: { kind: 'int-list' },
    exclude: { kind: 'int-list' },
    post: { kind: 'int' },
    hide_empty: { kind: 'bool' },
  };
  if (tax.hierarchical) specs.parent = { kind: 'int' };
  validateParams(params, specs);
  const context = String(params.context ?? 'view') as Context;
  if (context === 'edit' && !canManage(user)) {
    throw new WpError(
      'rest_forbidden_context',
      'Sorry, you are not allowed to edit terms in this taxonomy.',
      authCode(user !== null),
    );
  }
  const counts = site.store.termCounts();
  let terms = [...site.store.terms.values()].filter((t) => t.taxonomy === tax.name);
  if (params.post !== undefined) {
    const post = site.store.posts.get(Number(params.post));
    if (!post) throw new WpError('rest_post_invalid_id', 'Invalid post ID.', 400);
    if (!(post.status === 'publish' || canPost(user, 'read', post))) {
      throw new WpError(
        'rest_forbidden_context',
        'Sorry, you are not allowed to view terms for this post.',
        authCode(user !== null),
      );
    }
    const ids = post.terms[tax.name] ?? [];
    terms = terms.filter((t) => ids.includes(t.id));
  }
  const include = intList(params.include);
  if (include.length) terms = terms.filter((t) => include.includes(t.id));
  const exclude = intList(params.exclude);
  if (exclude.length) terms = terms.filter((t) => !exclude.includes(t.id));
  const slugs = parseList(params.slug);
  if (slugs.length) terms = terms.filter((t) => slugs.includes(t.slug));
  if (params.parent !== undefined) terms = terms.filter((t) => t.parent === Number(params.parent));
  // The companion plugin's filter: the terms a gateway write created (its token in WRITE_META).
  const token = params[WRITE_QUERY];
  if (token !== undefined) terms = terms.filter((t) => (t.meta?.[WRITE_META] ?? '') === String(token));
  if (toBool(params.hide_empty)) {
    // get_terms' `hierarchical` default keeps an empty term that has a non-empty descendant.
    const all = [...site.store.terms.values()].filter((t) => t.taxonomy === tax.name);
    const nonEmpty = (id: number, seen = new Set<number>()): boolean =>
      (counts.get(id) ?? 0) > 0 ||
      (tax.hierarchical && !seen.has(id) && all.some((c) => c.parent === id && nonEmpty(c.id, seen.add(id))));
    terms = terms.filter((t) => nonEmpty(t.id));
  }
  if (typeof params.search === 'string' && params.search !== '') {
    const s = params.search.toLowerCase();
    terms = terms.filter((t) => t.name.toLowerCase().includes(s) || t.slug.includes(s));
  }
  const orderby = String(params.orderby ?? 'name');
  const dir = String(params.order ?? 'asc') === 'desc' ? -1 : 1;
  const key = (t: StoredTerm): string | number => {
    switch (orderby) {
      case 'id':
        return t.id;
      case 'include':
        return include.indexOf(t.id);
      case 'include_slugs':
        return slugs.indexOf(t.slug);
      case 'slug':
        return t.slug;
      case 'description':
        return t.description.toLowerCase();
      case 'count':
        return counts.get(t.id) ?? 0;
      case 'term_group':
        return 0;
      default:
        return t.name.toLowerCase();
    }
  };
  terms.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka === kb ? a.id - b.id : (ka < kb ? -1 : 1) * dir;
  });
  const perPage = params.per_page === undefined ? 10 : Number(params.per_page);
  const page = params.page === undefined ? 1 : Number(params.page);
  const offset = params.offset === undefined ? (page - 1) * perPage : Number(params.offset);
  const total = terms.length;
  const maxPages = Math.ceil(total / perPage);
  // The terms controller does not reject pages past the end: it answers an empty list.
  const body = terms
    .slice(offset, offset + perPage)
    .map((t) => present(req, t, counts.get(t.id) ?? 0, context));
  const headers = new Headers({ 'X-WP-Total': String(total), 'X-WP-TotalPages': String(maxPages) });
  const links: Array<[string, string]> = [];
  const pageUrl = (n: number) => {
    const u = new URL(req.url.href);
    u.searchParams.set('page', String(n));
    return u.href;
  };
  if (page > 1) links.push(['prev', pageUrl(Math.min(page - 1, Math.max(maxPages, 1)))]);
  if (maxPages > page) links.push(['next', pageUrl(page + 1)]);
  if (links.length) headers.set('Link', linkHeader(links));
  return HttpResponse.json(body, { headers });
}

export function readTerm(req: Req, tax: TaxonomyInfo, id: string): Response {
  const term = getTerm(req, tax, id);
  const context = String(req.params.context ?? 'view') as Context;
  if (context === 'edit' && !canManage(req.user)) {
    throw new WpError(
      'rest_forbidden_context',
      'Sorry, you are not allowed to edit this term.',
      authCode(req.user !== null),
    );
  }
  return HttpResponse.json(present(req, term, req.site.store.termCounts().get(term.id) ?? 0, context));
}

export function writeTerm(req: Req, tax: TaxonomyInfo, id: string | undefined): Response {
  const { params, user, site } = req;
  const store = site.store;
  const logged = user !== null;
  validateParams(params, { parent: { kind: 'int' } });
  const existing = id === undefined ? undefined : getTerm(req, tax, id);
  if (existing && !canManage(user))
    throw new WpError(
      'rest_cannot_update',
      'Sorry, you are not allowed to edit this term.',
      authCode(logged),
    );
  if (!existing && !(tax.hierarchical ? canManage(user) : canAssign(user))) {
    throw new WpError(
      'rest_cannot_create',
      'Sorry, you are not allowed to create terms in this taxonomy.',
      authCode(logged),
    );
  }
  if (!existing && (typeof params.name !== 'string' || params.name === '')) {
    throw new WpError('rest_missing_callback_param', 'Missing parameter(s): name', 400, { params: ['name'] });
  }
  let parent = existing?.parent ?? 0;
  if (params.parent !== undefined) {
    if (!tax.hierarchical)
      throw new WpError(
        'rest_taxonomy_not_hierarchical',
        'Cannot set parent term, taxonomy is not hierarchical.',
        400,
      );
    parent = Number(params.parent);
    if (parent && store.terms.get(parent)?.taxonomy !== tax.name)
      throw new WpError('rest_term_invalid', 'Parent term does not exist.', 400);
  }
  const name = typeof params.name === 'string' ? params.name.trim() : (existing?.name ?? '');
  const clash = [...store.terms.values()].find(
    (t) =>
      t.taxonomy === tax.name &&
      t.id !== existing?.id &&
      t.name.toLowerCase() === name.toLowerCase() &&
      (!tax.hierarchical || t.parent === parent),
  );
  // wp_insert_term refuses a duplicate name; wp_update_term (6.1) allows it and only refuses a slug in use.
  if (clash && !existing) {
    const message = tax.hierarchical
      ? 'A term with the name provided already exists with this parent.'
      : 'A term with the name provided already exists in this taxonomy.';
    throw new WpError('term_exists', message, 400, { term_id: clash.id });
  }
  const wantedSlug =
    typeof params.slug === 'string' && params.slug !== ''
      ? slugify(params.slug)
      : (existing?.slug ?? slugify(name));
  if (existing && typeof params.slug === 'string' && params.slug !== '') {
    const taken = [...store.terms.values()].find(
      (t) => t.taxonomy === tax.name && t.id !== existing.id && t.slug === wantedSlug,
    );
    // The terms controller gives update errors other than term_exists a 500.
    if (taken)
      throw new WpError(
        'duplicate_term_slug',
        `The slug “${wantedSlug}” is already in use by another term.`,
        500,
      );
  }
  const slug = store.uniqueTermSlug(wantedSlug, tax.name, existing?.id ?? 0);
  const description =
    typeof params.description === 'string' ? params.description : (existing?.description ?? '');
  let term: StoredTerm;
  if (existing) {
    Object.assign(existing, { name, slug, description, parent });
    term = existing;
  } else {
    term = store.insertTerm({ taxonomy: tax.name, name, slug, description, parent });
  }
  // Meta is written after the term (the companion's auth callback lets its creator write WRITE_META once).
  const token = (params.meta as Record<string, unknown> | undefined)?.[WRITE_META];
  if (typeof token === 'string' && (canManage(user) || !term.meta?.[WRITE_META]))
    term.meta = { ...term.meta, [WRITE_META]: token };
  const body = present(
    { ...req, params: { ...params, context: 'edit' } },
    term,
    store.termCounts().get(term.id) ?? 0,
    'edit',
  );
  if (existing) return HttpResponse.json(body);
  return HttpResponse.json(body, {
    status: 201,
    headers: { Location: `${site.root}/wp/v2/${tax.restBase}/${term.id}` },
  });
}

/** OPTIONS on a taxonomy's route, reduced to what clients read from it: the registered term meta. */
export function termOptions(tax: TaxonomyInfo): Response {
  return HttpResponse.json({
    namespace: 'wp/v2',
    methods: ['GET', 'POST'],
    schema: {
      title: tax.name,
      type: 'object',
      properties: {
        meta: {
          type: 'object',
          context: ['view', 'edit'],
          properties: { [WRITE_META]: { type: 'string', default: '', context: ['edit'] } },
        },
      },
    },
  });
}

export function deleteTerm(req: Req, tax: TaxonomyInfo, id: string): Response {
  const term = getTerm(req, tax, id);
  if (!canManage(req.user))
    throw new WpError(
      'rest_cannot_delete',
      'Sorry, you are not allowed to delete this term.',
      authCode(req.user !== null),
    );
  if (!toBool(req.params.force)) {
    throw new WpError(
      'rest_trash_not_supported',
      "Terms do not support trashing. Set 'force=true' to delete.",
      501,
    );
  }
  const previous = present(
    { ...req, params: { ...req.params, context: 'edit' } },
    term,
    req.site.store.termCounts().get(term.id) ?? 0,
    'edit',
  );
  req.site.store.deleteTerm(term.id);
  return HttpResponse.json({ deleted: true, previous });
}
