// A list of one item per occurrence (issue 31): the one-off events the column query gives, merged with the
// occurrences of the series that match every filter but the dates, in the usual order (start, then id), paged and
// counted. Series and override rows are never listed as themselves: an override the caller may see replaces its
// occurrence (listed where it now is, when it matches the query), an EXDATE removes one.
import { occurrenceId } from '../../recurrence/ids.ts';
import type { EventColumns } from '../columns/index.ts';
import type { IndexedEvent } from '../columns/rows.ts';
import type { IndexQuery, IndexResult } from '../query.ts';
import { floatOfBound, floatOfKey, floatOfWall, lowerIndex } from './expand.ts';
import type { OccurrenceStore, Series, Window } from './store.ts';
import {
  goneOf,
  itemOf,
  type ListItem,
  pageOf,
  type Selection,
  seriesIn,
  walkFirsts,
  walkPage,
} from './walk.ts';

/** What the list reads of an event index. */
export interface OccurrenceIndex {
  query(q: IndexQuery): IndexResult;
  get(id: number): IndexedEvent | undefined;
  readonly repeats: OccurrenceStore;
  readonly version: number;
  /**
   * An event's start as a wall-clock key, and whether a series of a status and flag bits is listed by a query (1)
   * when status and flags alone decide it (null when the query filters on more: terms, venue, an author's own).
   */
  columnsNow(): Pick<EventColumns, 'startKeyOf' | 'listedBy'>;
}

export type { ListItem } from './walk.ts';

export interface ListResult {
  items: ListItem[];
  total: number;
  totalPages: number;
}

const MAX = Number.MAX_SAFE_INTEGER;
const byStart = (a: ListItem, b: ListItem) => a.start - b.start || a.id - b.id;

/** Answers worked out from the whole index, cached while it does not change (the series matching a query). */
const memo = new WeakMap<OccurrenceIndex, { version: number; answers: Map<string, number[]> }>();
export function cachedIds(index: OccurrenceIndex, q: IndexQuery): number[] {
  let m = memo.get(index);
  if (!m || m.version !== index.version) {
    m = { version: index.version, answers: new Map() };
    memo.set(index, m);
  }
  const key = JSON.stringify(q);
  let ids = m.answers.get(key);
  if (!ids) {
    ids = index.query(q).ids;
    if (m.answers.size >= 64) m.answers.clear();
    m.answers.set(key, ids);
  }
  return ids;
}

/** The query's bounds on floating starts and ends. */
function boundsOf(q: IndexQuery) {
  const d = q.dates ?? {};
  return {
    sGte: floatOfBound(d.startGte),
    sGt: floatOfBound(d.startGt),
    sLt: floatOfBound(d.startLt),
    eLte: floatOfBound(d.endLte),
    eLt: floatOfBound(d.endLt),
    eGt: floatOfBound(d.endGt),
  };
}

/**
 * How many matching series a list reads one by one (binary searches in each one's kept starts) at most; more are read
 * from the timeline. Tests set it to 0 or more than they have, to take either way.
 */
const NARROW = 64;

/**
 * The list of a query with one item per occurrence; `page`/`perPage` cut it as a list does, `series` and `firstOnly`
 * narrow it to one series, or to the first occurrence of each. Inside the kept horizon, many matching series are read
 * from the timeline of all occurrences (./walk.ts); a few, or a window outside it, series by series.
 */
