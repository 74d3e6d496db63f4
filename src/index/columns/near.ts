// Geolocation lists (src/geo/) from the venues' posting lists, and `geoloc=true` / `false` as a bit per row.
//
// A point reaches few venues (about 100 of 5k within 25 km: 2000 of 100k events), so their rows are read instead of
// the date window's, and only the page is put in order: the first rows by (start, id) kept as they come, or, nearest
// first, the rows of the few venues the page falls on. The total is the count of the rows read that match. A venue
// set reaching most rows (`geoloc=true`, a wide radius) is left to the walk of the window, which reads it as one bit
// per row, kept per set and caught up with the rows added since (a row's venue never changes: a change takes a row).
import type { IndexQuery, IndexResult } from '../query.ts';
import type { Block } from './order.ts';
import type { FacetPostings, Posting } from './postings.ts';
import type { Rows } from './rows.ts';
import { hasBit, type SearchMemo } from './search.ts';

/**
 * A venue set this large is read as a bit per row by the walk (see {@link venueMember}), not looked up per row: the
 * bits of a set made afresh for one query (a point's) cost a pass over every row, so only sets of the size of a whole
 * catalog's venues with coordinates (`geoloc=true`, made once per catalog version) get them.
 */
const BITS_FROM = 1024;
const MAX = Number.MAX_SAFE_INTEGER;

/** What the plan reads here. */
export interface NearColumns {
  rows: Rows;
  facets: FacetPostings;
  /** Tests: read the venues' lists whatever their size. */
  alwaysNarrow: boolean;
}

type Keep = (r: number) => boolean;

/** The rows of one distance, or of a page's candidates (grown as needed, keeping what it holds; read before the
 * answer returns). */
let scratch = new Int32Array(1024);
const room = (n: number): Int32Array => {
  if (scratch.length < n) {
    const grown = new Int32Array(Math.max(n, 2 * scratch.length));
    grown.set(scratch);
    scratch = grown;
  }
  return scratch;
};

/**
 * The answer of a list near a point (`venueIn`, and `nearest` when ordered by distance) from its venues' posting
 * lists; null when it is no such list, or when those lists hold more than an eighth of the rows and no order by
 * distance asks for them (the walk of the window is then cheaper). `keepOf` makes a query's row predicate; `whole`
 * answers a query without `nearest` (an order by distance the lists cannot give is the whole list, re-ordered).
 */
export function answerNear(
  q: IndexQuery,
  c: NearColumns,
  keepOf: (q: IndexQuery) => Keep,
  whole: (q: IndexQuery) => IndexResult,
): IndexResult | null {
  const { nearest, venueIn } = q;
  const perPage = Math.max(1, Math.floor(q.perPage));
  const offset = (Math.max(1, Math.floor(q.page)) - 1) * perPage;
  const { rows } = c;
  if (q.include && q.include.length > 0)
    return nearest ? includedNearest(q, rows, keepOf(q), offset, perPage) : null;
  if (!venueIn) return nearest ? reordered(q, rows, whole, offset, perPage) : null;
  const lists: Posting[] = [];
  const kms: number[] = [];
  let size = 0;
  for (const v of venueIn) {
    const km = nearest ? nearest.get(v) : 0;
    // A venue kept but not measured would sort last, after every measured one: the whole list is re-ordered.
    if (km === undefined) return reordered(q, rows, whole, offset, perPage);
    const l = c.facets.venueRows(v);
    if (!l || l.n === 0) continue;
    lists.push(l);
    kms.push(km);
    size += l.n;
  }
  // Terms, organizers or venues narrow further: their lists meet the venues' (./postings.ts), which the plan's narrow
  // path does too, unless the order is by distance.
  const terms = !!(q.categories?.length || q.tags?.length || q.organizer?.length || q.venue?.length);
  if (!nearest && (terms || (!c.alwaysNarrow && size * 8 > rows.alive))) return null;
  // Every row read is at one of the venues: the predicate need not look it up again. The venue is still read, so a
  // protected event still counts only where the caller sees it in full (`readsLinks` says so to the predicate).
  const keep = keepOf({ ...q, venueIn: undefined, readsLinks: true });
  if (nearest && terms) {
    const found: number[] = [];
    for (const r of c.facets.narrow(q, null, rows.alive, true) ?? []) if (keep(r)) found.push(r);
    const order = startOrder(rows);
    found.sort((a, b) => {
      const x = kmOf(rows, nearest, a);
      const y = kmOf(rows, nearest, b);
      return x < y ? -1 : x > y ? 1 : order(a, b);
    });
    return result(
      found.slice(offset, offset + perPage).map((r) => rows.id[r]),
      found.length,
      perPage,
    );
  }
  return nearest
    ? byDistance(rows, lists, kms, keep, offset, perPage)
    : byStart(rows, lists, size, keep, offset, perPage);
}

