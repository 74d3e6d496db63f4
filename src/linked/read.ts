// Venue/organizer lookups: existence (400 as TEC), reads with the caller's credentials, TEC's access codes, records.
import type { RequestContext } from '../context.ts';
import type { LinkedKind } from '../contract/linked.ts';
import type { Deps } from '../deps.ts';
import { ApiError, invalidParams, linkedNotAccessible } from '../http/errors.ts';
import { asGuesses } from '../passwords/guesses.ts';
import { isProtected } from '../serialize/common.ts';
import type { Json, SiteInfo } from '../serialize/index.ts';
import { serializeOrganizer, serializeVenue } from '../serialize/index.ts';
import { asCaller } from '../wp/client.ts';
import type { WpMedia, WpPost } from '../wp/types.ts';
import type { LinkedFacets } from './catalog.ts';

export const PLURAL: Record<LinkedKind, string> = { venue: 'venues', organizer: 'organizers' };

const restPath = (deps: Deps, kind: LinkedKind, id?: number) =>
  `/wp/v2/${deps.mapping[kind].restBase}${id === undefined ? '' : `/${id}`}`;

/**
 * Whether a post of that kind exists (any status, trash included). The catalog answers first; a miss is checked
 * upstream with the service credential (the catalog may be a few seconds old). Reveals nothing but existence.
 */
async function exists(deps: Deps, kind: LinkedKind, id: number, language: string): Promise<boolean> {
  if ((await deps.catalog.all(kind, language)).has(id)) return true;
  const service = !!deps.wp.options.serviceAuth;
  try {
    await deps.wp.request({
      path: restPath(deps, kind, id),
      query: { context: service ? 'edit' : 'view', _fields: 'id' },
      as: service ? 'service' : 'anonymous',
    });
    return true;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return true;
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}

/** TEC validates `id` before anything else: not a venue/organizer → 400 rest_invalid_param. */
export async function requireId(
  deps: Deps,
  ctx: RequestContext,
  kind: LinkedKind,
  id: number,
): Promise<number> {
  if (!(await exists(deps, kind, id, ctx.language)))
    throw invalidParams({ id: `id: no ${kind} with the id ${id}.` });
  return id;
}

/** A slug resolves through `post_name` (a trashed post's slug gains `__trashed`, so it no longer resolves). */
export async function idOfSlug(
  deps: Deps,
  ctx: RequestContext,
  kind: LinkedKind,
  slug: string,
): Promise<number> {
  // wp/v2 splits `slug` on spaces and commas and drops the filter when nothing is left: ` ` would list every post.
  if (!slug.trim() || /[\s,]/.test(slug))
    throw invalidParams({ slug: 'slug must be one slug, without spaces or commas.' });
  for (const f of (await deps.catalog.all(kind, ctx.language)).values()) if (f.slug === slug) return f.id;
  const service = !!deps.wp.options.serviceAuth;
  const res = await deps.wp.list<{ id: number }>({
    path: restPath(deps, kind),
    query: { slug, _fields: 'id', status: service ? 'publish,future,draft,pending,private' : undefined },
    as: service ? 'service' : 'anonymous',
    language: ctx.language,
  });
  const id = res.items[0]?.id;
  if (id === undefined) throw invalidParams({ slug: `slug: no ${kind} has the slug "${slug}".` });
  return id;
}

/**
 * The post as the caller may see it. WordPress decides: a refusal is TEC's 403 `*-not-accessible`. A wrong
 * `password` is not an error in TEC (the protected fields are blanked), so the read is repeated without it.
 */
export async function readPost(
  deps: Deps,
  ctx: RequestContext,
  kind: LinkedKind,
  id: number,
  opts: { password?: string; context?: 'view' | 'edit'; onRefused?: () => void } = {},
): Promise<WpPost> {
  const get = (password?: string) =>
    deps.wp.request<WpPost>({
      path: restPath(deps, kind, id),
      query: { context: opts.context ?? 'view', password },
      ...asCaller(ctx),
    });
  try {
    return (
      await get(opts.password).catch((err: unknown) => {
        if (opts.password && err instanceof ApiError && err.code === 'rest_post_incorrect_password') {
          opts.onRefused?.();
          return get();
        }
        throw err;
      })
    ).body;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 401 || err.status === 403) throw linkedNotAccessible(kind, id);
    if (err.status === 404) throw invalidParams({ id: `id: no ${kind} with the id ${id}.` });
    throw err;
  }
}

/** Featured images of the posts, read with the caller's credentials (one `include=` request). */
export async function mediaOf(
  deps: Deps,
  ctx: RequestContext,
  posts: WpPost[],
): Promise<Map<number, WpMedia>> {
  const ids = [
    ...new Set(posts.map((p) => p.featured_media).filter((m): m is number => typeof m === 'number' && m > 0)),
  ];
  if (!ids.length) return new Map();
  const res = await deps.wp
    .list<WpMedia>({
      path: '/wp/v2/media',
      query: { include: ids, per_page: 100 },
      as: { credentials: ctx.credentials },
      signal: ctx.signal,
    })
    .catch(() => ({ items: [] as WpMedia[] }));
  return new Map(res.items.map((m) => [m.id, m]));
}

/**
 * wp/v2's view context renders an excerpt generated from the content when none is stored; TEC shows only the
 * stored one. The catalog knows whether one is stored, so an empty stored excerpt is passed on as `raw: ''`.
 */
export function withStoredExcerpt(post: WpPost, stored: LinkedFacets | undefined): WpPost {
  if (!post.excerpt || post.excerpt.raw !== undefined || stored?.values.excerpt === undefined) return post;
  return { ...post, excerpt: { ...post.excerpt, raw: stored.values.excerpt } };
}

export function serialize(
  deps: Deps,
  kind: LinkedKind,
  post: WpPost,
  media: Map<number, WpMedia>,
  site: SiteInfo,
  context: 'list' | 'single' | 'write',
  opts: { password?: string; stored?: LinkedFacets } = {},
): Json {
  const o = { mapping: deps.mapping, site, context, password: opts.password };
  const p = withStoredExcerpt(post, opts.stored);
  return kind === 'venue' ? serializeVenue(p, { media }, o) : serializeOrganizer(p, { media }, o);
}

/** GET by id: the record as the caller may see it (protected fields blanked unless the password matches). */
export async function readLinked(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  kind: LinkedKind,
  id: number,
  password: string | undefined,
): Promise<Json> {
  await requireId(deps, ctx, kind, id);
  // A password is a guess at this record, throttled per client: wrong when WordPress refused it on a protected post
  // (it refuses any password on a post without one, which TEC ignores).
  let refused = false;
  const post = await asGuesses(
    deps.passwordGuesses,
    ctx.client,
    password === undefined ? [] : [`${kind}:${id}`],
    () => readPost(deps, ctx, kind, id, { password, onRefused: () => (refused = true) }),
    { of: (p) => (refused && isProtected(p) ? [`${kind}:${id}`] : []) },
  );
  if (post.status !== 'publish' && !ctx.credentials) throw linkedNotAccessible(kind, id);
  const stored = (await deps.catalog.all(kind, ctx.language)).get(id);
  return serialize(deps, kind, post, await mediaOf(deps, ctx, [post]), site, 'single', { password, stored });
}

/** TEC reads `password` from the raw request everywhere, though only event routes declare it. */
export function passwordOf(raw: Record<string, unknown>): string | undefined {
  const v = raw.password;
  return typeof v === 'string' && v !== '' ? v : undefined;
}
