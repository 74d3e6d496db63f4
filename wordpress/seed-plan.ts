// Pure translation of the sample site (mocks/seed-types.ts) into wp/v2 request bodies, in dependency order.

import type { SeedMeta, SeedPost, SeedTerm } from '../mocks/seed-types.ts';
import type { Mapping, StorageFormat } from '../src/mapping/schema.ts';
import { metaKeysOf } from '../src/mapping/schema.ts';

/** What a wp/v2 meta field accepts for one registered key (see the companion plugin's register_post_meta). */
export type RestMetaValue = string | number | Array<string | number>;

/** Ids already known on the site: terms by rest_base then slug, posts by seed key, users by login. */
export interface IdMaps {
  terms: Map<string, Map<string, number>>;
  posts: Map<string, number>;
  users: Map<string, number>;
}

/** `YYYY-MM-DD HH:MM:SS` (storage, site-local) → `YYYY-MM-DDTHH:MM:SS` (wp/v2 `date`, also site-local). */
export function toRestDate(storage: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(storage);
  if (!m) throw new Error(`not a 'YYYY-MM-DD HH:MM:SS' date: ${JSON.stringify(storage)}`);
  return `${m[1]}T${m[2]}`;
}

/**
 * Terms grouped so each group's parents are in earlier groups; a group can then be created in parallel.
 * Throws on a parent that is neither in the list nor already known, and on cycles.
 */
export function termWaves(terms: SeedTerm[], known: ReadonlySet<string> = new Set()): SeedTerm[][] {
  const done = new Set(known);
  let rest = terms.filter((t) => !done.has(t.slug));
  const waves: SeedTerm[][] = [];
  while (rest.length > 0) {
    const wave = rest.filter((t) => t.parent === undefined || done.has(t.parent));
    if (wave.length === 0) {
      const bad = rest.map((t) => `${t.slug} (parent ${t.parent})`).join(', ');
      throw new Error(`terms with a missing or cyclic parent: ${bad}`);
    }
    for (const t of wave) done.add(t.slug);
    waves.push(wave);
    rest = rest.filter((t) => !done.has(t.slug));
  }
  return waves;
}

/** Posts grouped so every post's links point into earlier groups or at already known posts. */
export function postWaves(posts: SeedPost[], known: ReadonlySet<string> = new Set()): SeedPost[][] {
  const done = new Set(known);
  let rest = posts.filter((p) => !done.has(p.key));
  const waves: SeedPost[][] = [];
  while (rest.length > 0) {
    const wave = rest.filter((p) => Object.values(p.links).every((keys) => keys.every((k) => done.has(k))));
    if (wave.length === 0) {
      const bad = rest.map((p) => `${p.key} → ${JSON.stringify(p.links)}`).join('; ');
      throw new Error(`posts linking to unknown or cyclic posts: ${bad}`);
    }
    for (const p of wave) done.add(p.key);
    waves.push(wave);
    rest = rest.filter((p) => !done.has(p.key));
  }
  return waves;
}

/** One stored value in the REST type the companion plugin registered for its format. */
export function restMetaValue(format: StorageFormat, value: SeedMeta): RestMetaValue {
  const list = Array.isArray(value) ? value : [value];
  const scalar = (v: string | number | boolean): string =>
    typeof v === 'boolean' ? (v ? '1' : '') : String(v);
  switch (format) {
    case 'int':
      return toInt(list[0] ?? 0);
    case 'int-list':
      return list.map(toInt);
    case 'string-list':
      return list.map(scalar);
    default:
      if (Array.isArray(value))
        throw new Error(`a list for single meta format ${format}: ${JSON.stringify(value)}`);
      return scalar(value);
  }
}

function toInt(v: string | number | boolean): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`not an integer meta value: ${JSON.stringify(v)}`);
  return n;
}

/** The wp/v2 create body for one seed post; links and terms resolved through `ids`. */
export function postBody(post: SeedPost, mapping: Mapping, ids: IdMaps): Record<string, unknown> {
  const formats = metaKeysOf(mapping).get(post.postType) ?? new Map<string, StorageFormat>();
  const meta: Record<string, RestMetaValue> = {};
  for (const [key, value] of Object.entries(post.meta)) {
    meta[key] = restMetaValue(formats.get(key) ?? 'string', value);
  }
  for (const [key, keys] of Object.entries(post.links)) {
    const linked = keys.map((k) => need(ids.posts.get(k), `post '${k}' linked from ${post.key}`));
    const format = formats.get(key) ?? 'int-list';
    meta[key] = format === 'int-list' || format === 'string-list' ? linked : (linked[0] ?? 0);
  }
  const author = need(ids.users.get(post.author), `user '${post.author}' (author of ${post.key})`);
  const body: Record<string, unknown> = {
    title: post.title,
    content: post.content,
    excerpt: post.excerpt,
    slug: post.slug,
    status: post.status,
    author,
    date: toRestDate(post.date),
    meta,
  };
  if (post.password !== undefined) body.password = post.password;
  if (post.menuOrder !== undefined) body.menu_order = post.menuOrder;
  for (const [restBase, slugs] of Object.entries(post.terms)) {
    const bySlug = ids.terms.get(restBase);
    body[restBase] = slugs.map((s) =>
      need(bySlug?.get(s), `term '${s}' in ${restBase} (used by ${post.key})`),
    );
  }
  return body;
}

/** The wp/v2 route (rest_base) a seed post is created under. */
export function restBaseOf(post: SeedPost, mapping: Mapping): string {
  return mapping[post.kind].restBase;
}

export function chunk<T>(xs: readonly T[], size: number): T[][] {
  if (!(size >= 1)) throw new Error(`chunk size must be at least 1, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`seed refers to unknown ${what}`);
  return value;
}