/** (start, id) order of two rows. */
const startOrder =
  (rows: Rows) =>
  (a: number, b: number): number => {
    const { start, id } = rows;
    return start[a] < start[b] ? -1 : start[a] > start[b] ? 1 : id[a] - id[b];
  };

const result = (ids: number[], total: number, perPage: number): IndexResult => ({
  ids,
  total,
  totalPages: Math.ceil(total / perPage),
});

/** The page in (start, id) order: the first `offset + perPage` matches kept sorted as they come, the rest counted. */
function byStart(
  rows: Rows,
  lists: Posting[],
  size: number,
  keep: Keep,
  offset: number,
  perPage: number,
): IndexResult {
  const want = offset + perPage;
  const order = startOrder(rows);
  const { start, id } = rows;
  // Deep pages: sorting every match costs no more than keeping that many in order.
  const deep = want * 4 >= size;
  const best = deep ? room(size) : new Int32Array(want);
  let m = 0;
  let total = 0;
  for (const l of lists) {
    const list = l.rows;
    for (let i = 0; i < l.n; i++) {
      const r = list[i];
      if (!keep(r)) continue;
      total++;
      if (deep) {
        best[m++] = r;
        continue;
      }
      if (m === want) {
        const w = best[want - 1];
        if (start[r] > start[w] || (start[r] === start[w] && id[r] > id[w])) continue;
      }
      let j = m < want ? m++ : want - 1;
      for (; j > 0 && order(r, best[j - 1]) < 0; j--) best[j] = best[j - 1];
      best[j] = r;
    }
  }
  if (deep) best.subarray(0, m).sort(order);
  const ids: number[] = [];
  for (let i = offset; i < Math.min(m, want); i++) ids.push(id[best[i]]);
  return result(ids, total, perPage);
}

/**
 * The page nearest first: the venues in order of distance, each distance's matches counted, and sorted (start, id)
 * only where the page falls.
 */
function byDistance(
  rows: Rows,
  lists: Posting[],
  kms: number[],
  keep: Keep,
  offset: number,
  perPage: number,
): IndexResult {
  const want = offset + perPage;
  const order = startOrder(rows);
  const byKm = Array.from(lists.keys()).sort((a, b) => kms[a] - kms[b]);
  const ids: number[] = [];
  let total = 0;
  for (let g = 0; g < byKm.length; ) {
    const km = kms[byKm[g]];
    let n = 0;
    for (; g < byKm.length && kms[byKm[g]] === km; g++) {
      const l = lists[byKm[g]];
      const at = room(n + l.n);
      for (let i = 0; i < l.n; i++) if (keep(l.rows[i])) at[n++] = l.rows[i];
    }
    if (n > 0 && total < want && total + n > offset) {
      const same = scratch.subarray(0, n).sort(order);
      for (let i = Math.max(0, offset - total); i < Math.min(n, want - total); i++)
        ids.push(rows.id[same[i]]);
    }
    total += n;
  }
  return result(ids, total, perPage);
}

const kmOf = (rows: Rows, nearest: ReadonlyMap<number, number>, r: number): number =>
  (rows.venue[r] === 0 ? undefined : nearest.get(rows.venue[r])) ?? Number.POSITIVE_INFINITY;

/** `include` ordered by distance: the named events that match, nearest first, then by publication date and id. */
function includedNearest(
  q: IndexQuery,
  rows: Rows,
  keep: Keep,
  offset: number,
  perPage: number,
): IndexResult {
  const nearest = q.nearest as ReadonlyMap<number, number>;
  const { date, id } = rows;
  const found: number[] = [];
  for (const want of new Set(q.include)) {
    const r = rows.rowOf.get(want);
    if (r !== undefined && keep(r)) found.push(r);
  }
  found.sort((a, b) => {
    const x = kmOf(rows, nearest, a);
    const y = kmOf(rows, nearest, b);
    if (x !== y) return x < y ? -1 : 1;
    return date[a] < date[b] ? -1 : date[a] > date[b] ? 1 : id[a] - id[b];
  });
  return result(
    found.slice(offset, offset + perPage).map((r) => id[r]),
    found.length,
    perPage,
  );
}

