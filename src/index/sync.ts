// Pure rules of keeping an index in step with WordPress: where the next poll starts, what a reconciliation changes.
import { msOfUtcWall } from '../dates/utc-wall.ts';
import { fromWpDate } from '../mapping/codec.ts';
import type { IndexedEvent } from './columns/rows.ts';

/**
 * The newer of two `modified_gmt` stamps (`''` for none), compared as times; a stamp that is not a time is passed
 * over, as `nextSince` passes it over. Crawls and polls keep only their newest stamp, one post at a time, instead of
 * every stamp for `nextSince` to read at the end in one task.
 */
export function newerStamp(newest: string, stamp: string): string {
  const t = msOfUtcWall(fromWpDate(stamp));
  if (Number.isNaN(t)) return newest;
  return newest === '' || t > msOfUtcWall(fromWpDate(newest)) ? stamp : newest;
}

/**
 * The epoch ms the next `modified_after` poll starts from: the newest modification seen, less the overlap and the
 * crawl's own duration, never moving back. Scheduled posts can carry a future `modified_gmt`; a window starting in
 * the future would miss every edit until then, so no stamp counts as later than `nowMs`.
 */
export function nextSince(
  current: number | null,
  modifiedGmt: string[],
  opts: { overlapMs: number; crawlMs: number; nowMs: number },
): number | null {
  let newest = Number.NaN;
  for (const m of modifiedGmt) {
    const t = Math.min(msOfUtcWall(fromWpDate(m)), opts.nowMs);
    // A stamp that is not a time is passed over, wherever it comes.
    if (!Number.isNaN(t) && !(t <= newest)) newest = t;
  }
  if (Number.isNaN(newest)) return current;
  const since = newest - opts.overlapMs - Math.ceil(opts.crawlMs);
  return current === null || since > current ? since : current;
}

/** `modified_after` as WordPress's REST API takes it: an ISO 8601 UTC time to the second. */
export const modifiedAfter = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

export interface UpstreamRow {
  id: number;
  status: string;
  modified_gmt: string;
}

export interface ReconcileView {
  index: {
    ids(): Iterable<number>;
    get(id: number): Pick<IndexedEvent, 'status' | 'modifiedGmt'> | undefined;
  };
  /** Ids removed through the gateway, with the UTC time of removal. */
  tombstones: ReadonlyMap<number, string>;
  /** Whether the id changed in the index after the id listing started (a write through the gateway). */
  changedSince: (id: number) => boolean;
}

/**
 * Compares the index with the ids and stamps WordPress lists. `gone`: indexed ids WordPress no longer has (hard
 * deletes). `stale`: ids to read again: missing ones (pages shift when posts are deleted mid-crawl) and ones whose
 * status or stamp differ (a scheduled post that WordPress published keeps its modified date).
 */
export function reconcilePlan(view: ReconcileView, rows: UpstreamRow[]): { gone: number[]; stale: number[] } {
  const upstream = new Set<number>();
  const stale: number[] = [];
  for (const row of rows) {
    upstream.add(row.id);
    const tomb = view.tombstones.get(row.id);
    if ((tomb !== undefined && fromWpDate(row.modified_gmt) <= tomb) || view.changedSince(row.id)) continue;
    const f = view.index.get(row.id);
    if (!f || f.status !== row.status || f.modifiedGmt !== fromWpDate(row.modified_gmt)) stale.push(row.id);
  }
  const gone = [...view.index.ids()].filter((id) => !upstream.has(id) && !view.changedSince(id));
  return { gone, stale };
}
