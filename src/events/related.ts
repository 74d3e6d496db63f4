// Fetches what a page of events links to (venues, organizers, images) in parallel, one `include=` call each.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { readField, recordFieldsOf } from '../mapping/codec.ts';
import type { Related } from '../serialize/index.ts';
import { can } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import type { RecordKind } from '../wp/records.ts';
import type { WpMedia, WpPost, WpTerm } from '../wp/types.ts';
import { withStoredExcerpt } from './excerpt.ts';

const VISIBLE_TO_EDITORS = 'publish,future,draft,pending,private';

async function byIds<T extends { id: number }>(
  deps: Deps,
  ctx: RequestContext,
  path: string,
  ids: number[],
  query: Record<string, string | undefined> = {},
): Promise<Map<number, T>> {
  if (!ids.length) return new Map();
  const items: T[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const page = await deps.wp.list<T>({
      path,
      query: { include: chunk, per_page: 100, ...query },
      ...asCaller(ctx),
    });
    items.push(...page.items);
  }
  return new Map(items.map((x) => [x.id, x]));
}

/** Anonymous reads go through the public record cache; WordPress is asked only for the missing ids. */
async function cachedByIds<T extends { id: number }>(
  deps: Deps,
  ctx: RequestContext,
  kind: RecordKind,
  path: string,
  ids: number[],
  query: Record<string, string | undefined> = {},
): Promise<Map<number, T>> {
  const records = ctx.credentials ? undefined : deps.records;
  if (!records) return byIds<T>(deps, ctx, path, ids, query);
  const out = new Map<number, T>();
  const missing: number[] = [];
  for (const id of ids) {
    const hit = records.get<T & (WpPost | WpMedia)>(kind, ctx.language, id);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  for (const [id, item] of await byIds<T>(deps, ctx, path, missing, query)) {
    records.set(kind, ctx.language, item as unknown as WpPost | WpMedia);
    out.set(id, item);
  }
  return out;
}

/** Linked posts are read with the caller's own credentials: WordPress decides which of them they may see. */
async function linkedPosts(deps: Deps, ctx: RequestContext, kind: 'venue' | 'organizer', ids: number[]) {
  const caller = await deps.callers.resolve(ctx);
  const status = can(caller, deps.site.caps[kind] ?? {}, 'edit_posts') ? { status: VISIBLE_TO_EDITORS } : {};
  const posts = await cachedByIds<WpPost>(deps, ctx, kind, `/wp/v2/${deps.mapping[kind].restBase}`, ids, {
    ...status,
    _fields: recordFieldsOf(deps.mapping, kind),
  });
  // Whether an excerpt is stored (edit context) comes from the catalog, or one request when it is not loaded; a list
  // miss never waits for a crawl of every venue. Only records showing an excerpt can have an invented one.
  const shown = [...posts.values()].filter((p) => p.excerpt?.rendered).map((p) => p.id);
  const stored = shown.length
    ? await deps.catalog.storedExcerpts(kind, ctx.language, shown).catch(() => undefined)
    : undefined;
  for (const [id, p] of posts) {
    if (stored?.get(id) === false) posts.set(id, withStoredExcerpt(p, false));
  }
  return posts;
}

/**
 * The series of the overrides among `events` (an override answers its series' rule), read with the caller's own
 * credentials as an event is, or taken from `known` (series posts the caller already read). One request for a page
 * that holds overrides, none otherwise.
 */
async function seriesOf(
  deps: Deps,
  ctx: RequestContext,
  events: WpPost[],
  known: WpPost[],
): Promise<Map<number, WpPost>> {
  const out = new Map(known.map((p) => [p.id, p]));
  const field = deps.mapping.event.fields.series_parent;
  if (!field || !deps.mapping.event.fields.recurrence) return out;
  const wanted = new Set<number>();
  for (const post of events) {
    const parent = readField(post, field);
    if (typeof parent === 'number' && parent > 0 && !out.has(parent)) wanted.add(parent);
  }
  if (!wanted.size) return out;
  const caller = await deps.callers.resolve(ctx);
  const status = can(caller, deps.site.caps.event ?? {}, 'edit_posts') ? { status: VISIBLE_TO_EDITORS } : {};
  const found = await byIds<WpPost>(deps, ctx, `/wp/v2/${deps.mapping.event.restBase}`, [...wanted], {
    ...status,
    _fields: recordFieldsOf(deps.mapping, 'event'),
  }).catch(() => new Map<number, WpPost>());
  for (const [id, p] of found) out.set(id, p);
  return out;
}

export async function relatedOf(
  deps: Deps,
  ctx: RequestContext,
  events: WpPost[],
  knownSeries: WpPost[] = [],
): Promise<Related> {
  const { mapping } = deps;
  const venueIds = new Set<number>();
  const organizerIds = new Set<number>();
  for (const post of events) {
    const v = readField(post, mapping.event.fields.venue);
    if (typeof v === 'number') venueIds.add(v);
    const o = readField(post, mapping.event.fields.organizer);
    for (const id of Array.isArray(o) ? o : typeof o === 'number' ? [o] : []) organizerIds.add(Number(id));
  }
  const [venues, organizers, terms, series] = await Promise.all([
    linkedPosts(deps, ctx, 'venue', [...venueIds]),
    linkedPosts(deps, ctx, 'organizer', [...organizerIds]),
    termsOf(deps, ctx),
    seriesOf(deps, ctx, events, knownSeries),
  ]);
  const mediaIds = new Set<number>();
  for (const p of [...events, ...venues.values(), ...organizers.values()]) {
    if (typeof p.featured_media === 'number' && p.featured_media > 0) mediaIds.add(p.featured_media);
  }
  const media = await cachedByIds<WpMedia>(deps, ctx, 'media', '/wp/v2/media', [...mediaIds]).catch(
    () => new Map<number, WpMedia>(),
  );
  return { venues, organizers, terms, media, ...(series.size ? { series } : {}) };
}

/**
 * The terms by id of a pair of term lists, made once per pair. The term cache hands out the same lists until a term
 * of theirs changes, and each miss used to copy every term of both taxonomies: a site with thousands of tags paid
 * for all of them on every list miss. Read only: serializers look terms up.
 */
const termMaps = new WeakMap<WpTerm[], WeakMap<WpTerm[], Map<number, WpTerm>>>();

async function termsOf(deps: Deps, ctx: RequestContext): Promise<Map<number, WpTerm>> {
  const { categories, tags } = deps.mapping.event;
  const lists = [
    categories ? await deps.terms.all(categories, ctx.language) : [],
    tags ? await deps.terms.all(tags, ctx.language) : [],
  ] as const;
  let byTags = termMaps.get(lists[0]);
  if (!byTags) {
    byTags = new WeakMap();
    termMaps.set(lists[0], byTags);
  }
  let out = byTags.get(lists[1]);
  if (!out) {
    out = new Map<number, WpTerm>();
    for (const [tax, list] of [
      [categories, lists[0]],
      [tags, lists[1]],
    ] as const) {
      if (tax) for (const t of list) out.set(t.id, { ...t, taxonomy: tax.taxonomy });
    }
    byTags.set(lists[1], out);
  }
  return out;
}