export function listOccurrences(index: OccurrenceIndex, query: IndexQuery, narrow = NARROW): ListResult {
  const { series: only, firstOnly, ...q } = query;
  const o = { series: only, firstOnly };
  const perPage = Math.max(1, Math.floor(q.perPage));
  const offset = (Math.max(1, Math.floor(q.page)) - 1) * perPage;
  const want = offset + perPage;
  const done = (items: ListItem[], total: number): ListResult => ({
    items: items.sort(byStart).slice(offset, offset + perPage),
    total,
    totalPages: Math.ceil(total / perPage),
  });
  // `include` names posts (in publication order): the one-offs among them, no occurrence.
  if (q.include?.length || index.repeats.seriesCount === 0) {
    if (o.series !== undefined) return done([], 0);
    const r = index.query({ ...q, rows: 'single' });
    const items = r.ids.map((id) => ({ id, post: id, start: 0 }));
    return { items, total: r.total, totalPages: r.totalPages };
  }
  const store = index.repeats;
  const b = boundsOf(q);
  const lower = Math.max(b.sGte ?? -Infinity, b.sGt ?? -Infinity, (b.eGt ?? -Infinity) - store.longestMs);
  const upper = Math.min(b.sLt ?? Infinity, b.eLte ?? Infinity, b.eLt ?? Infinity);
  // Unbounded rules are expanded as far as the window: with no end, the configured months from its start.
  const to = Number.isFinite(upper) ? upper : (Number.isFinite(lower) ? lower : Date.now()) + store.windowMs;

  // The one-offs: the first `want` of them, and how many.
  const singles =
    o.series !== undefined
      ? { ids: [], total: 0 }
      : index.query({ ...q, rows: 'single', page: 1, perPage: want });
  const items: ListItem[] = [];
  for (const id of singles.ids)
    items.push({ id, post: id, start: floatOfKey(index.columnsNow().startKeyOf(id)) });

  const { replaced, moved } = overrides(index, q, o.series);
  const chosen = chosenSeries(index, q, narrow, o.series);
  const fb = { ...b, lower, to };
  if (chosen.sel && store.covers(lower, to)) {
    const sel = chosen.sel;
    const { gone, within } = goneOf(store, sel, fb, replaced);
    if (o.firstOnly) {
      const firsts = firstsOf(walkFirsts(store, sel, fb, want, gone), moved);
      const movedTo = new Set(moved.map((m) => m.occurrence?.seriesId ?? 0));
      return done([...items, ...firsts], singles.total + seriesIn(store, sel, fb, gone, movedTo));
    }
    const page = walkPage(store, sel, fb, want, gone);
    const total = singles.total + moved.length + page.total - within;
    const others = [...items, ...moved];
    // A one-off without a start (an end bound alone lets one in) sorts as the reference's sort does: all of it.
    if (others.some((i) => Number.isNaN(i.start))) {
      const all = page.secs.map((secs, k) => itemOf(store, store.atSlot(page.slots[k]) as Series, secs));
      return done([...others, ...all], total);
    }
    return {
      items: pageOf(store, others, page, offset, perPage),
      total,
      totalPages: Math.ceil(total / perPage),
    };
  }
  return bySeries(index, q, o.firstOnly, chosen.ids(), replaced, moved, items, singles.total, done);
}

/** The earliest item of each series: its first occurrence, or a moved override of it if earlier. */
function firstsOf(firsts: ListItem[], moved: ListItem[]): ListItem[] {
  const first = new Map<number, ListItem>();
  for (const f of firsts) first.set(f.occurrence?.seriesId ?? 0, f);
  for (const m of moved) {
    const s = m.occurrence?.seriesId ?? 0;
    const had = first.get(s);
    if (!had || byStart(m, had) < 0) first.set(s, m);
  }
  return [...first.values()];
}

/**
 * The series a query reads: a selection for the timeline (a class table when status and flags decide, else the set
 * of matching series when they are many), and the ids of the matching series (worked out only when asked for).
 */