/** The whole list in its own order, then nearest first (a stable sort), then cut. */
function reordered(
  q: IndexQuery,
  rows: Rows,
  whole: (q: IndexQuery) => IndexResult,
  offset: number,
  perPage: number,
): IndexResult {
  const nearest = q.nearest as ReadonlyMap<number, number>;
  const all = whole({ ...q, nearest: undefined, page: 1, perPage: MAX });
  const km = all.ids.map((i) => kmOf(rows, nearest, rows.rowOf.get(i) ?? 0));
  const order = Array.from(all.ids.keys()).sort((a, b) => (km[a] < km[b] ? -1 : km[a] > km[b] ? 1 : a - b));
  return result(
    order.slice(offset, offset + perPage).map((k) => all.ids[k]),
    all.total,
    perPage,
  );
}

/** Per venue set (by identity) and rows: one bit per row at one of its venues, up to `upTo`; per-block counts. */
interface VenueBits {
  upTo: number;
  bits: Uint32Array;
  /** What {@link venueSearch} keeps per block, with the set kept (`in`) or left out (`out`). */
  blocksIn: WeakMap<Block, Int32Array>;
  blocksOut: WeakMap<Block, Int32Array>;
}
const BITS = new WeakMap<ReadonlySet<number>, WeakMap<Rows, VenueBits>>();

/** The bits of a set's venues over the rows, caught up with the rows added since they were last read. */
function bitsOf(rows: Rows, venues: ReadonlySet<number>): VenueBits {
  let perRows = BITS.get(venues);
  if (!perRows) {
    perRows = new WeakMap();
    BITS.set(venues, perRows);
  }
  let m = perRows.get(rows);
  if (!m) {
    m = { upTo: 0, bits: new Uint32Array(0), blocksIn: new WeakMap(), blocksOut: new WeakMap() };
    perRows.set(rows, m);
  }
  const words = (rows.used >>> 5) + 1;
  if (m.bits.length < words) {
    const grown = new Uint32Array(Math.max(words, (rows.cap >>> 5) + 1));
    grown.set(m.bits);
    m.bits = grown;
  }
  const { bits } = m;
  const venue = rows.venue;
  for (let r = m.upTo; r < rows.used; r++)
    if (venue[r] !== 0 && venues.has(venue[r])) bits[r >>> 5] |= 1 << (r & 31);
  m.upTo = rows.used;
  return m;
}

/**
 * Whether row `r`'s venue is in `venues`: a lookup for a small set; for a large one (`geoloc=true` keeps every venue
 * with coordinates, the same set object while the venue catalog stays the same), a bit per row, made once and
 * caught up with new rows.
 */
export function venueMember(rows: Rows, venues: ReadonlySet<number>): (r: number) => boolean {
  const venue = rows.venue;
  if (venues.size < BITS_FROM) return (r) => venue[r] !== 0 && venues.has(venue[r]);
  const { bits } = bitsOf(rows, venues);
  return (r) => hasBit(bits, r);
}

/**
 * `geoloc=true` / `false` without a text search: the large venue set's bits as a search's (`inc`, or `exc` for the
 * venues left out), so the walk counts whole blocks from per-block counts kept with the bits, as it counts a
 * search's, instead of testing each row of the window. The query given back reads no venue set; it keeps what
 * reading one implies (`readsLinks`: a protected event only where seen in full), and lets the "search" match
 * protected events (no text is searched: WordPress's rule on searching them does not apply). Null otherwise.
 */
export function venueSearch(q: IndexQuery, rows: Rows): { q: IndexQuery; search: SearchMemo } | null {
  const venues = q.venueIn ?? q.venueNotIn;
  if (q.nearest || (q.search !== undefined && q.search !== '') || !venues || venues.size < BITS_FROM)
    return null;
  if (q.venueIn && q.venueNotIn) return null;
  const m = bitsOf(rows, venues);
  const kept = q.venueIn !== undefined;
  return {
    q: { ...q, venueIn: undefined, venueNotIn: undefined, readsLinks: true, searchesProtected: true },
    search: {
      terms: [],
      blocks: kept ? m.blocksIn : m.blocksOut,
      upTo: rows.used,
      cap: rows.cap,
      rows: null,
      inc: kept ? m.bits : null,
      exc: kept ? null : m.bits,
    },
  };
}
