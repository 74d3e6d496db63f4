// TEC's featured-image object (§2.5) from a wp/v2 attachment: full URL, id, extension, size metadata.
import type { WpMedia } from '../wp/types.ts';
import { dropEmpty } from './common.ts';
import type { Json } from './types.ts';

interface MediaDetails {
  width?: number;
  height?: number;
  file?: string;
  filesize?: number;
  original_image?: string;
  sizes?: Record<
    string,
    { width?: number; height?: number; mime_type?: string; source_url?: string; filesize?: number }
  >;
}

function extensionOf(media: WpMedia): string {
  const file = (media.media_details as MediaDetails | undefined)?.file || media.source_url || '';
  const base = file.split(/[?#]/)[0].split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1) : '';
}

/**
 * `false` without media; otherwise `{url, id, extension, width, height, filesize?, sizes}` with PHP-falsy
 * entries removed. Sizes keep WordPress's metadata order (`width, height, mime-type, filesize?`) and TEC appends
 * `url`; wp/v2's synthetic `full` size is not part of the stored metadata, so it is left out.
 */
export function serializeImage(media: WpMedia | undefined): Json | false {
  if (!media) return false;
  const base: Json = { url: media.source_url, id: media.id, extension: extensionOf(media) };
  const details = media.media_details as MediaDetails | undefined;
  // TEC merges the metadata only when it is complete image metadata (it has `file` and `sizes`).
  if (!details || details.sizes === undefined || details.file === undefined) return base;
  const sizes: Json = {};
  for (const [name, size] of Object.entries(details.sizes)) {
    if (name === 'full') continue;
    const entry: Json = {
      width: size.width ?? 0,
      height: size.height ?? 0,
      'mime-type': size.mime_type ?? '',
    };
    if (size.filesize !== undefined) entry.filesize = size.filesize;
    entry.url = size.source_url ?? '';
    sizes[name] = entry;
  }
  const merged: Json = { ...base, width: details.width, height: details.height };
  if (details.filesize !== undefined) merged.filesize = details.filesize;
  merged.sizes = Object.keys(sizes).length ? sizes : [];
  if (details.original_image !== undefined) merged.original_image = details.original_image;
  return dropEmpty(merged);
}
