// One term by id: read, create, update and permanent delete, with the caller's credentials passed through.
import type { RequestContext } from '../context.ts';
import type { TermKind } from '../contract/terms.ts';
import type { Deps } from '../deps.ts';
import type { HandlerResult } from '../http/handler.ts';
import type { Json, SiteInfo } from '../serialize/index.ts';
import { serializeTerm } from '../serialize/index.ts';
import { asCaller } from '../wp/client.ts';
import { refusal } from '../wp/errors.ts';
import type { WpTerm } from '../wp/types.ts';
import { creatingAsCaller, newUndo, undoing, withStamp } from '../write/undo.ts';
import { publicLinks, requireTerm, requireTermWriter, taxonomyOf, termPath } from './common.ts';

/** The parsed write arguments (categories add `parent`). */
export interface TermWriteArgs {
  id?: number;
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
}

type Upstream = WpTerm & { _links?: unknown };

const loggedIn = (ctx: RequestContext): boolean => ctx.credentials !== undefined;

/** TEC's single-term body: the list form, then WordPress's `_links` (pointed at the gateway's wp/v2 proxy). */
function singleBody(deps: Deps, kind: TermKind, site: SiteInfo, term: Upstream, withLinks: boolean): Json {
  const tax = taxonomyOf(deps, kind);
  const out = serializeTerm(term, kind, { site, embedded: false, taxonomy: tax.taxonomy });
  if (withLinks && term._links) out._links = publicLinks(deps, site.apiRoot, term._links) as Json;
  return out;
}

export async function readTerm(
  deps: Deps,
  kind: TermKind,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
): Promise<HandlerResult> {
  const tax = taxonomyOf(deps, kind);
  try {
    const res = await deps.wp.request<Upstream>({
      path: termPath(tax, id),
      ...asCaller(ctx),
    });
    return { body: singleBody(deps, kind, site, res.body, true) };
  } catch (err) {
    throw refusal(err, loggedIn(ctx));
  }
}

/** Only the fields sent go upstream: an update changes nothing else. */
function fieldsOf(args: TermWriteArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['name', 'description', 'slug', 'parent'] as const)
    if (args[k] !== undefined) out[k] = args[k];
  return out;
}

/** Validation first (TEC checks ids before permissions), then TEC's permission, then WordPress's own. */
async function prepareWrite(
  deps: Deps,
  kind: TermKind,
  ctx: RequestContext,
  args: TermWriteArgs,
  id?: number,
) {
  const tax = taxonomyOf(deps, kind);
  await Promise.all([
    id !== undefined ? requireTerm(deps, ctx, tax, id) : undefined,
    args.parent !== undefined ? requireTerm(deps, ctx, tax, args.parent, 'parent') : undefined,
  ]);
  await requireTermWriter(deps, ctx, tax);
  return tax;
}

export async function createTerm(
  deps: Deps,
  kind: TermKind,
  ctx: RequestContext,
  site: SiteInfo,
  args: TermWriteArgs,
): Promise<HandlerResult> {
  const tax = await prepareWrite(deps, kind, ctx, args);
  // A create whose answer is lost is found by its write's token and removed: a refused write leaves no term.
  const undo = newUndo(deps);
  try {
    const res = await undoing(
      deps,
      ctx,
      undo,
      () =>
        undo.create(
          'terms',
          tax.restBase,
          (meta) =>
            deps.wp.request<Upstream>({
              path: termPath(tax),
              method: 'POST',
              body: withStamp(fieldsOf(args), meta),
              ...creatingAsCaller(ctx),
            }),
          ctx.signal,
        ),
      { map: (err) => refusal(err, loggedIn(ctx)) },
    );
    const location = res.headers.get('location');
    return {
      status: 201,
      body: singleBody(deps, kind, site, res.body, true),
      headers: location ? { Location: String(publicLinks(deps, site.apiRoot, location)) } : undefined,
      // A term has no private state: only its delete takes something out of public view (src/cache/soft.ts).
      soft: true,
    };
  } finally {
    // Events embed terms from this cache: drop it so they show the change at once (also after a failure,
    // which costs one extra read and never shows a stale name).
    deps.terms.invalidate(tax);
  }
}

export async function updateTerm(
  deps: Deps,
  kind: TermKind,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  args: TermWriteArgs,
): Promise<HandlerResult> {
  const tax = await prepareWrite(deps, kind, ctx, args, id);
  try {
    const res = await deps.wp.request<Upstream>({
      path: termPath(tax, id),
      method: 'POST',
      body: fieldsOf(args),
      ...asCaller(ctx),
    });
    return { body: singleBody(deps, kind, site, res.body, true), soft: true };
  } catch (err) {
    throw refusal(err, loggedIn(ctx));
  } finally {
    deps.terms.invalidate(tax);
  }
}

/** Terms have no trash: the delete is permanent (force) and answers the term as it was, without `_links`. */
export async function deleteTerm(
  deps: Deps,
  kind: TermKind,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
): Promise<HandlerResult> {
  const tax = await prepareWrite(deps, kind, ctx, {}, id);
  try {
    const res = await deps.wp.request<{ deleted?: boolean; previous: Upstream }>({
      path: termPath(tax, id),
      method: 'DELETE',
      // api-fetch sends DELETE as POST + X-HTTP-Method-Override; `_method` says the same in the query, which
      // every WordPress (and the mock, which ignores the header) honours.
      query: { force: true, _method: 'DELETE' },
      ...asCaller(ctx),
    });
    return { body: singleBody(deps, kind, site, res.body.previous, false) };
  } catch (err) {
    throw refusal(err, loggedIn(ctx));
  } finally {
    deps.terms.invalidate(tax);
  }
}
