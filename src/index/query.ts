// Answers an event list query from facets (tec-contract.md §4): filter, order, count and cut one page. Pure.
import type { DateFilter } from '../dates/index.ts';
import { type EventFacets, UNLISTED_STATUSES } from './facets.ts';

/** Site-local wall-clock bounds (`Y-m-d H:i:s`), compared as strings: the list window of src/dates. */
export type DateBounds = DateFilter;

/**
 * One list query. Lists are OR within themselves and AND between each other; an absent or empty list does not
 * filter (as WordPress ignores an empty `post__in`). `statuses` and `categories` come resolved by the caller.
 */
export interface IndexQuery {
  /** Statuses listed whoever wrote the event. */
  statuses: string[];
  /**
   * Statuses listed only for events written by `author` (a contributor's own drafts, an author's own private
   * events: WordPress needs `edit_others_posts` / `read_private_posts` for everyone else's).
   */
  ownStatuses?: string[];
  author?: number;
  /**
   * Whether a search may match password-protected events. WordPress leaves them out of search for logged-out
   * callers (`WP_Query::parse_search`), so the safe default is no.
   */
  searchesProtected?: boolean;
  /**
   * The password-protected events this caller sees in full (their venue, organizers, terms, featured flag): every
   * list shows the others with those fields blanked, so a filter on them, or an answer built from them
   * (`readsLinks`), matches a protected event only when it is one of these. Absent: none.
   */
  seesProtected?: SeesProtected;
  /** The answer depends on the events' venue and organizers (`has_events`, `only_with_upcoming`). */
  readsLinks?: boolean;
  /** Only password-protected events (the ones a `password` is then tried at). */
  protectedOnly?: boolean;
  dates?: DateBounds;
  search?: string;
  categories?: number[];
  tags?: number[];
  venue?: number[];
  /**
   * Geolocation (src/geo/): only events whose venue is in `venueIn` (an empty set: none), none of `venueNotIn`
   * (events without a venue pass). Both read the venue, which a password blanks.
   */
  venueIn?: ReadonlySet<number>;
  venueNotIn?: ReadonlySet<number>;
  /**
   * `orderby=distance` (src/geo/): the list ordered by its events' venues' distance in km (this map's), nearest
   * first, then in its own order (start and id, or publication date with `include`); events at a venue not in the
   * map come last. Paged and counted as any list is.
   */
  nearest?: ReadonlyMap<number, number>;
  organizer?: number[];
  featured?: boolean;
  include?: number[];
  parent?: number;
  /**
   * Which rows: every event as itself (`all`, the default), the one-offs only (`single`: no series, no override),
   * the series only, or the overrides only (src/index/occurrences/ lists a series' occurrences, never the row).
   */
  rows?: 'all' | 'single' | 'series' | 'override';
  /** Lists of occurrences (src/index/occurrences/list.ts; the columns ignore these): one series' occurrences only. */
  series?: number;
  /** Lists of occurrences: only the first occurrence of each series in the window (`hide_subsequent_recurrences`). */
  firstOnly?: boolean;
  page: number;
  perPage: number;
}

/**
 * Who sees a protected event in full: whoever may edit it (WordPress opens it in edit context: `all` for those who
 * may edit anyone's events, `own` the author id of one who may edit their own published ones), and whoever gave
 * its password (`ids`, the events WordPress opened with it).
 */
export interface SeesProtected {
  all?: boolean;
  own?: number;
  ids?: readonly number[];
}

/** Whether a query reads a field a post password blanks: then it matches protected events only as seen. */
export const readsBlanked = (q: Omit<IndexQuery, 'page' | 'perPage'>): boolean =>
  !!(
    q.venue?.length ||
    q.organizer?.length ||
    q.categories?.length ||
    q.tags?.length ||
    q.featured !== undefined ||
    q.venueIn !== undefined ||
    q.venueNotIn !== undefined ||
    q.readsLinks
  );

