// The `image` argument of writes: an attachment id, empty to remove it, or an image URL sideloaded as TEC does.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { Undo } from '../events/linked.ts';
import { ApiError, invalidParams } from '../http/errors.ts';
import type { Caller } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import { lastSegment, RemoteImageError, RemoteImages } from './remote-image.ts';

/** Whether the `image` value has a valid shape: empty, an id or an http(s) URL. Pure. */
export const isImageArg = (value: string): boolean =>
  value === '' || /^\d+$/.test(value) || RemoteImages.parse(value) !== null;

const refused = (why: string) => invalidParams({ image: 'Invalid parameter.' }, { image: why });

/**
 * The attachment whose full-size URL is exactly `url`, found by searching the media library for the file's name
 * (wp/v2 cannot filter by URL). A renamed attachment is not found, and the image is then uploaded again.
 */
async function findAttachment(deps: Deps, ctx: RequestContext, url: URL): Promise<number | undefined> {
  const stem = lastSegment(url).replace(/\.[^.]*$/, '');
  if (!stem) return undefined;
  const res = await deps.wp
    .list<{ id: number; source_url?: string }>({
      path: '/wp/v2/media',
      query: { search: stem, per_page: 100, _fields: 'id,source_url' },
      ...asCaller(ctx),
    })
    .catch(() => ({ items: [] }));
  return res.items.find((m) => m.source_url === url.href)?.id;
}

/**
 * The attachment id an `image` argument stands for: 0 removes the image, an id is kept (WordPress checks it is an
 * attachment), a URL is fetched and uploaded to the media library with the caller's own credentials. TEC accepts a
 * URL only from users who may upload files. The upload is recorded in `undo`, so a write that fails later leaves
 * no attachment behind.
 */
export async function resolveImage(
  deps: Deps,
  ctx: RequestContext,
  caller: Caller,
  kind: 'event' | 'venue' | 'organizer',
  value: string,
  undo: Undo,
): Promise<number | undefined> {
  // A mapping that stores no image for this kind would keep nothing: upload nothing either.
  if (!deps.mapping[kind].fields.image) return undefined;
  if (value === '') return 0;
  if (/^\d+$/.test(value)) return Number(value);
  const url = RemoteImages.parse(value);
  if (!url) throw refused('Give an attachment id or an http(s) image URL.');
  if (caller.caps.upload_files !== true)
    throw refused('Only users who may upload files can give an image URL.');
  // TEC's uploader first looks for an attachment that already lives at this URL (a record read and written back).
  const existing = await findAttachment(deps, ctx, url);
  if (existing !== undefined) return existing;
  const image = await deps.images.fetch(url, ctx.signal).catch((err: unknown) => {
    if (err instanceof RemoteImageError) throw refused(err.message);
    throw err;
  });
  const res = await deps.wp
    .request<{ id: number }>({
      path: '/wp/v2/media',
      method: 'POST',
      body: image.bytes,
      headers: {
        'Content-Type': image.type,
        'Content-Disposition': `attachment; filename="${image.filename}"`,
      },
      ...asCaller(ctx),
    })
    .catch((err: unknown) => {
      // WordPress refusing the file (type, size, rights) is the caller's to fix; an unreachable upstream is not.
      if (err instanceof ApiError && err.status !== 502 && err.status < 503)
        throw refused(`WordPress refused the image: ${err.message}`);
      throw err;
    });
  undo.posts.push({ restBase: 'media', id: res.body.id });
  return res.body.id;
}
