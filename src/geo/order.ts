// A near list's order and answers: nearest venue first (then the list's own order), and `distance_km` on each record.
import type { IndexQuery, IndexResult } from '../index/query.ts';

/** What ordering by distance reads of the event index. */
export interface ByVenue {
  query(q: IndexQuery): IndexResult;
  venueOf(id: number): number;
}

/**
 * The page of a query ordered by the distance of each event's venue, nearest first; events at the same distance keep
 * the index's order (start, then id). Every match is read (a point's matches are the events of the venues in reach,
 * found through the venues' posting lists), then sorted and cut.
 */
export function pageByDistance(
  index: ByVenue,
  q: IndexQuery,
  distances: ReadonlyMap<number, number>,
): IndexResult {
  const all = index.query({ ...q, page: 1, perPage: Number.MAX_SAFE_INTEGER });
  const n = all.ids.length;
  const km = new Float64Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    km[i] = distances.get(index.venueOf(all.ids[i])) ?? Number.POSITIVE_INFINITY;
    order[i] = i;
  }
  order.sort((a, b) => km[a] - km[b] || a - b);
  const perPage = Math.max(1, Math.floor(q.perPage));
  const offset = (Math.max(1, Math.floor(q.page)) - 1) * perPage;
  const ids: number[] = [];
  for (let i = offset; i < Math.min(n, offset + perPage); i++) ids.push(all.ids[order[i]]);
  return { ids, total: all.total, totalPages: Math.ceil(all.total / perPage) };
}

/** A record with `distance_km` last (after TEC's keys and the gateway's other additions), when it has one. */
export function withDistance<T extends Record<string, unknown>>(record: T, km: number | undefined): T {
  return km === undefined ? record : { ...record, distance_km: km };
}