function chosenSeries(
  index: OccurrenceIndex,
  q: Omit<IndexQuery, 'series' | 'firstOnly'>,
  narrow: number,
  only?: number,
) {
  const { dates: _d, page: _p, perPage: _pp, include: _i, ...undated } = q;
  const ids = (): number[] =>
    only !== undefined
      ? index.query({ ...undated, rows: 'series', include: [only], page: 1, perPage: 1 }).ids
      : cachedIds(index, { ...undated, rows: 'series', page: 1, perPage: MAX });
  if (only !== undefined) return { sel: null, ids };
  const store = index.repeats;
  const listed = q.search
    ? null
    : index.columnsNow().listedBy({ ...undated, rows: 'series', page: 1, perPage: 1 });
  if (listed) {
    const pass = new Uint8Array(store.classStatus.length);
    const classes: number[] = [];
    for (let c = 0; c < pass.length; c++) {
      pass[c] = listed(store.classStatus[c], store.classFlags[c]) === 1 ? 1 : 0;
      if (pass[c] === 1) classes.push(c);
    }
    return { sel: { pass, listed: classes, inS: null } as Selection, ids };
  }
  const list = ids();
  if (list.length <= narrow) return { sel: null, ids: () => list };
  return { sel: setSelection(store, list), ids: () => list };
}

/** The slots of a set of series as bytes, and its block counts, kept while the set (a cached answer) is the same. */
const sets = new WeakMap<number[], Selection>();
function setSelection(store: OccurrenceStore, ids: number[]): Selection {
  let sel = sets.get(ids);
  if (!sel) {
    const inS = new Uint8Array(store.slots);
    for (const id of ids) {
      const s = store.series(id);
      if (s) inS[s.slot] = 1;
    }
    sel = { pass: null, listed: null, inS };
    sets.set(ids, sel);
  }
  return sel;
}

/** The overrides the caller sees: the originals they replace by series, and those listed where they now are. */
function overrides(index: OccurrenceIndex, q: Omit<IndexQuery, 'series' | 'firstOnly'>, only?: number) {
  const store = index.repeats;
  const replaced = new Map<number, number[]>();
  const moved: ListItem[] = [];
  if (store.overrideCount === 0) return { replaced, moved };
  const all = store.overrideIds();
  const seen = index.query({ ...statusOnly(q), rows: 'override', include: all, page: 1, perPage: MAX }).ids;
  if (seen.length === 0) return { replaced, moved };
  for (const id of seen) {
    const r = store.get(id);
    if (r?.seriesParent === undefined || r.originalStartMs === undefined) continue;
    const list = replaced.get(r.seriesParent);
    if (list) list.push(r.originalStartMs);
    else replaced.set(r.seriesParent, [r.originalStartMs]);
  }
  // The overrides listed: those matching the query themselves, of a series the caller may read, still replacing
  // an occurrence of it.
  const listed = index.query({ ...q, include: seen, rows: 'override', page: 1, perPage: MAX }).ids;
  if (listed.length === 0) return { replaced, moved };
  const parents = [...new Set(listed.map((id) => store.get(id)?.seriesParent ?? 0))];
  const readable = new Set(
    index.query({ ...statusOnly(q), rows: 'series', include: parents, page: 1, perPage: MAX }).ids,
  );
  for (const id of listed) {
    const r = store.get(id);
    const parent = r?.seriesParent;
    if (parent === undefined || r?.originalStartMs === undefined || !readable.has(parent)) continue;
    if (only !== undefined && parent !== only) continue;
    if (!store.occursAt(parent, r.originalStartMs)) continue;
    const occ = occurrenceId({ seriesId: parent, originalStartMs: r.originalStartMs });
    if (occ === undefined) continue;
    const start = floatOfWall(index.get(id)?.start ?? '');
    moved.push({
      id: occ,
      post: id,
      start,
      occurrence: { seriesId: parent, originalStartMs: r.originalStartMs, overrideId: id },
    });
  }
  return { replaced, moved };
}

