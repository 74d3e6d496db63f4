// Events held as WordPress answered an anonymous reader: a list miss reads from WordPress only the events it does
// not hold at their current version (issue 33). WordPress keeps the last word: a held event is reused only for the
// audience it was read for (anonymous, no password), only while the index says it has not changed since (`modified`),
// and it leaves on any drop of its own tag, its terms', its venue's, its organizers' or its image's.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { inSlices } from '../index/compaction.ts';
import type { EventIndex } from '../index/event-index.ts';
import { fromWpDate, readField } from '../mapping/codec.ts';
import type { Mapping } from '../mapping/schema.ts';
import type { WpPost } from '../wp/types.ts';

/** The tags a held event leaves with besides its own: its terms, venue, organizers and image (src/cache/tags.ts). */
export function heldEventTags(mapping: Mapping, post: WpPost): string[] {
  const out: string[] = [];
  const v = readField(post, mapping.event.fields.venue);
  if (typeof v === 'number' && v > 0) out.push(`venue:${v}`);
  const o = readField(post, mapping.event.fields.organizer);
  for (const id of Array.isArray(o) ? o : typeof o === 'number' ? [o] : [])
    if (Number(id) > 0) out.push(`organizer:${Number(id)}`);
  for (const tax of [mapping.event.categories, mapping.event.tags]) {
    const ids = tax ? post[tax.restBase] : undefined;
    if (Array.isArray(ids)) for (const id of ids) out.push(`term:${tax!.taxonomy}:${id}`);
  }
  if (typeof post.featured_media === 'number' && post.featured_media > 0)
    out.push(`media:${post.featured_media}`);
  return out;
}

/** Keys of a post that only the edit context has (wp/v2's schema: `context: ['edit']`). */
const EDIT_ONLY = new Set(['password', 'permalink_template', 'generated_slug']);

/**
 * What an anonymous reader's `include=` read answers for a published, unprotected post, from a write's answer (edit
 * context): the edit-only keys and the `raw` forms of rendered fields left out. Pure.
 */
export function publicCopy(post: WpPost): WpPost {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(post)) {
    if (EDIT_ONLY.has(k) || k === '_links' || k === '_embedded') continue;
    if (v && typeof v === 'object' && !Array.isArray(v) && 'rendered' in v) {
      const { raw: _raw, block_version: _bv, ...shown } = v as Record<string, unknown>;
      out[k] = shown;
    } else out[k] = v;
  }
  return out as WpPost;
}

/** The longest run of held lookups or stores between two turns of the event loop (ms). */
const HELD_SLICE_MS = 2;

/** Whether `post` is the version of the event the index holds. */
const current = (index: EventIndex, post: WpPost): boolean =>
  index.columnsNow().modifiedOf(post.id) === fromWpDate(post.modified_gmt);

/**
 * `ids` in order: held ones at their current version as they are, the others read with `read` (one call for all of
 * them) and held afterwards, unless one of their tags was dropped while they were read.
 */
export async function readHeld(
  deps: Deps,
  ctx: RequestContext,
  index: EventIndex,
  ids: number[],
  read: (ids: number[]) => Promise<WpPost[]>,
): Promise<WpPost[]> {
  const records = deps.records!;
  const found = new Map<number, WpPost>();
  const missing: number[] = [];
  // A feed holds thousands: looked up and held a slice at a time, between turns of the event loop.
  await inSlices(ids, HELD_SLICE_MS, (id) => {
    const held = records.get<WpPost>('event', ctx.language, id);
    if (held && current(index, held)) found.set(id, held);
    else missing.push(id);
  });
  if (missing.length) {
    const since = records.mark();
    await inSlices(await read(missing), HELD_SLICE_MS, (p) => {
      found.set(p.id, p);
      records.set('event', ctx.language, p, { tags: heldEventTags(deps.mapping, p), since });
    });
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

/**
 * After a write the gateway made (and after its invalidation), holds the event as an anonymous reader would read
 * it, when the public sees it at all: the next list miss then needs no upstream read for it.
 */
export function holdWritten(deps: Deps, ctx: RequestContext, post: WpPost): void {
  if (!deps.records || post.status !== 'publish' || post.password) return;
  const copy = publicCopy(post);
  if ((copy.content as { protected?: boolean } | undefined)?.protected) return;
  deps.records.set('event', ctx.language, copy, { tags: heldEventTags(deps.mapping, copy) });
}
