// Shared pieces of the term handlers: taxonomy lookup, existence checks, permission and upstream error mapping.
import type { RequestContext } from '../context.ts';
import type { TermKind } from '../contract/terms.ts';
import type { Deps } from '../deps.ts';
import { ApiError, forbidden, invalidParams } from '../http/errors.ts';
import type { TaxonomySource } from '../mapping/schema.ts';
import { requireEditor } from '../write/caller.ts';

/** The mapping's taxonomy behind a kind; a mapping without it has no such terms (every id is unknown). */
export function taxonomyOf(deps: Deps, kind: TermKind, name = 'id'): TaxonomySource {
  const tax = deps.mapping.event[kind];
  if (!tax) throw invalidParams({ [name]: `${name}: this site's mapping has no ${kind} taxonomy.` });
  return tax;
}

export const termPath = (tax: TaxonomySource, id?: number): string =>
  `/wp/v2/${tax.restBase}${id === undefined ? '' : `/${id}`}`;

/** Whether a term id exists in the taxonomy (terms are public: asked anonymously, revealing nothing private). */
export async function termExists(
  deps: Deps,
  ctx: RequestContext,
  tax: TaxonomySource,
  id: number,
): Promise<boolean> {
  try {
    await deps.wp.request({
      path: termPath(tax, id),
      query: { _fields: 'id' },
      as: 'anonymous',
      signal: ctx.signal,
      language: ctx.language,
    });
    return true;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.code === 'rest_term_invalid')) return false;
    throw err;
  }
}

/** TEC validates ids before permissions: an unknown id is a 400 `rest_invalid_param` for everyone. */
export async function requireTerm(
  deps: Deps,
  ctx: RequestContext,
  tax: TaxonomySource,
  id: number,
  name = 'id',
) {
  if (!(await termExists(deps, ctx, tax, id)))
    throw invalidParams({ [name]: `${name}: no term with the id ${id}.` });
}

/**
 * Resolves ids or slugs to term ids; each must exist. The term cache may be a few seconds old, so an
 * unknown value triggers one fresh read before it is refused.
 */
export async function resolveRefs(
  deps: Deps,
  ctx: RequestContext,
  tax: TaxonomySource,
  name: string,
  values: string[] | undefined,
): Promise<number[] | undefined> {
  if (!values?.length) return undefined;
  let r = await deps.terms.resolve(tax, ctx.language, values);
  if (r.unknown.length) {
    deps.terms.invalidate(tax);
    r = await deps.terms.resolve(tax, ctx.language, values);
  }
  if (r.unknown.length)
    throw invalidParams({ [name]: `${name} has no term with the id or slug ${r.unknown.join(', ')}.` });
  return r.ids;
}

/** WordPress's map_meta_cap for the core taxonomies' meta caps (`post_tag` manages with `manage_post_tags`). */
const META_TERM_CAPS: Record<string, string> = {
  manage_post_tags: 'manage_categories',
  edit_post_tags: 'manage_categories',
  delete_post_tags: 'manage_categories',
  edit_categories: 'manage_categories',
  delete_categories: 'manage_categories',
};

/** The taxonomy's `manage_terms` capability name, read once per taxonomy (WordPress's default otherwise). */
const manageCaps = new WeakMap<Deps, Map<string, Promise<string>>>();

async function manageCapOf(deps: Deps, tax: TaxonomySource): Promise<string> {
  let byTax = manageCaps.get(deps);
  if (!byTax) {
    byTax = new Map();
    manageCaps.set(deps, byTax);
  }
  let cap = byTax.get(tax.taxonomy);
  if (!cap) {
    cap = deps.wp
      .request<{ capabilities?: Record<string, string> }>({
        path: `/wp/v2/taxonomies/${tax.taxonomy}`,
        query: { context: deps.wp.options.serviceAuth ? 'edit' : 'view' },
        as: deps.wp.options.serviceAuth ? 'service' : 'anonymous',
      })
      .then((r) => r.body.capabilities?.manage_terms ?? 'manage_categories')
      .catch(() => 'manage_categories');
    byTax.set(tax.taxonomy, cap);
  }
  return cap;
}

/**
 * TEC's permission for term writes: the caller can edit events AND manage the taxonomy's terms. WordPress
 * still has the last word on the write itself (credentials pass through); this check only adds TEC's stricter
 * rule for tags (wp/v2 lets anyone who may assign tags create them).
 */
export async function requireTermWriter(deps: Deps, ctx: RequestContext, tax: TaxonomySource): Promise<void> {
  const caller = await requireEditor(deps, ctx, 'event');
  const manage = await manageCapOf(deps, tax);
  if (caller.caps[META_TERM_CAPS[manage] ?? manage] !== true) throw forbidden(true);
}

/** The gateway's public REST root (`…/wp-json`): WordPress's own links are rewritten onto it (it proxies wp/v2). */
export function publicLinks(deps: Deps, apiRoot: string, links: unknown): unknown {
  // WordPress names itself by its `home` URL, which may not be the host the gateway calls it on.
  const { baseUrl, canonicalBaseUrl } = deps.wp.options;
  const roots = canonicalBaseUrl ? [baseUrl, canonicalBaseUrl] : [baseUrl];
  const to = apiRoot.replace(/\/calendar\/events\/v1$/, '');
  return JSON.parse(JSON.stringify(links ?? {}), (_k, v) => {
    if (typeof v !== 'string') return v;
    const from = roots.find((r) => v.startsWith(r));
    return from === undefined ? v : to + v.slice(from.length);
  });
}

export type { TermKind };
