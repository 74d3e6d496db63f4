// Turns stored posts, terms, media and users into WordPress 6.1's REST records for each context.

import { WRITE_META } from '../../src/wp/probe.ts';
import { capabilityObject, hasCap, type MockUser } from './caps.ts';
import type { PostTypeInfo } from './schema.ts';
import { metaValue } from './schema.ts';
import { texturize } from './texturize.ts';

export { texturize };

import type { Store, StoredPost, StoredTerm } from './store.ts';

export type Context = 'view' | 'edit' | 'embed';

export interface Site {
  root: string;
  url: string;
  store: Store;
}

/** Y-m-d\TH:i:s (mysql_to_rfc3339 without the offset). */
export const rfc3339 = (mysql: string): string => mysql.replace(' ', 'T');

/** The attachment meta the companion plugin registers (TEC's record of where an image was downloaded from). */
export const ATTACHMENT_META = '_tribe_importer_original_url';

/** wpautop for plain text: paragraphs on blank lines; HTML that already has blocks is left alone. */
export function autop(s: string): string {
  if (!s.trim()) return '';
  if (/<(p|div|h\d|ul|ol|figure|blockquote)[\s>]/i.test(s)) return `${s.trim()}\n`;
  return `${s
    .trim()
    .split(/\n\s*\n/)
    .map((para) => `<p>${para.replace(/\n/g, '<br />\n')}</p>`)
    .join('\n')}\n`;
}

/** wp_trim_excerpt: the first 55 words of the content, with " [&hellip;]" when cut. */
export function generatedExcerpt(content: string): string {
  const words = content
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length <= 55) return words.join(' ');
  return `${words.slice(0, 55).join(' ')} [&hellip;]`;
}

export function postLink(site: Site, post: StoredPost): string {
  if (post.type === 'attachment') return `${site.url}/${post.slug}/`;
  // get_post_permalink: unpublished posts get the query-string form; the rewrite slug is the post type name.
  if (!post.slug || ['draft', 'pending', 'auto-draft', 'future'].includes(post.status)) {
    return `${site.url}/?post_type=${post.type}&p=${post.id}`;
  }
  return `${site.url}/${post.type}/${post.slug}/`;
}

export interface RenderOptions {
  context: Context;
  /** The user may see the content of a password-protected post (right password, or edit context with edit_post). */
  canSeeProtected: boolean;
}

export function renderPost(
  site: Site,
  info: PostTypeInfo,
  post: StoredPost,
  opts: RenderOptions,
): Record<string, unknown> {
  const { context } = opts;
  const guid = `${site.url}/?post_type=${post.type}&#038;p=${post.id}`;
  const hidden = post.password !== '' && !opts.canSeeProtected;
  const excerptSource = post.excerpt || generatedExcerpt(post.content);
  // the_content and the_excerpt: wptexturize, then wpautop.
  const content = { rendered: hidden ? '' : autop(texturize(post.content)), protected: post.password !== '' };
  const excerpt = {
    rendered: hidden ? '' : autop(texturize(excerptSource)),
    protected: post.password !== '',
  };
  const meta: Record<string, unknown> = {};
  for (const [key, mk] of info.meta)
    if (context === 'edit' || !mk.editOnly) meta[key] = metaValue(mk, post.meta[key]);
  const base: Record<string, unknown> = {
    id: post.id,
    date: rfc3339(post.date),
    date_gmt: rfc3339(post.dateGmt),
    guid: context === 'edit' ? { rendered: guid, raw: guid.replace('&#038;', '&') } : { rendered: guid },
    modified: rfc3339(post.modified),
    modified_gmt: rfc3339(post.modifiedGmt),
    slug: post.slug,
    status: post.status,
    type: post.type,
    link: postLink(site, post),
    title:
      context === 'edit'
        ? { raw: post.title, rendered: texturize(post.title) }
        : { rendered: texturize(post.title) },
    content: context === 'edit' ? { raw: post.content, ...content, block_version: 0 } : content,
    excerpt: context === 'edit' ? { raw: post.excerpt, ...excerpt } : excerpt,
    author: post.author,
    featured_media: post.featuredMedia,
    menu_order: post.menuOrder,
    template: '',
    meta,
  };
  if (context === 'edit') {
    base.password = post.password;
    base.permalink_template = `${site.url}/${info.kind}/%pagename%/`;
    base.generated_slug = post.slug || post.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  }
  for (const taxName of info.taxonomies) {
    const tax = site.store.model.taxonomies.find((t) => t.name === taxName);
    if (tax) base[tax.restBase] = [...(post.terms[taxName] ?? [])];
  }
  if (context === 'embed') {
    const { id, date, slug, type, link, title, author, featured_media } = base;
    return { id, date, slug, type, link, title, excerpt: base.excerpt, author, featured_media };
  }
  return base;
}

