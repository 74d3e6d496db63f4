// The events of a feed (/events.ics): a series is sent once, as its master with the overrides the caller may see
// (src/render/ical-series.ts), whenever any of its occurrences falls in the window; one-offs as a list has them.
import type { IndexQuery } from '../query.ts';
import { listOccurrences, type OccurrenceIndex, statusOnly } from './list.ts';

/** The posts a feed of query `q` holds, in order (at most `cap` events and series), and how many matched. */
export function feedPosts(index: OccurrenceIndex, q: Omit<IndexQuery, 'page' | 'perPage'>, cap: number) {
  const firsts = listOccurrences(index, { ...q, firstOnly: true, page: 1, perPage: Math.max(1, cap) });
  // The overrides the caller may see, of the feed's series only: asked by id, a few rows read, not every override of
  // the index (a walk of all its rows, 10 ms of a first feed's turn at 100k events, and again after each write).
  const overrides: number[] = [];
  for (const item of firsts.items)
    if (item.occurrence) overrides.push(...index.repeats.overridesOf(item.occurrence.seriesId));
  const seen = new Set(
    overrides.length === 0
      ? []
      : index.query({
          ...statusOnly(q as IndexQuery),
          rows: 'override',
          include: overrides,
          page: 1,
          perPage: overrides.length,
        }).ids,
  );
  const ids: number[] = [];
  for (const item of firsts.items) {
    const o = item.occurrence;
    if (!o) {
      ids.push(item.post);
      continue;
    }
    ids.push(o.seriesId);
    for (const id of index.repeats.overridesOf(o.seriesId)) if (seen.has(id)) ids.push(id);
  }
  return { ids, total: firsts.total };
}