/** Whether the caller sees this event's blanked fields (always, for an event without a password). */
export function seenInFull(
  s: SeesProtected | undefined,
  f: { id: number; protected: boolean; author: number },
): boolean {
  if (!f.protected || s?.all) return true;
  if (!s) return false;
  return (s.own !== undefined && s.own !== 0 && f.author === s.own) || (s.ids?.includes(f.id) ?? false);
}

export interface IndexResult {
  ids: number[];
  total: number;
  totalPages: number;
}

/** WordPress's search stopwords (English; `WP_Query::get_search_stopwords`). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  'about,an,are,as,at,be,by,com,for,from,how,in,is,it,of,on,or,that,the,this,to,was,what,when,where,who,will,with,www'.split(
    ',',
  ),
);

export interface SearchTerm {
  /** Lower-cased text that must (or, excluded, must not) occur. */
  text: string;
  exclude: boolean;
}

/**
 * Splits a search string as `WP_Query::parse_search` does: quoted phrases kept, single letters, lone dashes and
 * stopwords dropped, the whole string used as one term when nothing is left or more than 9 terms remain, and a
 * leading `-` turning a term into an exclusion.
 */
export function parseSearch(search: string): SearchTerm[] {
  const s = search.replace(/[\r\n]/g, '');
  const matches = s.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g);
  let terms: string[] = [];
  if (matches) {
    for (const m of matches) {
      const term = /^".+"$/.test(m) ? trimChars(m, `"'`) : trimChars(m, `"' `);
      if (!term || (term.length === 1 && /^[a-z-]$/i.test(term))) continue;
      if (STOPWORDS.has(term.toLowerCase())) continue;
      terms.push(term);
    }
  }
  if (terms.length === 0 || terms.length > 9) terms = [s];
  return terms.map((t) =>
    t.startsWith('-')
      ? { text: t.slice(1).toLowerCase(), exclude: true }
      : { text: t.toLowerCase(), exclude: false },
  );
}

function trimChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a])) a++;
  while (b > a && chars.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

/** Every term occurs (every excluded term does not), case-insensitively, in the facets' search text. */
export function matchesSearch(f: EventFacets, terms: readonly SearchTerm[]): boolean {
  for (const t of terms) {
    if (f.searchText.includes(t.text) === t.exclude) return false;
  }
  return true;
}

/** Order of event lists: start ASC, then id ASC. */
export const byStart = (a: EventFacets, b: EventFacets): number =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id;

/** Order of `include` lists: publication date ASC, then id ASC. */
export const byDate = (a: EventFacets, b: EventFacets): number =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id;

const anyOf = (wanted: Set<number> | null, have: readonly number[]): boolean => {
  if (!wanted) return true;
  for (const id of have) if (wanted.has(id)) return true;
  return false;
};

const setOf = (list: readonly number[] | undefined): Set<number> | null =>
  list && list.length > 0 ? new Set(list) : null;

/** Whether an event is of the kind of rows a query lists. */
function ofKind(rows: IndexQuery['rows'], f: EventFacets): boolean {
  if (rows === undefined || rows === 'all') return true;
  if (rows === 'series') return f.series === true;
  if (rows === 'override') return f.override === true;
  return !f.series && !f.override;
}

/** A predicate for everything but the start bounds (those are applied by binary search on the sorted array). */
export function compileFilter(q: IndexQuery): (f: EventFacets) => boolean {
  const statuses = new Set(q.statuses.filter((s) => !UNLISTED_STATUSES.has(s)));
  const own = new Set((q.author ? (q.ownStatuses ?? []) : []).filter((s) => !UNLISTED_STATUSES.has(s)));
  const listed = (f: EventFacets): boolean =>
    statuses.has(f.status) || (own.has(f.status) && f.author === q.author);
  const d = q.dates ?? {};
  const terms = q.search !== undefined && q.search !== '' ? parseSearch(q.search) : null;
  const categories = setOf(q.categories);
  const tags = setOf(q.tags);
  const venues = setOf(q.venue);
  const organizers = setOf(q.organizer);
  const include = setOf(q.include);
  const blanked = readsBlanked(q);
  return (f) => {
    if (f.hidden || !listed(f) || !ofKind(q.rows, f)) return false;
    if (blanked && !seenInFull(q.seesProtected, f)) return false;
    if (q.protectedOnly && !f.protected) return false;
    if (include && !include.has(f.id)) return false;
    // An event without a date never satisfies a bound on that date.
    if (d.startGte !== undefined && !(f.start !== '' && f.start >= d.startGte)) return false;
    if (d.startGt !== undefined && !(f.start !== '' && f.start > d.startGt)) return false;
    if (d.startLt !== undefined && !(f.start !== '' && f.start < d.startLt)) return false;
    if (d.endLte !== undefined && !(f.end !== '' && f.end <= d.endLte)) return false;
    if (d.endLt !== undefined && !(f.end !== '' && f.end < d.endLt)) return false;
    if (d.endGt !== undefined && !(f.end !== '' && f.end > d.endGt)) return false;
    if (q.featured !== undefined && f.featured !== q.featured) return false;
    if (q.parent !== undefined && f.parent !== q.parent) return false;
    if (!anyOf(categories, f.categories) || !anyOf(tags, f.tags) || !anyOf(organizers, f.organizers))
      return false;
    if (venues && (f.venue === null || !venues.has(f.venue))) return false;
    if (q.venueIn && (f.venue === null || !q.venueIn.has(f.venue))) return false;
    if (q.venueNotIn && f.venue !== null && q.venueNotIn.has(f.venue)) return false;
    if (terms === null) return true;
    return (!f.protected || q.searchesProtected === true) && matchesSearch(f, terms);
  };
}

/** First index whose start is not below `value` (`strict`: above it). */
function lowerBound(sorted: readonly EventFacets[], value: string, strict: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = sorted[mid].start;
    if (strict ? s <= value : s < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The [from, to) slice of a start-sorted array that the start bounds allow. */
function startRange(sorted: readonly EventFacets[], d: DateBounds): [number, number] {
  let from = 0;
  let to = sorted.length;
  if (d.startGte !== undefined) from = Math.max(from, lowerBound(sorted, d.startGte, false));
  if (d.startGt !== undefined) from = Math.max(from, lowerBound(sorted, d.startGt, true));
  if (d.startLt !== undefined) to = Math.min(to, lowerBound(sorted, d.startLt, false));
  return [from, Math.max(from, to)];
}

function page(matches: EventFacets[], q: IndexQuery): IndexResult {
  const km = q.nearest;
  // Nearest first; a stable sort keeps the list's own order between events at the same distance.
  if (km) {
    const of = (f: EventFacets) =>
      (f.venue === null ? undefined : km.get(f.venue)) ?? Number.POSITIVE_INFINITY;
    matches.sort((a, b) => {
      const x = of(a);
      const y = of(b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  const total = matches.length;
  const perPage = Math.max(1, Math.floor(q.perPage));
  const offset = (Math.max(1, Math.floor(q.page)) - 1) * perPage;
  return {
    ids: matches.slice(offset, offset + perPage).map((f) => f.id),
    total,
    totalPages: Math.ceil(total / perPage),
  };
}

/**
 * The query over facets already sorted by {@link byStart}: one pass over the part of the array the start bounds
 * allow (found by binary search), so O(log n + range).
 */
export function querySorted(sorted: readonly EventFacets[], q: IndexQuery): IndexResult {
  const keep = compileFilter(q);
  const matches: EventFacets[] = [];
  if (q.include && q.include.length > 0) {
    // `include` switches the order to publication date (TEC sets `post__in` and orders by date).
    const wanted = new Set(q.include);
    for (const f of sorted) if (wanted.has(f.id) && keep(f)) matches.push(f);
    matches.sort(byDate);
    return page(matches, q);
  }
  const [from, to] = startRange(sorted, q.dates ?? {});
  for (let i = from; i < to; i++) if (keep(sorted[i])) matches.push(sorted[i]);
  return page(matches, q);
}

/** Answers a list query over any collection of facets (sorts a copy first). */
export function queryIndex(facets: Iterable<EventFacets>, q: IndexQuery): IndexResult {
  return querySorted([...facets].sort(byStart), q);
}