export function postLinks(site: Site, info: PostTypeInfo, post: StoredPost): Record<string, unknown> {
  const self = `${site.root}/wp/v2/${info.restBase}/${post.id}`;
  const links: Record<string, unknown> = {
    self: [{ href: self }],
    collection: [{ href: `${site.root}/wp/v2/${info.restBase}` }],
    about: [{ href: `${site.root}/wp/v2/types/${post.type}` }],
    author: [{ embeddable: true, href: `${site.root}/wp/v2/users/${post.author}` }],
  };
  if (post.featuredMedia)
    links['wp:featuredmedia'] = [
      { embeddable: true, href: `${site.root}/wp/v2/media/${post.featuredMedia}` },
    ];
  links['wp:attachment'] = [{ href: `${site.root}/wp/v2/media?parent=${post.id}` }];
  const terms = info.taxonomies
    .map((name) => site.store.model.taxonomies.find((t) => t.name === name))
    .filter((t) => t !== undefined)
    .map((t) => ({
      taxonomy: t.name,
      embeddable: true,
      href: `${site.root}/wp/v2/${t.restBase}?post=${post.id}`,
    }));
  if (terms.length > 0) links['wp:term'] = terms;
  links.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return links;
}

export function renderTerm(
  site: Site,
  term: StoredTerm,
  count: number,
  context: Context,
): Record<string, unknown> {
  const tax = site.store.model.taxonomies.find((t) => t.name === term.taxonomy);
  const prefix =
    term.taxonomy === 'category' ? 'category' : term.taxonomy === 'post_tag' ? 'tag' : term.taxonomy;
  const link = `${site.url}/${prefix}/${term.slug}/`;
  if (context === 'embed')
    return { id: term.id, link, name: term.name, slug: term.slug, taxonomy: term.taxonomy };
  const out: Record<string, unknown> = {
    id: term.id,
    count,
    description: term.description,
    link,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
  };
  if (tax?.hierarchical) out.parent = term.parent;
  // The only registered term meta is edit-only: PHP's empty array in the view context.
  out.meta = context === 'edit' ? { [WRITE_META]: term.meta?.[WRITE_META] ?? '' } : [];
  return out;
}

export function termLinks(site: Site, term: StoredTerm): Record<string, unknown> {
  const tax = site.store.model.taxonomies.find((t) => t.name === term.taxonomy);
  const base = `${site.root}/wp/v2/${tax?.restBase ?? term.taxonomy}`;
  const links: Record<string, unknown> = {
    self: [{ href: `${base}/${term.id}` }],
    collection: [{ href: base }],
    about: [{ href: `${site.root}/wp/v2/taxonomies/${term.taxonomy}` }],
  };
  if (term.parent) links.up = [{ embeddable: true, href: `${base}/${term.parent}` }];
  links['wp:post_type'] = (tax?.types ?? []).map((type) => {
    const pt = site.store.model.postTypes.find((p) => p.name === type);
    const rb = pt?.restBase ?? (type === 'post' ? 'posts' : type);
    return { href: `${site.root}/wp/v2/${rb}?${tax?.restBase ?? term.taxonomy}=${term.id}` };
  });
  return links;
}

/**
 * WordPress's default image sizes (6.1: `thumbnail` 150×150 cropped, `medium` 300×300, `medium_large` 768 wide,
 * `large` 1024×1024, `1536x1536` and `2048x2048`, the last four scaled to fit), each made only when the image is
 * larger (image_resize_dimensions); wp/v2 adds `full`. An image that needs none of them lists no sizes at all.
 */
const IMAGE_SIZES: Array<{ name: string; width: number; height: number; crop?: boolean }> = [
  { name: 'medium', width: 300, height: 300 },
  { name: 'large', width: 1024, height: 1024 },
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium_large', width: 768, height: 0 },
  { name: '1536x1536', width: 1536, height: 1536 },
  { name: '2048x2048', width: 2048, height: 2048 },
];