/** The list read series by series: each matching series' occurrences in the window, by binary search. */
function bySeries(
  index: OccurrenceIndex,
  q: Omit<IndexQuery, 'series' | 'firstOnly'>,
  firstOnly: boolean | undefined,
  series: number[],
  replaced: Map<number, number[]>,
  moved: ListItem[],
  items: ListItem[],
  singleTotal: number,
  done: (items: ListItem[], total: number) => ListResult,
): ListResult {
  const store = index.repeats;
  const b = boundsOf(q);
  const perPage = Math.max(1, Math.floor(q.perPage));
  const want = (Math.max(1, Math.floor(q.page)) - 1) * perPage + perPage;
  const lower = Math.max(b.sGte ?? -Infinity, b.sGt ?? -Infinity, (b.eGt ?? -Infinity) - store.longestMs);
  const upper = Math.min(b.sLt ?? Infinity, b.eLte ?? Infinity, b.eLt ?? Infinity);
  const to = Number.isFinite(upper) ? upper : (Number.isFinite(lower) ? lower : Date.now()) + store.windowMs;
  const ranges: { id: number; w: Window; lo: number; hi: number; gone: number[] }[] = [];
  let total = singleTotal + moved.length;
  for (const id of series) {
    const r = store.get(id);
    if (!r) continue;
    const dur = r.durationMs;
    const w = store.window(id, lower, to);
    const s = w.occ.starts;
    let lo = w.lo;
    let hi = w.hi;
    if (b.sGt !== undefined) lo = lowerIndex(s, b.sGt, true, lo, hi);
    if (b.eGt !== undefined) lo = lowerIndex(s, b.eGt - dur, true, lo, hi);
    if (b.sLt !== undefined) hi = lowerIndex(s, b.sLt, false, lo, hi);
    if (b.eLte !== undefined) hi = lowerIndex(s, b.eLte - dur, true, lo, hi);
    if (b.eLt !== undefined) hi = lowerIndex(s, b.eLt - dur, false, lo, hi);
    if (hi <= lo) continue;
    // Originals replaced by an override the caller sees, within the range.
    const gone: number[] = [];
    for (const ms of replaced.get(id) ?? []) {
      const at = w.occ.originals.subarray(lo, hi).indexOf(ms);
      if (at >= 0) gone.push(lo + at);
    }
    if (hi - lo - gone.length <= 0) continue;
    ranges.push({ id, w, lo, hi, gone });
    total += hi - lo - gone.length;
  }

  const itemAt = (seriesId: number, w: Window, i: number): ListItem => {
    const originalStartMs = w.occ.originals[i];
    return {
      id: occurrenceId({ seriesId, originalStartMs }) ?? 0,
      post: seriesId,
      start: w.occ.starts[i],
      occurrence: { seriesId, originalStartMs },
    };
  };
  const firstOf = (g: (typeof ranges)[number]): number => {
    let i = g.lo;
    while (g.gone.includes(i)) i++;
    return i;
  };

  if (firstOnly) {
    // One item per series: its first occurrence in the window, or its first override there if earlier.
    const firsts = firstsOf(
      ranges.map((g) => itemAt(g.id, g.w, firstOf(g))),
      moved,
    );
    return done([...items, ...firsts], singleTotal + firsts.length);
  }

  // The page: the `want`-th smallest first start bounds what can be on it; only starts up to it are collected.
  const heads = new Float64Array(ranges.length);
  for (let i = 0; i < ranges.length; i++) heads[i] = ranges[i]!.w.occ.starts[firstOf(ranges[i]!)]!;
  heads.sort();
  const limit = heads.length >= want ? heads[want - 1] : Infinity;
  for (const g of ranges) {
    if (g.w.occ.starts[firstOf(g)] > limit) continue;
    let taken = 0;
    for (let i = g.lo; i < g.hi && taken < want && g.w.occ.starts[i] <= limit; i++) {
      if (g.gone.includes(i)) continue;
      items.push(itemAt(g.id, g.w, i));
      taken++;
    }
  }
  return done([...items, ...moved], total);
}

/** The part of a query that says whose events of which statuses the caller may read. */
export const statusOnly = (q: IndexQuery) => ({
  statuses: q.statuses,
  ownStatuses: q.ownStatuses,
  author: q.author,
});
