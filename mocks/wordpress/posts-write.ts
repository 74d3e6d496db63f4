// Create and update of mapped posts (create_item / update_item of WP_REST_Posts_Controller in WordPress 6.1).
import { DateTime } from 'luxon';
import { HttpResponse } from 'msw';
import { canPost, hasCap } from './caps.ts';
import { authCode, parseList, WpError } from './http-util.ts';
import { DATE_RE, siteLocal, validateParams } from './params.ts';
import { getPost, present, type Req } from './posts.ts';
import { STATUSES } from './posts-query.ts';
import type { PostTypeInfo } from './schema.ts';
import { metaRows, validateMeta } from './schema.ts';
import type { StoredPost } from './store.ts';

const WRITE_SPECS = {
  status: {
    kind: 'enum' as const,
    values: STATUSES.filter((s) => !['trash', 'auto-draft', 'inherit'].includes(s)),
  },
  date: { kind: 'date' as const },
  date_gmt: { kind: 'date' as const },
  author: { kind: 'int' as const },
  featured_media: { kind: 'int' as const },
  menu_order: { kind: 'int' as const },
  parent: { kind: 'int' as const },
};

const text = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'raw' in v) return String((v as { raw: unknown }).raw);
  return undefined;
};

/** create_item / update_item: permission checks, prepare_item_for_database, insert, terms, then meta. */
export function writePost(req: Req, info: PostTypeInfo, id: string | undefined): Response {
  const { site, user, params } = req;
  const store = site.store;
  const logged = user !== null;
  const specs: Parameters<typeof validateParams>[1] = { ...WRITE_SPECS };
  for (const t of info.taxonomies) {
    const tax = store.model.taxonomies.find((x) => x.name === t);
    if (tax) specs[tax.restBase] = { kind: 'int-list' };
  }
  validateParams(params, specs);
  if (
    params.meta !== undefined &&
    (typeof params.meta !== 'object' || params.meta === null || Array.isArray(params.meta))
  ) {
    throw new WpError('rest_invalid_param', 'Invalid parameter(s): meta', 400, {
      params: { meta: 'meta is not of type object.' },
    });
  }
  const existing = id === undefined ? undefined : getPost(site, info, id);
  const author = params.author === undefined ? undefined : Number(params.author);
  if (existing) {
    if (!canPost(user, 'edit', existing))
      throw new WpError(
        'rest_cannot_edit',
        'Sorry, you are not allowed to edit this post.',
        authCode(logged),
      );
    if (author && author !== user?.id && !hasCap(user, 'edit_others_posts')) {
      throw new WpError(
        'rest_cannot_edit_others',
        'Sorry, you are not allowed to update posts as this user.',
        authCode(logged),
      );
    }
  } else {
    if (author && author !== user?.id && !hasCap(user, 'edit_others_posts')) {
      throw new WpError(
        'rest_cannot_edit_others',
        'Sorry, you are not allowed to create posts as this user.',
        authCode(logged),
      );
    }
    if (!hasCap(user, 'edit_posts'))
      throw new WpError(
        'rest_cannot_create',
        'Sorry, you are not allowed to create posts as this user.',
        authCode(logged),
      );
  }

  // prepare_item_for_database
  const patch: Partial<StoredPost> = {};
  const title = text(params.title);
  if (title !== undefined) patch.title = title;
  const content = text(params.content);
  if (content !== undefined) patch.content = content;
  const excerpt = text(params.excerpt);
  if (excerpt !== undefined) patch.excerpt = excerpt;
  let status: string | undefined;
  if (params.status !== undefined && (!existing || existing.status !== params.status)) {
    status = String(params.status);
    if (status === 'private' && !hasCap(user, 'publish_posts')) {
      throw new WpError(
        'rest_cannot_publish',
        'Sorry, you are not allowed to create private posts in this post type.',
        authCode(logged),
      );
    }
    if ((status === 'publish' || status === 'future') && !hasCap(user, 'publish_posts')) {
      throw new WpError(
        'rest_cannot_publish',
        'Sorry, you are not allowed to publish posts in this post type.',
        authCode(logged),
      );
    }
  }
  if (params.date && DATE_RE.test(String(params.date))) {
    patch.date = siteLocal(params.date, store.timezone);
    patch.dateGmt = store.localToGmt(patch.date);
  } else if (params.date_gmt && DATE_RE.test(String(params.date_gmt))) {
    const gmt = siteLocal(String(params.date_gmt).replace(/(Z|[+-]\d{2}:?\d{2})$/, ''), 'UTC');
    patch.dateGmt = gmt;
    patch.date = store.gmtToLocal(gmt);
  }
  if (typeof params.slug === 'string') patch.slug = params.slug;
  if (author) {
    if (author !== user?.id && !store.users.some((u) => u.id === author))
      throw new WpError('rest_invalid_author', 'Invalid author ID.', 400);
    patch.author = author;
  }
  if (typeof params.password === 'string') patch.password = params.password;
  if (params.menu_order !== undefined) patch.menuOrder = Number(params.menu_order);
  if (params.parent !== undefined) patch.parent = Number(params.parent);

  // wp_insert_post: publish with a date at least a minute ahead becomes future; future in the past becomes publish.
  let finalStatus = status ?? existing?.status ?? 'draft';
  const dateGmt = patch.dateGmt ?? existing?.dateGmt;
  if (dateGmt) {
    const ahead = DateTime.fromSQL(dateGmt, { zone: 'UTC' }).toMillis() - site.store.now().getTime();
    if (finalStatus === 'publish' && ahead >= 60_000) finalStatus = 'future';
    else if (finalStatus === 'future' && ahead < 60_000) finalStatus = 'publish';
  }
  if (status !== undefined || finalStatus !== existing?.status) patch.status = finalStatus;

  let post: StoredPost;
  if (existing) {
    post = store.updatePost(existing.id, patch);
  } else {
    post = store.insertPost({ type: info.name, author: user?.id ?? 0, ...patch, status: finalStatus });
  }

  // handle_featured_media → set_post_thumbnail, whose failure create_item and update_item ignore: an id that is no
  // post changes nothing, a post that is no image attachment removes the thumbnail, and the write still succeeds.
  if (params.featured_media !== undefined) {
    const mediaId = Number(params.featured_media);
    const target = store.posts.get(mediaId);
    if (!mediaId) post.featuredMedia = 0;
    else if (target?.type === 'attachment' && target.media) post.featuredMedia = mediaId;
    else if (target) post.featuredMedia = 0;
  }
  // handle_terms: wp_set_object_terms skips integer ids that do not exist.
  for (const taxName of info.taxonomies) {
    const tax = store.model.taxonomies.find((t) => t.name === taxName);
    if (!tax || params[tax.restBase] === undefined) continue;
    const ids = parseList(params[tax.restBase]).map(Number);
    post.terms[taxName] = [...new Set(ids.filter((tid) => store.terms.get(tid)?.taxonomy === taxName))];
  }
  // Meta is written last, after the post exists: an invalid value leaves the post created (as WordPress does).
  if (params.meta && typeof params.meta === 'object') {
    const meta = params.meta as Record<string, unknown>;
    for (const [key, mk] of info.meta) {
      if (!(key in meta)) continue;
      const value = meta[key];
      if (value === null || (Array.isArray(value) && value.length === 0 && !mk.single)) {
        delete post.meta[key];
        continue;
      }
      const err = validateMeta(key, mk, value);
      if (err) throw new WpError('rest_invalid_type', err, 400);
      const rows = metaRows(mk, value);
      // update_multi_meta_value keeps the rows that stay where they are and appends the new ones after them.
      const old = mk.single ? [] : (post.meta[key] ?? []);
      post.meta[key] = mk.single
        ? rows
        : [...old.filter((v) => rows.includes(v)), ...rows.filter((v) => !old.includes(v))];
    }
  }
  const body = present({ ...req, params: { ...params, context: 'edit' } }, info, post, 'edit');
  if (existing) return HttpResponse.json(body);
  return HttpResponse.json(body, {
    status: 201,
    headers: { Location: `${site.root}/wp/v2/${info.restBase}/${post.id}` },
  });
}
