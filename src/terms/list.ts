// GET /categories and /tags: validates TEC's filters, then passes them through to wp/v2's terms collection.

import type { RequestContext } from '../context.ts';
import type { ArgsShape } from '../contract/args.ts';
import type { TermKind } from '../contract/terms.ts';
import type { Deps } from '../deps.ts';
import { eventQueryOf, VISIBILITY_ONLY } from '../events/filters.ts';
import { listUrl } from '../events/page.ts';
import { openedBy } from '../events/protected.ts';
import { ApiError, invalidParams } from '../http/errors.ts';
import type { HandlerInput, HandlerResult } from '../http/handler.ts';
import { seenInFull } from '../index/query.ts';
import { serializeTerm } from '../serialize/index.ts';
import { asCaller } from '../wp/client.ts';
import { refusal } from '../wp/errors.ts';
import type { WpTerm } from '../wp/types.ts';
import { requireTerm, resolveRefs, taxonomyOf, termPath } from './common.ts';

/** The parsed list arguments (categories add `parent`). */
export interface TermListArgs {
  page?: number;
  per_page?: number;
  search?: string;
  include?: string[];
  exclude?: string[];
  order?: string;
  orderby?: string;
  hide_empty?: boolean;
  parent?: number;
  post?: number;
  event?: number;
  password?: string;
  slug?: string[];
  multilang_language?: string;
}

/** wp/v2's `orderby` enum: anything else TEC would pass on is refused here as a 400, not a 500 upstream. */
const WP_ORDERBY = new Set([
  'id',
  'include',
  'name',
  'slug',
  'include_slugs',
  'term_group',
  'description',
  'count',
]);

export async function listTerms(
  deps: Deps,
  kind: TermKind,
  input: HandlerInput<ArgsShape>,
): Promise<HandlerResult> {
  const { ctx, site } = input;
  const a = input.args as TermListArgs;
  const tax = taxonomyOf(deps, kind, 'page');
  const orderby = a.orderby ?? 'name';
  if (!WP_ORDERBY.has(orderby))
    throw invalidParams({ orderby: `orderby is not one of ${[...WP_ORDERBY].join(', ')}.` });
  // TEC: `event` is an alias of `post`, and when both are sent `event` wins.
  const post = a.event ?? a.post;
  const postName = a.event !== undefined ? 'event' : 'post';
  const [include, exclude, , seen] = await Promise.all([
    resolveRefs(deps, ctx, tax, 'include', a.include),
    resolveRefs(deps, ctx, tax, 'exclude', a.exclude),
    a.parent !== undefined ? requireTerm(deps, ctx, tax, a.parent, 'parent') : undefined,
    post !== undefined ? requireEvent(deps, ctx, post, postName, a.password) : true,
  ]);
  const page = a.page ?? 1;
  const perPage = a.per_page ?? 10;
  const query = {
    page,
    per_page: perPage,
    search: a.search || undefined,
    include,
    exclude,
    order: a.order ?? 'asc',
    orderby,
    hide_empty: a.hide_empty ?? true,
    parent: a.parent,
    post,
    slug: a.slug,
  };
  let res: { items: WpTerm[]; total: number } = { items: [], total: 0 };
  try {
    // A protected event's terms are blanked for whoever does not see it in full: it has none for them.
    if (seen) res = await deps.wp.list<WpTerm>({ path: termPath(tax), query, ...asCaller(ctx) });
  } catch (err) {
    throw listError(err, ctx.credentials !== undefined);
  }
  const totalPages = res.total === 0 ? 0 : Math.ceil(res.total / perPage);
  const items = res.items.map((t) =>
    serializeTerm(t, kind, { site, embedded: false, taxonomy: tax.taxonomy }),
  );

  // Our choice (docs/differences.md): rest_url and the page links keep every filter of the
  // request, as the events list does; TEC's term lists echo none, so following its links loses the filters.
  const echo = {
    per_page: perPage,
    search: a.search || undefined,
    include: a.include,
    exclude: a.exclude,
    order: a.order && a.order !== 'asc' ? a.order : undefined,
    orderby: a.orderby && a.orderby !== 'name' ? a.orderby : undefined,
    hide_empty: a.hide_empty === false ? 'false' : undefined,
    parent: a.parent,
    post: a.post,
    event: a.event,
    slug: a.slug,
    multilang_language: a.multilang_language,
  };
  const body: Record<string, unknown> = {
    rest_url: listUrl(site.apiRoot, kind, echo, page),
    total: res.total,
    total_pages: totalPages,
    [kind]: items,
  };
  if (page < totalPages) body.next_rest_url = listUrl(site.apiRoot, kind, echo, page + 1);
  if (page > 1) body.previous_rest_url = listUrl(site.apiRoot, kind, echo, page - 1);
  return {
    body,
    headers: { 'X-TEC-Total': String(res.total), 'X-TEC-TotalPages': String(totalPages) },
  };
}

/**
 * `post`/`event` must name an existing event (any status): checked against the event index. Resolves to whether the
 * caller sees its terms: not when it is protected and the caller may not edit it nor gave its password.
 */
async function requireEvent(
  deps: Deps,
  ctx: RequestContext,
  id: number,
  name: string,
  password: string | undefined,
): Promise<boolean> {
  const index = await deps.indexes.forLanguage(ctx.language);
  const event = index.get(id);
  if (!event) throw invalidParams({ [name]: `${name}: no event with the id ${id}.` });
  if (!event.protected) return true;
  const { visibility } = await eventQueryOf(deps, ctx, {}, VISIBILITY_ONLY);
  if (seenInFull(visibility.seesProtected, event)) return true;
  return (
    password !== undefined && (await openedBy(deps, ctx, index, [id], visibility, password)).includes(id)
  );
}

/** A 400 from wp/v2 (a value it refuses) becomes TEC's rest_invalid_param naming the same parameters. */
function listError(err: unknown, loggedIn: boolean): unknown {
  if (err instanceof ApiError && err.status === 400) {
    const params = err.data.params;
    const named =
      params && typeof params === 'object' && !Array.isArray(params)
        ? Object.fromEntries(
            Object.entries(params as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
          )
        : { query: err.message };
    return invalidParams(named);
  }
  return refusal(err, loggedIn);
}
