// Media uploads (raw body, as WordPress 6.1's attachments controller takes them) and deletes of the mock WordPress.
import { imageSize } from 'image-size';
import { HttpResponse } from 'msw';
import { WRITE_META } from '../../src/wp/probe.ts';
import { canPost, hasCap, type MockUser } from './caps.ts';
import { authCode, WpError } from './http-util.ts';
import type { Req } from './posts.ts';
import { ATTACHMENT_META, renderMedia } from './render.ts';

/** WordPress 6.1's image entries of `wp_get_mime_types()`, written as it writes them (extensions → type). */
const WP_IMAGE_MIMES: Record<string, string> = {
  'jpg|jpeg|jpe': 'image/jpeg',
  gif: 'image/gif',
  png: 'image/png',
  bmp: 'image/bmp',
  'tiff|tif': 'image/tiff',
  webp: 'image/webp',
  ico: 'image/x-icon',
  heic: 'image/heic',
};
/** What image-size calls a type, as a MIME type. */
const DETECTED: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/x-icon',
  heif: 'image/heic',
};

/** OPTIONS /wp/v2/media, reduced to what clients read from it: the registered meta. */
export function mediaOptions(): Response {
  return HttpResponse.json({
    namespace: 'wp/v2',
    methods: ['GET', 'POST'],
    schema: {
      title: 'attachment',
      type: 'object',
      properties: {
        meta: {
          type: 'object',
          context: ['view', 'edit'],
          properties: {
            [ATTACHMENT_META]: { type: 'string', default: '', context: ['view', 'edit'] },
            [WRITE_META]: { type: 'string', default: '', context: ['edit'] },
          },
        },
      },
    },
  });
}

const notAllowedType = () =>
  new WpError('rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.', 500);

function requireUploader(user: MockUser | null): void {
  // The attachment type's create_posts is upload_files; the parent controller checks it first.
  if (!hasCap(user, 'upload_files')) {
    throw new WpError(
      'rest_cannot_create',
      'Sorry, you are not allowed to create posts as this user.',
      authCode(user !== null),
    );
  }
}

/** `attachment; filename="x.png"` (quoted or not) → `x.png`; null when the header is not of that form. */
function dispositionName(header: string | null): string | null {
  const m = /^\s*attachment\s*;\s*filename\*?=\s*"?([^";]+)"?/i.exec(header ?? '');
  return m ? (m[1] as string).trim() : null;
}

/** POST /wp/v2/media with the file as the body: validated like WordPress, then stored as an attachment. */
export function uploadMedia(req: Req, request: Request, bytes: Uint8Array): Response {
  const { site, user } = req;
  requireUploader(user);
  if (!bytes.length) throw new WpError('rest_upload_no_data', 'No data supplied.', 400);
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!type) throw new WpError('rest_upload_no_content_type', 'No Content-Type supplied.', 400);
  const disposition = request.headers.get('content-disposition');
  if (!disposition) {
    throw new WpError('rest_upload_no_content_disposition', 'No Content-Disposition supplied.', 400);
  }
  const filename = dispositionName(disposition);
  if (!filename) {
    throw new WpError(
      'rest_upload_invalid_disposition',
      'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
      400,
    );
  }
  // wp_check_filetype_and_ext: the extension must be allowed, and the content must really be of its type.
  const ext = filename.includes('.') ? (filename.split('.').pop() ?? '').toLowerCase() : '';
  const byExt = Object.entries(WP_IMAGE_MIMES).find(([exts]) => exts.split('|').includes(ext))?.[1];
  let size: { width: number; height: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    throw notAllowedType();
  }
  if (!byExt || DETECTED[size.type ?? ''] !== byExt) throw notAllowedType();

  const now = site.store.gmtToLocal(site.store.nowGmt());
  const dir = `${now.slice(0, 4)}/${now.slice(5, 7)}`;
  const stem = filename.slice(0, -(ext.length + 1)).replace(/[^\w.-]+/g, '-');
  const taken = (f: string) =>
    [...site.store.posts.values()].some((p) => p.type === 'attachment' && p.media?.file === `${dir}/${f}`);
  let file = `${stem}.${ext}`;
  for (let n = 1; taken(file); n++) file = `${stem}-${n}.${ext}`;
  // `meta` may come in the query string, since the body is the file.
  const sent = req.params.meta as Record<string, unknown> | undefined;
  const text = (key: string) => (typeof sent?.[key] === 'string' ? (sent[key] as string) : '');
  const meta: Record<string, string[]> = {};
  for (const key of [ATTACHMENT_META, WRITE_META]) if (text(key)) meta[key] = [text(key)];
  const post = site.store.insertPost({
    type: 'attachment',
    meta,
    status: 'inherit',
    author: user?.id ?? 0,
    title: stem,
    slug: stem,
    media: {
      file: `${dir}/${file}`,
      width: size.width,
      height: size.height,
      mime: byExt,
      alt: '',
      filesize: bytes.length,
    },
  });
  return HttpResponse.json(renderMedia(site, post, 'edit'), { status: 201 });
}

/** DELETE /wp/v2/media/{id}: attachments cannot be trashed (MEDIA_TRASH is off), only deleted with force. */
export function deleteMedia(req: Req, id: string): Response {
  const { site, user, params } = req;
  const post = site.store.posts.get(Number(id));
  if (post?.type !== 'attachment') throw new WpError('rest_post_invalid_id', 'Invalid post ID.', 404);
  if (!canPost(user, 'delete', post)) {
    throw new WpError(
      'rest_cannot_delete',
      'Sorry, you are not allowed to delete this post.',
      authCode(user !== null),
    );
  }
  if (!['1', 'true'].includes(String(params.force))) {
    throw new WpError(
      'rest_trash_not_supported',
      "The post does not support trashing. Set 'force=true' to delete.",
      501,
    );
  }
  const previous = renderMedia(site, post, 'edit');
  // wp_delete_attachment: no post keeps it as its featured image (delete_metadata of every `_thumbnail_id`, which
  // leaves the posts' `modified` as it was: a poll of modified posts does not see it).
  for (const p of site.store.posts.values()) if (p.featuredMedia === post.id) p.featuredMedia = 0;
  site.store.deletePost(post.id);
  return HttpResponse.json({ deleted: true, previous });
}

/** POST /wp/v2/media/{id}: the attachment's title and alt text (what the mock keeps of it). */
export function updateMedia(req: Req, id: string): Response {
  const { site, user, params } = req;
  const post = site.store.posts.get(Number(id));
  if (post?.type !== 'attachment') throw new WpError('rest_post_invalid_id', 'Invalid post ID.', 404);
  if (!canPost(user, 'edit', post)) {
    throw new WpError(
      'rest_cannot_edit',
      'Sorry, you are not allowed to edit this post.',
      authCode(user !== null),
    );
  }
  const title = typeof params.title === 'string' ? params.title : undefined;
  site.store.updatePost(post.id, {
    ...(title !== undefined ? { title } : {}),
    ...(post.media && typeof params.alt_text === 'string'
      ? { media: { ...post.media, alt: params.alt_text } }
      : {}),
  });
  return HttpResponse.json(renderMedia(site, post, 'edit'));
}
