// The records of a list of occurrences (src/index/occurrences/list.ts): each one-off as itself, each occurrence as
// its series shifted to its own dates (or its override, when the caller sees one), with the occurrence id as `id`.
import type { RequestContext } from '../../context.ts';
import { utcWallOf } from '../../dates/utc-wall.ts';
import type { Deps } from '../../deps.ts';
import { inSlices } from '../../index/compaction.ts';
import type { EventIndex } from '../../index/event-index.ts';
import type { ListItem } from '../../index/occurrences/list.ts';
import { writeRecord } from '../../mapping/codec.ts';
import { occurrenceDates, withBody } from '../../recurrence/values.ts';
import { type SiteInfo, serializeEvent } from '../../serialize/index.ts';
import type { WpPost } from '../../wp/types.ts';
import { readEvents } from '../read-events.ts';
import { relatedOf } from '../related.ts';
import type { Visibility } from '../visibility.ts';

type Json = Record<string, unknown>;

/**
 * How long records are serialised between two turns of the event loop (about 60–80 µs each warm; a process's first
 * ones run cold, several times slower, so a count a slice was no bound on the time). A list's page of 50 events was
 * one task: 5.1–5.7 ms of a refill's with writes going on (bench:busy's task meter), past a write's 5 ms (issue 33).
 * The slices take turns of their own (`inSlices`'s `ownTurns`): a page whose records were all held ran its index query,
 * its records and its bytes in one task, 7.5 ms.
 */
export const SERIALIZE_MS = 3;

/** The posts a page of items is read from: each once (a series' occurrences share its post). */
export const postsOf = (items: readonly ListItem[]): number[] => [...new Set(items.map((i) => i.post))];

/** A series post as its occurrence starting at `originalStartMs`: the series' fields with the occurrence's dates. */
export function occurrencePost(deps: Deps, series: WpPost, originalStartMs: number): WpPost {
  const dates = occurrenceDates(deps, series, originalStartMs);
  return withBody(series, writeRecord(deps.mapping, 'event', dates));
}

/**
 * The record of an occurrence, worked out from its series' (or override's) record: `id` the occurrence id, the
 * series' id and rule, the original start. Keys stay where the serializer put them (TEC's order first).
 */
export function asOccurrence(record: Json, item: ListItem, seriesRecord: Json | undefined): Json {
  const o = item.occurrence;
  if (!o) return record;
  record.id = item.id;
  record.is_recurring = true;
  record.series_id = o.seriesId;
  record.original_start_utc = utcWallOf(o.originalStartMs);
  if (seriesRecord && 'recurrence' in record) record.recurrence = seriesRecord.recurrence ?? null;
  return record;
}

/** The records of `items`, read as the caller (a post it may not read leaves its items out). */
export async function occurrenceRecords(
  deps: Deps,
  ctx: RequestContext,
  index: EventIndex,
  items: readonly ListItem[],
  visibility: Visibility,
  password: string | undefined,
  site: SiteInfo,
  context: 'list' = 'list',
): Promise<Json[]> {
  const posts = await readEvents(deps, ctx, index, postsOf(items), visibility, password);
  const byId = new Map(posts.map((p) => [p.id, p]));
  const related = await relatedOf(deps, ctx, posts);
  const options = { mapping: deps.mapping, site, context, password };
  const seriesRecords = new Map<number, Json>();
  const seriesRecord = (id: number): Json | undefined => {
    let r = seriesRecords.get(id);
    const post = byId.get(id);
    if (!r && post) {
      r = serializeEvent(post, related, options);
      seriesRecords.set(id, r);
    }
    return r;
  };
  const recordOf = (item: ListItem): Json | undefined => {
    const post = byId.get(item.post);
    if (!post) return undefined;
    const o = item.occurrence;
    if (!o) return serializeEvent(post, related, options);
    if (o.overrideId !== undefined)
      return asOccurrence(serializeEvent(post, related, options), item, undefined);
    const shifted = occurrencePost(deps, post, o.originalStartMs);
    return asOccurrence(serializeEvent(shifted, related, options), item, seriesRecord(item.post));
  };
  const out: Json[] = [];
  await inSlices(
    items,
    SERIALIZE_MS,
    (item) => {
      const r = recordOf(item);
      if (r) out.push(r);
    },
    true,
  );
  return out;
}