/** wp_constrain_dimensions: the largest size within the box keeping the ratio (0 = that side is free). */
function constrain(w: number, h: number, maxW: number, maxH: number): [number, number] {
  const rw = maxW > 0 && w > maxW ? maxW / w : 1;
  const rh = maxH > 0 && h > maxH ? maxH / h : 1;
  const small = Math.min(rw, rh);
  const large = Math.max(rw, rh);
  const over = (r: number) =>
    (maxW > 0 && Math.round(w * r) > maxW) || (maxH > 0 && Math.round(h * r) > maxH);
  const ratio = over(large) ? small : large;
  let nw = Math.max(1, Math.round(w * ratio));
  let nh = Math.max(1, Math.round(h * ratio));
  if (rw < 1 && nw === maxW - 1) nw = maxW;
  if (rh < 1 && nh === maxH - 1) nh = maxH;
  return [nw, nh];
}

function imageSizes(m: NonNullable<StoredPost['media']>, source: string): Record<string, unknown> {
  const dot = source.lastIndexOf('.');
  const sizes: Record<string, unknown> = {};
  for (const s of IMAGE_SIZES) {
    const [w, h] = s.crop
      ? [Math.min(s.width, m.width), Math.min(s.height, m.height)]
      : constrain(m.width, m.height, s.width, s.height);
    if (w === m.width && h === m.height) continue;
    const url = `${source.slice(0, dot)}-${w}x${h}${source.slice(dot)}`;
    sizes[s.name] = {
      file: url.split('/').at(-1),
      width: w,
      height: h,
      // WordPress 6.0+ keeps each size's file size; the mock's files are as large as their pixels are many.
      filesize: w * h,
      mime_type: m.mime,
      source_url: url,
    };
  }
  if (Object.keys(sizes).length === 0) return {};
  sizes.full = {
    file: m.file.split('/').at(-1),
    width: m.width,
    height: m.height,
    mime_type: m.mime,
    source_url: source,
  };
  return sizes;
}

export function renderMedia(site: Site, post: StoredPost, context: Context): Record<string, unknown> {
  const m = post.media ?? { file: '', width: 0, height: 0, mime: 'image/jpeg', alt: '' };
  const source = `${site.url}/wp-content/uploads/${m.file}`;
  const sizes = imageSizes(m, source);
  const out: Record<string, unknown> = {
    id: post.id,
    date: rfc3339(post.date),
    slug: post.slug,
    type: 'attachment',
    link: `${site.url}/${post.slug}/`,
    title:
      context === 'edit'
        ? { raw: post.title, rendered: texturize(post.title) }
        : { rendered: texturize(post.title) },
    author: post.author,
    caption: { rendered: '' },
    alt_text: m.alt,
    media_type: 'image',
    mime_type: m.mime,
    media_details: {
      width: m.width,
      height: m.height,
      file: m.file,
      filesize: m.filesize ?? m.width * m.height,
      sizes,
      image_meta: {},
    },
    source_url: source,
  };
  if (context === 'embed') return out;
  return {
    ...out,
    date_gmt: rfc3339(post.dateGmt),
    guid: { rendered: source },
    modified: rfc3339(post.modified),
    modified_gmt: rfc3339(post.modifiedGmt),
    status: 'inherit',
    description: { rendered: `<p class="attachment">${post.title}</p>\n` },
    post: post.parent || null,
    meta: {
      [ATTACHMENT_META]: String(post.meta[ATTACHMENT_META]?.[0] ?? ''),
      ...(context === 'edit' ? { [WRITE_META]: String(post.meta[WRITE_META]?.[0] ?? '') } : {}),
    },
  };
}

export function renderUser(site: Site, user: MockUser, context: Context): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: user.id,
    name: user.name,
    url: '',
    description: '',
    link: `${site.url}/author/${user.slug}/`,
    slug: user.slug,
    avatar_urls: {
      '24': 'https://secure.gravatar.com/avatar/?s=24',
      '48': 'https://secure.gravatar.com/avatar/?s=48',
    },
  };
  if (context === 'embed') return out;
  out.meta = [];
  if (context === 'edit') {
    Object.assign(out, {
      username: user.login,
      email: user.email,
      nickname: user.login,
      first_name: '',
      last_name: '',
      locale: 'en_US',
      registered_date: '2026-01-01T00:00:00+00:00',
      roles: [user.role],
      capabilities: capabilityObject(user),
      extra_capabilities: { [user.role]: true },
    });
  }
  return out;
}

export const canEditUsers = (u: MockUser | null): boolean => hasCap(u, 'list_users');
