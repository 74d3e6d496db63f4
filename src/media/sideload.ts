// The `image` argument of writes: an attachment id, empty to remove it, or an image URL sideloaded as TEC does.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { ApiError, invalidParams } from '../http/errors.ts';
import type { Caller } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import { SOURCE_URL_META, WRITE_META } from '../wp/probe.ts';
import { creatingAsCaller, type Undo } from '../write/undo.ts';
import { RemoteImageError, RemoteImages, stemOf } from './remote-image.ts';

/** Whether the `image` value has a valid shape: empty, an id or an http(s) URL. Pure. */
export const isImageArg = (value: string): boolean =>
  value === '' || /^\d+$/.test(value) || RemoteImages.parse(value) !== null;

/**
 * WordPress answered and said no (a missing id, a file type, the caller's rights): the caller's to fix. An upstream
 * that cannot be reached or failed on its side (WordPress's 500 on an upload becomes 502, like 503 and 504) is not.
 */
const refusedUpstream = (err: unknown): err is ApiError => err instanceof ApiError && err.status < 500;

/** `meta` as query parameters (`meta[key]=value`), for a create whose body is a file. */
const metaQuery = (meta: Record<string, string>): Record<string, string> | undefined =>
  Object.keys(meta).length
    ? Object.fromEntries(Object.entries(meta).map(([k, v]) => [`meta[${k}]`, v]))
    : undefined;

const refused = (why: string) => invalidParams({ image: `image was refused: ${why}` }, { image: why });

/**
 * The attachment already standing for `url`: the one whose full-size URL it is (a record read and written back), or
 * the one uploaded from it before (its SOURCE_URL_META, when the site exposes it). wp/v2 cannot filter by either,
 * so the media library is searched for the file's name; a renamed attachment is not found and is uploaded again.
 */
async function findAttachment(
  deps: Deps,
  ctx: RequestContext,
  url: URL,
  undo: Undo,
): Promise<number | undefined> {
  const res = await deps.wp
    .list<{ id: number; source_url?: string; meta?: Record<string, unknown> }>({
      path: '/wp/v2/media',
      query: { search: stemOf(url), per_page: 100, _fields: 'id,source_url,meta' },
      ...asCaller(ctx),
    })
    .catch(() => ({ items: [] }));
  const fromSource = (m: { meta?: Record<string, unknown> }) =>
    deps.site.mediaSourceMeta && m.meta?.[SOURCE_URL_META] === url.href;
  // An upload a failed write left to be removed is not reused (the removal would take it from this write); this
  // write's own is (its values resolved again: src/events/write.ts).
  const leaving = (await deps.undo?.pending('media', undo.token)) ?? new Set<number>();
  const found = res.items.find((m) => (m.source_url === url.href || fromSource(m)) && !leaving.has(m.id))?.id;
  // An upload whose create answer was lost is no entry's record yet, only its write's probe: read its token (edit
  // context, as the service) when some other write is still looking for a lost upload, and leave it to that write.
  const probing = found === undefined ? undefined : await deps.undo?.probing('media', undo.token);
  if (found === undefined || !probing?.size) return found;
  const token = await deps.wp
    .request<{ meta?: Record<string, unknown> }>({
      path: `/wp/v2/media/${found}`,
      query: { context: 'edit', _fields: 'id,meta' },
      as: 'service',
    })
    .then((r) => r.body.meta?.[WRITE_META])
    .catch(() => undefined);
  return typeof token === 'string' && probing.has(token) ? undefined : found;
}

/**
 * TEC accepts an id only when it is an image attachment (`wp_attachment_is_image`). WordPress itself would take any
 * id and quietly drop a bad one after writing the post, so it is checked first.
 */
async function imageAttachment(deps: Deps, ctx: RequestContext, id: number): Promise<number> {
  if (id === 0) return 0;
  const media = await deps.wp
    .request<{ media_type?: string }>({
      path: `/wp/v2/media/${id}`,
      query: { _fields: 'id,media_type' },
      ...asCaller(ctx),
    })
    .then((r) => r.body)
    .catch((err: unknown) => {
      if (refusedUpstream(err)) return undefined;
      throw err;
    });
  if (media?.media_type !== 'image') throw refused(`${id} is not the id of an image attachment.`);
  return id;
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
  if (/^\d+$/.test(value)) return imageAttachment(deps, ctx, Number(value));
  const url = RemoteImages.parse(value);
  if (!url) throw refused('Give an attachment id or an http(s) image URL.');
  if (caller.caps.upload_files !== true)
    throw refused('Only users who may upload files can give an image URL.');
  // TEC's uploader first looks for an attachment that already stands for this URL.
  const existing = await findAttachment(deps, ctx, url, undo);
  if (existing !== undefined) return existing;
  const image = await deps.images.fetch(url, ctx.signal).catch((err: unknown) => {
    if (!(err instanceof RemoteImageError)) throw err;
    if (err.detail)
      deps.log.info({ url: url.href, detail: err.detail, requestId: ctx.requestId }, err.message);
    throw refused(err.message);
  });
  const res = await undo
    .create(
      'posts',
      'media',
      (stamp) =>
        deps.wp.request<{ id: number }>({
          path: '/wp/v2/media',
          method: 'POST',
          // The body is the file, so the source URL and the write's token go in the query (WordPress reads `meta`
          // from there too): both are written by the request that creates the attachment.
          query: metaQuery({
            ...(deps.site.mediaSourceMeta ? { [SOURCE_URL_META]: url.href } : {}),
            ...stamp,
          }),
          body: image.bytes,
          headers: {
            'Content-Type': image.type,
            'Content-Disposition': `attachment; filename="${image.filename}"`,
          },
          ...creatingAsCaller(ctx),
        }),
      ctx.signal,
    )
    .catch((err: unknown) => {
      if (refusedUpstream(err)) throw refused(`WordPress refused the image: ${err.message}`);
      throw err;
    });
  return res.body.id;
}
