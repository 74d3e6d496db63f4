// A list query's row predicate on the columns: everything `compileFilter` (src/index/query.ts) checks.
//
// Status and flags are read at once from a table indexed by a row's meta; the rarer filters are a closure, null when
// the query has none, so the walk skips them.
import { UNLISTED_STATUSES } from '../facets.ts';
import { type IndexQuery, readsBlanked } from '../query.ts';
import { venueMember } from './near.ts';
import { ALIVE, FLAG, FLAG_BITS, type Rows } from './rows.ts';
import { hasBit, type SearchMemo } from './search.ts';
import { NO_DATE, wallKey } from './wall-clock.ts';

/** A query's date bounds as wall-clock keys. */
export interface Bounds {
  startGte: number | undefined;
  startGt: number | undefined;
  startLt: number | undefined;
  endLte: number | undefined;
  endLt: number | undefined;
  endGt: number | undefined;
}

const keyOf = (s: string | undefined): number | undefined => (s === undefined ? undefined : wallKey(s));

export function boundsOf(q: IndexQuery): Bounds {
  const d = q.dates ?? {};
  return {
    startGte: keyOf(d.startGte),
    startGt: keyOf(d.startGt),
    startLt: keyOf(d.startLt),
    endLte: keyOf(d.endLte),
    endLt: keyOf(d.endLt),
    endGt: keyOf(d.endGt),
  };
}

/** A membership test for a list of ids: a scan for a few, a Set for many. */
function memberOf(list: readonly number[] | undefined): ((v: number) => boolean) | null {
  if (!list || list.length === 0) return null;
  if (list.length <= 8) {
    const a = Int32Array.from(list);
    return (v) => a.includes(v);
  }
  const s = new Set(list);
  return (v) => s.has(v);
}

/** Whether a row's flags are of the kind a query lists (src/index/query.ts, `rows`). */
function ofKind(rows: IndexQuery['rows'], f: number): boolean {
  if (rows === undefined || rows === 'all') return true;
  if (rows === 'series') return (f & FLAG.series) !== 0;
  if (rows === 'override') return (f & FLAG.override) !== 0;
  return (f & (FLAG.series | FLAG.override)) === 0;
}

/** The parts of a query's row predicate, for the range walk to apply in its own order. */
export function checksOf(rows: Rows, q: IndexQuery, d: Bounds, search: SearchMemo | null) {
  // Per meta value: 0 not listed, 1 listed, 2 listed when the caller wrote the event.
  const pass = new Uint8Array(Math.max(1, rows.statusName.length) << FLAG_BITS);
  const listed = new Map<string, number>();
  if (q.author) for (const s of q.ownStatuses ?? []) listed.set(s, 2);
  for (const s of q.statuses) listed.set(s, 1);
  // A query reading what a password blanks leaves out the protected events the caller does not see in full: all of
  // them here when it sees none, else row by row in `extra`.
  const blanked = readsBlanked(q) && !q.seesProtected?.all;
  const seesSome = !!(q.seesProtected?.own || q.seesProtected?.ids?.length);
  for (const [name, how] of listed) {
    const code = rows.statusCode.get(name);
    if (code === undefined || UNLISTED_STATUSES.has(name)) continue;
    for (let f = 0; f < 1 << FLAG_BITS; f++) {
      if (f & FLAG.hidden || !(f & ALIVE) || !ofKind(q.rows, f)) continue;
      if (q.featured !== undefined && ((f & FLAG.featured) !== 0) !== q.featured) continue;
      // WordPress searches password-protected posts only for logged-in callers.
      if (search && f & FLAG.protected && q.searchesProtected !== true) continue;
      if (blanked && !seesSome && f & FLAG.protected) continue;
      if (q.protectedOnly && !(f & FLAG.protected)) continue;
      pass[(code << FLAG_BITS) | f] = how;
    }
  }
  return {
    pass,
    owner: rows.author,
    author: q.author ?? 0,
    d,
    inc: search?.inc ?? null,
    exc: search?.exc ?? null,
    extra: extraFilter(rows, q, blanked && seesSome),
  };
}

/** The row predicate of a query: everything `compileFilter` checks, on the columns. */
export function filterOf(
  rows: Rows,
  q: IndexQuery,
  d: Bounds,
  search: SearchMemo | null,
): (r: number) => boolean {
  const { pass, owner, author, inc, exc, extra } = checksOf(rows, q, d, search);
  const meta = rows.meta;
  const start = rows.start;
  const end = rows.end;
  const { startGte, startGt, startLt, endLte, endLt, endGt } = d;
  return (r) => {
    const how = pass[meta[r]];
    if (how === 0 || (how === 2 && owner[r] !== author)) return false;
    const s = start[r];
    const e = end[r];
    if (startGte !== undefined && !(s !== NO_DATE && s >= startGte)) return false;
    if (startGt !== undefined && !(s !== NO_DATE && s > startGt)) return false;
    if (startLt !== undefined && !(s !== NO_DATE && s < startLt)) return false;
    if (endLte !== undefined && !(e !== NO_DATE && e <= endLte)) return false;
    if (endLt !== undefined && !(e !== NO_DATE && e < endLt)) return false;
    if (endGt !== undefined && !(e !== NO_DATE && e > endGt)) return false;
    if (inc !== null && !hasBit(inc, r)) return false;
    if (exc !== null && hasBit(exc, r)) return false;
    return extra === null || extra(r);
  };
}

/**
 * The rarer filters (parent, venue, terms, organizers, and `seen`: a protected event only when the caller sees it in
 * full); null when the query has none.
 */
function extraFilter(rows: Rows, q: IndexQuery, seen: boolean): ((r: number) => boolean) | null {
  const categories = memberOf(q.categories);
  const tags = memberOf(q.tags);
  const organizers = memberOf(q.organizer);
  const venues = memberOf(q.venue);
  const parent = q.parent;
  const { venueIn, venueNotIn } = q;
  if (
    !categories &&
    !tags &&
    !organizers &&
    !venues &&
    !venueIn &&
    !venueNotIn &&
    parent === undefined &&
    !seen
  )
    return null;
  const { vals, valOff, catN, tagN, orgN, venue, parent: parents, meta, author, id } = rows;
  // A geolocation's venues: looked up, or read as a bit per row when they are many (./near.ts).
  const near = venueIn ? venueMember(rows, venueIn) : null;
  const far = venueNotIn ? venueMember(rows, venueNotIn) : null;
  const own = q.seesProtected?.own || -1;
  const opened = memberOf(q.seesProtected?.ids);
  const any = (member: (v: number) => boolean, from: number, n: number): boolean => {
    for (let j = from; j < from + n; j++) if (member(vals[j])) return true;
    return false;
  };
  return (r) => {
    if (seen && meta[r] & FLAG.protected && author[r] !== own && !opened?.(id[r])) return false;
    if (parent !== undefined && parents[r] !== parent) return false;
    if (venues && (venue[r] === 0 || !venues(venue[r]))) return false;
    if (near && !near(r)) return false;
    if (far?.(r)) return false;
    const o = valOff[r];
    if (categories && !any(categories, o, catN[r])) return false;
    if (tags && !any(tags, o + catN[r], tagN[r])) return false;
    if (organizers && !any(organizers, o + catN[r] + tagN[r], orgN[r])) return false;
    return true;
  };
}
