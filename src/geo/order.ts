// A near list's order and answers: nearest venue first (then the list's own order), and `distance_km` on each record.

/**
 * The page of a whole list ordered by distance, nearest first; items at the same distance keep the list's order
 * (start, then id), and items without a distance go last.
 */
export function pageByDistance<T>(
  all: { items: readonly T[]; total: number },
  page: number,
  perPage: number,
  kmOf: (item: T) => number | undefined,
): { items: T[]; total: number; totalPages: number } {
  const n = all.items.length;
  const km = new Float64Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    km[i] = kmOf(all.items[i]!) ?? Number.POSITIVE_INFINITY;
    order[i] = i;
  }
  order.sort((a, b) => km[a]! - km[b]! || a - b);
  const size = Math.max(1, Math.floor(perPage));
  const offset = (Math.max(1, Math.floor(page)) - 1) * size;
  const items: T[] = [];
  for (let i = offset; i < Math.min(n, offset + size); i++) items.push(all.items[order[i]!]!);
  return { items, total: all.total, totalPages: Math.ceil(all.total / size) };
}

/** A record with `distance_km` last (after TEC's keys and the gateway's other additions), when it has one. */
export function withDistance<T extends Record<string, unknown>>(record: T, km: number | undefined): T {
  return km === undefined ? record : { ...record, distance_km: km };
}
