// The query plan: a list query answered from the columns, in O(log n + the page's rows + blocks in the window).
//
// `include` and narrow searches sort their few candidates; everything else walks the start range the bounds allow,
// block by block, counting whole blocks from their summaries once the page is cut.
import type { IndexQuery, IndexResult } from '../query.ts';
import { boundsOf, checksOf, filterOf } from './filter.ts';
import { answerNear, venueSearch } from './near.ts';
import type { Block, Ordered } from './order.ts';
import type { FacetPostings } from './postings.ts';
import { ALIVE, type Rows } from './rows.ts';
import { hasBit, matchCounts, type Searches } from './search.ts';
import { NO_DATE } from './wall-clock.ts';

/** What a query reads. */
export interface Columns {
  rows: Rows;
  order: Ordered;
  facets: FacetPostings;
  searches: Searches;
  /** Tests: take the candidate lists whatever their size (both ways must answer the same). */
  alwaysNarrow: boolean;
}

/** The later of two positions in the order. */
const later = (a: [number, number], b: [number, number]): [number, number] =>
  b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]) ? b : a;

export function answer(query: IndexQuery, c: Columns): IndexResult {
  const { rows: held, order, alwaysNarrow } = c;
  const perPage = Math.max(1, Math.floor(query.perPage));
  const offset = (Math.max(1, Math.floor(query.page)) - 1) * perPage;
  // geoloc=true / false: the venues' bits are read as a search's, whole blocks counted (./near.ts).
  const text = query.search !== undefined && query.search !== '' ? c.searches.of(query.search) : null;
  const { q, search } = (!text && venueSearch(query, held)) || { q: query, search: text };
  const d = boundsOf(q);
  // Near a point (./near.ts): its few venues' rows are read, and put in order by distance there.
  const near = answerNear(
    q,
    c,
    (x) => filterOf(held, x, d, search),
    (x) => answer(x, c),
  );
  if (near) return near;
  const keep = filterOf(held, q, d, search);
  const id = held.id;
  const start = held.start;
  const alive = held.alive;

  // Rows that may match (ascending, dead ones included), when a search or a selective filter narrows them.
  const candidates = c.facets.narrow(q, search?.rows ?? null, alive, alwaysNarrow);
  const narrow = candidates && (alwaysNarrow || candidates.length * 32 <= alive);
  if ((q.include && q.include.length > 0) || narrow) {
    // `include` switches the order to publication date (TEC sets `post__in` and orders by date); a narrow search
    // sorts its few candidates rather than walk the window.
    const rows: number[] = [];
    if (q.include && q.include.length > 0) {
      for (const want of new Set(q.include)) {
        const r = held.rowOf.get(want);
        if (r !== undefined && keep(r)) rows.push(r);
      }
      const date = held.date;
      rows.sort((a, b) => (date[a] < date[b] ? -1 : date[a] > date[b] ? 1 : id[a] - id[b]));
    } else {
      const meta = held.meta;
      for (const r of candidates ?? []) if (meta[r] & ALIVE && keep(r)) rows.push(r);
      rows.sort((a, b) => (start[a] < start[b] ? -1 : start[a] > start[b] ? 1 : id[a] - id[b]));
    }
    return {
      ids: rows.slice(offset, offset + perPage).map((r) => id[r]),
      total: rows.length,
      totalPages: Math.ceil(rows.length / perPage),
    };
  }

  // The start range the bounds allow. Events without a start come first and never satisfy a start bound.
  let from: [number, number] = [0, 0];
  if (d.startGte !== undefined || d.startGt !== undefined || d.startLt !== undefined) {
    from = order.seek(NO_DATE, true);
  }
  if (d.startGte !== undefined && (d.startGt === undefined || d.startGte > d.startGt)) {
    from = later(from, order.seek(d.startGte, false));
  } else if (d.startGt !== undefined) {
    from = later(from, order.seek(d.startGt, true));
  }
  // Upper limit on the start: a start bound, or an end bound when every event ends after it starts.
  let to = Number.POSITIVE_INFINITY;
  let toStrict = false;
  const limit = (key: number | undefined, strict: boolean) => {
    if (key !== undefined && (key < to || (key === to && strict))) {
      to = key;
      toStrict = strict;
    }
  };
  limit(d.startLt, true);
  if (held.inverted === 0) {
    limit(d.endLte, false);
    limit(d.endLt, true);
  }

  // The walk: what every list checks is read from the block's own copies, in sequence; a row's other
  // columns only for rows that get that far.
  const { pass, owner, author, d: bounds, inc, exc, extra } = checksOf(held, q, d, search);
  const { startGte, startGt, startLt, endLte, endLt, endGt } = bounds;
  const dated = Object.values(bounds).some((v) => v !== undefined);
  const ids: number[] = [];
  let total = 0;
  const { blocks } = order;
  // With fewer candidates than half the rows (a search), the total comes from them, in row order (memory in
  // sequence); the walk then only has to find the page, and stops there.
  let counted: number | null = null;
  // (When most rows are candidates, walking the window in order is cheaper: it reads the block copies.)
  if (candidates && candidates.length * 2 < alive) {
    counted = 0;
    const meta = held.meta;
    for (let j = 0; j < candidates.length; j++) {
      const r = candidates[j];
      if (meta[r] & ALIVE && keep(r)) counted++;
    }
  }
  const done = () => ({
    ids,
    total: counted ?? total,
    totalPages: Math.ceil((counted ?? total) / perPage),
  });
  // Blocks wholly inside the window are counted from their summaries once the page is cut (or before it starts);
  // with a search, from the block's counts for that search (made by the first query that needs them).
  const countable = extra === null && !pass.includes(2);
  const searched = search?.blocks;
  const endsFit = (blk: Block): boolean => {
    if (endLte === undefined && endLt === undefined && endGt === undefined) return true;
    const e = order.ends(blk);
    if (e.noEnd > 0) return false;
    return (
      (endLte === undefined || e.maxEnd <= endLte) &&
      (endLt === undefined || e.maxEnd < endLt) &&
      (endGt === undefined || e.minEnd > endGt)
    );
  };
  for (let b = from[0], i = from[1]; b < blocks.length; b++, i = 0) {
    const blk = blocks[b];
    if (countable && i === 0 && blk.n > 0 && (total >= offset + perPage || total + blk.n <= offset)) {
      const last = blk.starts[blk.n - 1];
      if ((last < to || (!toStrict && last === to)) && endsFit(blk)) {
        let c = 0;
        if (searched) {
          let pairs = searched.get(blk);
          if (!pairs || pairs[0] !== blk.version) {
            pairs = matchCounts(blk, inc, exc);
            searched.set(blk, pairs);
          }
          for (let k = 1; k < pairs.length; k += 2) if (pass[pairs[k]] === 1) c += pairs[k + 1];
        } else for (const [m, k] of blk.counts) if (pass[m] === 1) c += k;
        if (total >= offset + perPage || total + c <= offset) {
          total += c;
          continue;
        }
      }
    }
    const { rows, starts, ends, metas, n } = blk;
    for (; i < n; i++) {
      const s = starts[i];
      if (s > to || (toStrict && s === to)) return done();
      const how = pass[metas[i]];
      if (how === 0) continue;
      if (dated) {
        const e = ends[i];
        if (startGte !== undefined && !(s !== NO_DATE && s >= startGte)) continue;
        if (startGt !== undefined && !(s !== NO_DATE && s > startGt)) continue;
        if (startLt !== undefined && !(s !== NO_DATE && s < startLt)) continue;
        if (endLte !== undefined && !(e !== NO_DATE && e <= endLte)) continue;
        if (endLt !== undefined && !(e !== NO_DATE && e < endLt)) continue;
        if (endGt !== undefined && !(e !== NO_DATE && e > endGt)) continue;
      }
      if (how === 2 || inc !== null || exc !== null || extra !== null) {
        const r = rows[i];
        if (how === 2 && owner[r] !== author) continue;
        if (inc !== null && !hasBit(inc, r)) continue;
        if (exc !== null && hasBit(exc, r)) continue;
        if (extra !== null && !extra(r)) continue;
      }
      if (total >= offset && ids.length < perPage) ids.push(id[rows[i]]);
      total++;
      if (counted !== null && ids.length === perPage) return done();
    }
  }
  return done();
}
