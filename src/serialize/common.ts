// Pieces every TEC post record shares: global ids, post dates, rendered text, PHP truthiness, password access.
import { timingSafeEqual } from 'node:crypto';
import { fromWpDate } from '../mapping/codec.ts';
import type { FieldSource } from '../mapping/schema.ts';
import type { Rendered, WpPost } from '../wp/types.ts';
import type { Json } from './types.ts';

/** `{home host}{home path}?id={ID}` (no scheme), as TC's `Tribe__Utils__Global_ID` builds it. */
export function globalId(home: string, id: number): string {
  let hostPath: string;
  try {
    const u = new URL(home);
    hostPath = u.host + u.pathname.replace(/\/+$/, '');
  } catch {
    hostPath = home.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
  }
  return `${hostPath}?id=${id}`;
}

/** WordPress stores a never-published post's GMT dates as zeros; wp/v2 sends null for them. */
const ZERO_DATE = '0000-00-00 00:00:00';
export const postDate = (v: unknown): string => fromWpDate(v) || ZERO_DATE;

/** PHP's `empty()`: what `array_filter` drops from venue/organizer records. */
export function phpEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '' || v === '0') return true;
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

/** PHP `array_filter` on an associative array: keeps order, drops empty values. */
export function dropEmpty(record: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(record)) if (!phpEmpty(v)) out[k] = v;
  return out;
}

/** WordPress's `esc_html` (no double encoding of existing entities). */
export function escHtml(s: string): string {
  return s
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

// get_the_title() (what wp/v2 renders) prefixes these; TEC applies only the `the_title` filter, so it has none.
const TITLE_PREFIXES = [/^Protected: /, /^Private: /];

/**
 * The rendered text of a mapped post field (title/content/excerpt) as TEC outputs it: trimmed, and an excerpt is
 * never generated from the content. A meta-backed field is the stored string.
 */
export function renderedText(post: WpPost, src: FieldSource | undefined, kind: 'title' | 'text'): string {
  if (!src) return '';
  if ('meta' in src) {
    const v = post.meta?.[src.meta];
    return typeof v === 'string' ? v.trim() : Array.isArray(v) ? String(v[0] ?? '').trim() : '';
  }
  const field = post[src.post] as Rendered | string | undefined;
  if (typeof field === 'string') return field.trim();
  if (!field || typeof field !== 'object') return '';
  // wp/v2 renders an automatic excerpt from the content; TEC shows the stored one only.
  if (src.post === 'excerpt' && typeof field.raw === 'string' && field.raw.trim() === '') return '';
  let text = typeof field.rendered === 'string' ? field.rendered.trim() : '';
  if (kind === 'title') for (const p of TITLE_PREFIXES) text = text.replace(p, '');
  return text;
}

/** §8: a post is protected when WordPress says its content is, or when its password is known and non-empty. */
export function isProtected(post: WpPost): boolean {
  return post.content?.protected === true || (typeof post.password === 'string' && post.password !== '');
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * WP's `can_access_password_content`: no password, or the `password` param equals the post password (constant
 * time). When the password is unknown (anonymous fetch), WordPress itself checked the password we forwarded:
 * content that came back rendered non-empty means it matched.
 */
export function canSeeProtected(post: WpPost, password: string | undefined): boolean {
  if (!isProtected(post)) return true;
  if (!password) return false;
  if (typeof post.password === 'string' && post.password !== '') return sameSecret(post.password, password);
  return (post.content?.rendered ?? '').trim() !== '';
}

/** Post fields every TEC record starts with, in TEC's order. */
export function postHead(post: WpPost, author: unknown): Json {
  return {
    id: post.id,
    author: String(typeof author === 'number' ? author : (post.author ?? 0)),
    status: post.status,
    date: postDate(post.date),
    date_utc: postDate(post.date_gmt),
    modified: postDate(post.modified),
    modified_utc: postDate(post.modified_gmt),
    url: post.link,
  };
}
