// The events of a feed (/events.ics): a series is sent once, as its master with the overrides the caller may see
// (src/render/ical-series.ts), whenever any of its occurrences falls in the window; one-offs as a list has them.
import type { IndexQuery } from '../query.ts';
import { cachedIds, listOccurrences, type OccurrenceIndex, statusOnly } from './list.ts';

/** The posts a feed of query `q` holds, in order (at most `cap` events and series), and how many matched. */
export function feedPosts(index: OccurrenceIndex, q: Omit<IndexQuery, 'page' | 'perPage'>, cap: number) {
  const firsts = listOccurrences(index, { ...q, firstOnly: true, page: 1, perPage: Math.max(1, cap) });
  const seen = new Set(
    cachedIds(index, {
      ...statusOnly(q as IndexQuery),
      rows: 'override',
      page: 1,
      perPage: Number.MAX_SAFE_INTEGER,
    }),
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
