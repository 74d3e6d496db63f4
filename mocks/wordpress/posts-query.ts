// The collection query of WP_REST_Posts_Controller::get_items as WP_Query would run it: filters, search, order.
import { SERIES_QUERY } from '../../src/recurrence/store.ts';
import { WRITE_META, WRITE_QUERY } from '../../src/wp/probe.ts';
import type { MockUser } from './caps.ts';
import { hasCap } from './caps.ts';
import { authCode, type Params, parseList, WpError } from './http-util.ts';
import { intList, type Specs, siteLocal, validateParams } from './params.ts';
import type { PostTypeInfo, TaxonomyInfo } from './schema.ts';
import type { StoredPost } from './store.ts';

export const STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
];
export const ORDERBY = [
  'author',
  'date',
  'id',
  'include',
  'modified',
  'parent',
  'relevance',
  'slug',
  'include_slugs',
  'title',
];
/** get_search_stopwords() of en_US. */
const STOPWORDS = new Set(
  'about an are as at be by com for from how in is it of on or that the this to was what when where who will with www'.split(
    ' ',
  ),
);

export function collectionSpecs(taxonomies: TaxonomyInfo[]): Specs {
  const specs: Specs = {
    context: { kind: 'enum', values: ['view', 'embed', 'edit'] },
    page: { kind: 'int', min: 1 },
    per_page: { kind: 'int', min: 1, max: 100 },
    offset: { kind: 'int' },
    order: { kind: 'enum', values: ['asc', 'desc'] },
    orderby: { kind: 'enum', values: ORDERBY },
    include: { kind: 'int-list' },
    exclude: { kind: 'int-list' },
    author: { kind: 'int-list' },
    author_exclude: { kind: 'int-list' },
    parent: { kind: 'int-list' },
    parent_exclude: { kind: 'int-list' },
    menu_order: { kind: 'int' },
    status: { kind: 'string-list', enum: [...STATUSES, 'any'] },
    after: { kind: 'date' },
    before: { kind: 'date' },
    modified_after: { kind: 'date' },
    modified_before: { kind: 'date' },
    tax_relation: { kind: 'enum', values: ['AND', 'OR'] },
  };
  for (const t of taxonomies) {
    specs[t.restBase] = { kind: 'int-list' };
    specs[`${t.restBase}_exclude`] = { kind: 'int-list' };
  }
  return specs;
}

/** parse_search_terms: words split on spaces, commas, plus and quotes; stopwords and single letters dropped. */
export function searchTerms(search: string): Array<{ term: string; exclude: boolean }> {
  const raw = search.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g) ?? [];
  const terms = raw
    .map((t) => t.replace(/^"|"$/g, '').trim())
    .filter((t) => t && !(t.length === 1 && /^[a-z-]$/i.test(t)) && !STOPWORDS.has(t.toLowerCase()))
    .map((t) =>
      t.startsWith('-') && t.length > 1 ? { term: t.slice(1), exclude: true } : { term: t, exclude: false },
    );
  if (terms.length === 0 || terms.length > 9) return [{ term: search, exclude: false }];
  return terms;
}

function matchesSearch(p: StoredPost, terms: Array<{ term: string; exclude: boolean }>): boolean {
  const hay = [p.title, p.excerpt, p.content].map((s) => s.toLowerCase());
  return terms.every(({ term, exclude }) => {
    const hit = hay.some((h) => h.includes(term.toLowerCase()));
    return exclude ? !hit : hit;
  });
}

/** Statuses the caller asked for, after sanitize_post_statuses' capability check. */
export function requestedStatuses(params: Params, user: MockUser | null): string[] {
  const statuses = params.status === undefined ? ['publish'] : parseList(params.status);
  for (const s of statuses) {
    if (s === 'publish') continue;
    if (!(hasCap(user, 'edit_posts') || (s === 'private' && hasCap(user, 'read_private_posts')))) {
      const status = authCode(user !== null);
      throw new WpError('rest_invalid_param', 'Invalid parameter(s): status', 400, {
        params: { status: 'Status is forbidden.' },
        details: {
          status: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status } },
        },
      });
    }
  }
  return statuses;
}

export interface QueryResult {
  posts: StoredPost[];
  total: number;
  page: number;
  perPage: number;
}

export function runQuery(
  all: readonly StoredPost[],
  params: Params,
  info: PostTypeInfo,
  taxonomies: TaxonomyInfo[],
  user: MockUser | null,
  tz: string,
  /** Keeps the matches of a query across its pages (the store drops them on any change). */
  cache: (key: string, run: () => StoredPost[]) => StoredPost[] = (_, run) => run(),
): QueryResult {
  validateParams(params, collectionSpecs(taxonomies));
  const statuses = requestedStatuses(params, user);
  const orderby = String(params.orderby ?? 'date');
  if (orderby === 'relevance' && !params.search) {
    throw new WpError(
      'rest_no_search_term_defined',
      'You need to define a search term to order by relevance.',
      400,
    );
  }
  const include = intList(params.include);
  if (orderby === 'include' && include.length === 0) {
    throw new WpError(
      'rest_orderby_include_missing_include',
      'You need to define an include parameter to order by include.',
      400,
    );
  }
  const { page: _p, per_page: _pp, offset: _o, ...query } = params;
  const key = JSON.stringify([info.name, user?.id ?? 0, statuses, query]);
  const posts = cache(key, () => matching(all, params, info, taxonomies, statuses, include, orderby, tz));
  const perPage = params.per_page === undefined ? 10 : Number(params.per_page);
  const page = params.page === undefined ? 1 : Number(params.page);
  const offset = params.offset === undefined ? (page - 1) * perPage : Number(params.offset);
  return { posts: posts.slice(offset, offset + perPage), total: posts.length, page, perPage };
}

