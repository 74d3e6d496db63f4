import { HttpResponse } from 'msw';
import { canPost, hasCap, type MockUser } from './caps.ts';
import { authCode, filterFields, linkHeader, type Params, parseList, WpError } from './http-util.ts';
import { toBool, validateParams } from './params.ts';
import { runQuery } from './posts-query.ts';
import {
  type Context,
  postLinks,
  renderMedia,
  renderPost,
  renderTerm,
  renderUser,
  type Site,
} from './render.ts';
import type { PostTypeInfo } from './schema.ts';
import type { StoredPost } from './store.ts';

export interface Req {
  method: string;
  url: URL;
  /** Query merged with the body (the body wins). */
  params: Params;
  user: MockUser | null;
  site: Site;
}

const forbidden = (user: MockUser | null) =>
  new WpError('rest_forbidden', 'Sorry, you are not allowed to do that.', authCode(user !== null));

export function getPost(site: Site, info: PostTypeInfo, rawId: string): StoredPost {
  const post = site.store.posts.get(Number(rawId));
  if (!post || post.type !== info.name) throw new WpError('rest_post_invalid_id', 'Invalid post ID.', 404);
  return post;
}

/** The REST record with `_links`, optional `_embedded`, then `_fields` filtering. */
export function present(
  req: Req,
  info: PostTypeInfo,
  post: StoredPost,
  context: Context,
): Record<string, unknown> {
  const { site, user, params } = req;
  const canSeeProtected =
    post.password === '' ||
    (context === 'edit' && canPost(user, 'edit', post)) ||
    (typeof params.password === 'string' && params.password === post.password);
  let data = renderPost(site, info, post, { context, canSeeProtected });
  const fields = parseList(params._fields);
  if (fields.length) data = filterFields(data, fields);
  if (!fields.length || fields.includes('_links')) data._links = postLinks(site, info, post);
  if (params._embed !== undefined && (!fields.length || fields.includes('_embedded')))
    data._embedded = embedded(req, info, post);
  return data;
}

function embedded(req: Req, info: PostTypeInfo, post: StoredPost): Record<string, unknown> {
  const { site } = req;
  const rels = parseList(req.params._embed === '1' || req.params._embed === 'true' ? '' : req.params._embed);
  const want = (rel: string) => rels.length === 0 || rels.includes(rel);
  const out: Record<string, unknown> = {};
  const author = site.store.users.find((u) => u.id === post.author);
  if (want('author') && author) out.author = [renderUser(site, author, 'embed')];
  const media = site.store.posts.get(post.featuredMedia);
  if (want('wp:featuredmedia') && media?.type === 'attachment')
    out['wp:featuredmedia'] = [renderMedia(site, media, 'embed')];
  if (want('wp:term') && info.taxonomies.length) {
    out['wp:term'] = info.taxonomies.map((tax) =>
      (post.terms[tax] ?? [])
        .map((id) => site.store.terms.get(id))
        .filter((t) => t !== undefined)
        .map((t) => renderTerm(site, t, 0, 'embed')),
    );
  }
  return out;
}

export function listPosts(req: Req, info: PostTypeInfo): Response {
  const { site, user, params } = req;
  const context = String(params.context ?? 'view') as Context;
  const result = runQuery(
    site.store.postsOfType(info.name),
    params,
    info,
    site.store.model.taxonomies,
    user,
    site.store.timezone,
    (key, run) => site.store.cachedQuery(key, run),
  );
  if (context === 'edit' && !hasCap(user, 'edit_posts')) {
    throw new WpError(
      'rest_forbidden_context',
      'Sorry, you are not allowed to edit posts in this post type.',
      authCode(user !== null),
    );
  }
  const maxPages = Math.ceil(result.total / result.perPage);
  if (result.page > maxPages && result.total > 0) {
    throw new WpError(
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
      400,
    );
  }
  // WP_Query counted every match; items the caller may not see are dropped afterwards (X-WP-Total keeps them).
  const visible = result.posts.filter((p) =>
    context === 'edit' ? canPost(user, 'edit', p) : p.status === 'publish' || canPost(user, 'read', p),
  );
  const body = visible.map((p) => present(req, info, p, context));
  const headers = new Headers({ 'X-WP-Total': String(result.total), 'X-WP-TotalPages': String(maxPages) });
  const links: Array<[string, string]> = [];
  const pageUrl = (n: number) => {
    const u = new URL(req.url.href);
    u.searchParams.set('page', String(n));
    return u.href;
  };
  if (result.page > 1) links.push(['prev', pageUrl(Math.min(result.page - 1, maxPages))]);
  if (maxPages > result.page) links.push(['next', pageUrl(result.page + 1)]);
  if (links.length) headers.set('Link', linkHeader(links));
  return HttpResponse.json(body, { headers });
}

export function readPost(req: Req, info: PostTypeInfo, id: string): Response {
  const { user, params } = req;
  validateParams(params, { context: { kind: 'enum', values: ['view', 'embed', 'edit'] } });
  const post = getPost(req.site, info, id);
  const context = String(params.context ?? 'view') as Context;
  if (context === 'edit' && !canPost(user, 'edit', post)) {
    throw new WpError(
      'rest_forbidden_context',
      'Sorry, you are not allowed to edit this post.',
      authCode(user !== null),
    );
  }
  if (typeof params.password === 'string' && params.password !== '' && params.password !== post.password) {
    throw new WpError('rest_post_incorrect_password', 'Incorrect post password.', 403);
  }
  if (!(post.status === 'publish' || canPost(user, 'read', post))) throw forbidden(user);
  return HttpResponse.json(present(req, info, post, context));
}

export function deletePost(req: Req, info: PostTypeInfo, id: string): Response {
  const { site, user, params } = req;
  const post = getPost(site, info, id);
  if (!canPost(user, 'delete', post)) {
    throw new WpError(
      'rest_cannot_delete',
      'Sorry, you are not allowed to delete this post.',
      authCode(user !== null),
    );
  }
  const editReq = { ...req, params: { ...params, context: 'edit' } };
  if (toBool(params.force)) {
    const previous = present(editReq, info, post, 'edit');
    site.store.deletePost(post.id);
    return HttpResponse.json({ deleted: true, previous });
  }
  if (post.status === 'trash')
    throw new WpError('rest_already_trashed', 'The post has already been deleted.', 410);
  // wp_trash_post keeps the old status and appends __trashed to the slug.
  const slug = post.slug;
  const trashed = site.store.updatePost(post.id, { status: 'trash', trashedFrom: post.status });
  site.store.setSlug(trashed, slug ? `${slug}__trashed` : '');
  return HttpResponse.json(present(editReq, info, trashed, 'edit'));
}