/** The posts a collection query matches, in its order. */
function matching(
  all: readonly StoredPost[],
  params: Params,
  info: PostTypeInfo,
  taxonomies: TaxonomyInfo[],
  statuses: string[],
  include: number[],
  orderby: string,
  tz: string,
): StoredPost[] {
  const any = statuses.includes('any');
  let posts = all.filter(
    (p) =>
      p.type === info.name &&
      (any ? !['trash', 'auto-draft'].includes(p.status) : statuses.includes(p.status)),
  );
  if (include.length) {
    const wanted = new Set(include);
    posts = posts.filter((p) => wanted.has(p.id));
  }
  const exclude = new Set(intList(params.exclude));
  if (exclude.size) posts = posts.filter((p) => !exclude.has(p.id));
  const slugs = parseList(params.slug);
  if (slugs.length) posts = posts.filter((p) => slugs.includes(p.slug));
  const authors = intList(params.author);
  if (authors.length) posts = posts.filter((p) => authors.includes(p.author));
  const authorsOut = intList(params.author_exclude);
  if (authorsOut.length) posts = posts.filter((p) => !authorsOut.includes(p.author));
  const parents = intList(params.parent);
  if (parents.length) posts = posts.filter((p) => parents.includes(p.parent));
  // The companion plugin's filter: the posts a gateway write created (its token in WRITE_META).
  if (params[WRITE_QUERY] !== undefined)
    posts = posts.filter((p) => String(p.meta[WRITE_META]?.[0] ?? '') === String(params[WRITE_QUERY]));
  // The companion plugin's filter: the overrides of a recurring series (its id in the series_parent meta key).
  if (params[SERIES_QUERY] !== undefined && info.seriesMeta)
    posts = posts.filter((p) => String(p.meta[info.seriesMeta!]?.[0] ?? '') === String(params[SERIES_QUERY]));
  if (params.menu_order !== undefined) posts = posts.filter((p) => p.menuOrder === Number(params.menu_order));
  if (typeof params.search === 'string' && params.search.trim()) {
    const terms = searchTerms(params.search.trim());
    posts = posts.filter((p) => matchesSearch(p, terms));
  }
  const dateFilters: Array<[string, 'date' | 'modified', 1 | -1]> = [
    ['after', 'date', 1],
    ['before', 'date', -1],
    ['modified_after', 'modified', 1],
    ['modified_before', 'modified', -1],
  ];
  for (const [param, column, dir] of dateFilters) {
    if (params[param] === undefined) continue;
    const bound = siteLocal(params[param], tz);
    posts = posts.filter((p) => (dir === 1 ? p[column] > bound : p[column] < bound));
  }
  const taxChecks: Array<(p: StoredPost) => boolean> = [];
  for (const t of taxonomies) {
    const ids = intList(params[t.restBase]);
    if (ids.length) taxChecks.push((p) => (p.terms[t.name] ?? []).some((id) => ids.includes(id)));
    const out = intList(params[`${t.restBase}_exclude`]);
    if (out.length) posts = posts.filter((p) => !(p.terms[t.name] ?? []).some((id) => out.includes(id)));
  }
  if (taxChecks.length) {
    const and = String(params.tax_relation ?? 'AND') === 'AND';
    posts = posts.filter((p) => (and ? taxChecks.every((c) => c(p)) : taxChecks.some((c) => c(p))));
  }

  const dir = String(params.order ?? 'desc') === 'asc' ? 1 : -1;
  const key = (p: StoredPost): string | number => {
    switch (orderby) {
      case 'author':
        return p.author;
      case 'id':
        return p.id;
      case 'modified':
        return p.modified;
      case 'parent':
        return p.parent;
      case 'slug':
        return p.slug;
      case 'title':
        return p.title.toLowerCase();
      case 'include':
        return include.indexOf(p.id);
      case 'include_slugs':
        return slugs.indexOf(p.slug);
      case 'relevance':
        return p.title.toLowerCase().includes(String(params.search).toLowerCase()) ? 1 : 0;
      default:
        return p.date;
    }
  };
  // post__in / post_name__in keep the given order whatever `order` says; ties fall back to the id (as MySQL tends to).
  const fixed = orderby === 'include' || orderby === 'include_slugs';
  posts.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return (ka < kb ? -1 : 1) * (fixed ? 1 : dir);
    if (orderby === 'relevance') return a.date < b.date ? 1 : a.date > b.date ? -1 : 0;
    return (a.id - b.id) * (fixed ? 1 : dir);
  });
  return posts;
}
