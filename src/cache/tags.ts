// Invalidation tags: which records (events, venues, organizers, terms) and which lists an answer shows. The route
// says what its answers are (`Shows`: records of one kind, as a list or one record); nothing is guessed from a
// body's shape.
import { nextSlice as nextTurn } from '../pace/turns.ts';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const idOf = (v: unknown): number | undefined => {
  if (!isObj(v)) return undefined;
  const id = v.id;
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
};
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
/** The ids of one linked record or a list of them (an event's `venue`, `organizer`). */
const idsOf = (v: unknown): number[] => asList(v).flatMap((x) => idOf(x) ?? []);

export const tag = {
  list: (kind: string) => `list:${kind}`,
  /** Lists of `kind` whose answer follows which records events link to (`has_events`, counts, `hide_empty`). */
  links: (kind: string) => `links:${kind}`,
  event: (id: number) => `event:${id}`,
  venue: (id: number) => `venue:${id}`,
  organizer: (id: number) => `organizer:${id}`,
  term: (taxonomy: string, id: number) => `term:${taxonomy}:${id}`,
  /** An attachment shown as an `image` (an event's, or its venue's or organizer's). */
  media: (id: number) => `media:${id}`,
};

export type TaggedKind = 'event' | 'venue' | 'organizer' | 'term';

/** What a route's answers show: records of `kind`, listed under `list` in a list answer, else one record. */
export interface Shows {
  kind: TaggedKind;
  list?: string;
}

/** The kind of record a route serves, from its contract id (`events.list` → `event`): the tag of last resort. */
export const kindOfRoute = (route: string): string =>
  route.split('.')[0]!.replace(/ies$/, 'y').replace(/s$/, '');

function termTags(terms: unknown, out: Set<string>): void {
  for (const t of asList(terms)) {
    const id = idOf(t);
    const tax = isObj(t) ? t.taxonomy : undefined;
    if (id !== undefined && typeof tax === 'string') out.add(tag.term(tax, id));
  }
}

/** The attachment a record shows as its `image` (TEC's image object has its id; `false` without one). */
function imageTag(r: unknown, out: Set<string>): void {
  const id = isObj(r) ? idOf(r.image) : undefined;
  if (id !== undefined) out.add(tag.media(id));
}

/** The tags of one record of each kind: itself, its image, and for an event what it links to. */
const RECORD_TAGS: Record<TaggedKind, (record: Json, id: number, out: Set<string>) => void> = {
  event: (r, id, out) => {
    out.add(tag.event(id));
    // An occurrence or an override shows its series' rule (and an occurrence its fields): it follows the series.
    const series = r.series_id;
    if (typeof series === 'number' && Number.isInteger(series) && series !== id) out.add(tag.event(series));
    imageTag(r, out);
    for (const id of idsOf(r.venue)) out.add(tag.venue(id));
    for (const id of idsOf(r.organizer)) out.add(tag.organizer(id));
    for (const linked of [...asList(r.venue), ...asList(r.organizer)]) imageTag(linked, out);
    termTags(r.categories, out);
    termTags(r.tags, out);
  },
  venue: (r, id, out) => {
    out.add(tag.venue(id));
    imageTag(r, out);
  },
  organizer: (r, id, out) => {
    out.add(tag.organizer(id));
    imageTag(r, out);
  },
  term: (r, id, out) => {
    if (typeof r.taxonomy === 'string') out.add(tag.term(r.taxonomy, id));
  },
};

/** Adds one record's tags to `out` (a feed adds each event's as it renders it: src/events/feed.ts). */
export function recordTags(kind: TaggedKind, record: unknown, out: Set<string>): void {
  const id = idOf(record);
  if (id !== undefined && isObj(record)) RECORD_TAGS[kind](record, id, out);
}

/** A request's integer argument (`event=12`), or undefined. */
const intArg = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/**
 * What, besides the records it shows, a list of linked records depends on, from its parsed arguments (the cache
 * key's): venue and organizer lists follow events' links only when filtered by them (`has_events`,
 * `only_with_upcoming`); term lists always (each term's `count`, and `hide_empty` on by default). An `event`/`post`
 * filter follows that event.
 */
function linkedListTags(shows: Shows, params: Record<string, unknown>, out: Set<string>): void {
  const kind = shows.kind;
  if (kind === 'event') return;
  // Categories and tags follow the events' terms of their own taxonomy (src/cache/links.ts).
  if (kind === 'term') out.add(tag.links(shows.list === 'tags' ? 'tag' : 'category'));
  // `has_events=0` filters by links too (venues with no event); `only_with_upcoming` is parsed with its default,
  // false, which filters nothing.
  else if (params.has_events !== undefined || (params.only_with_upcoming ?? false) !== false)
    out.add(tag.links(kind));
  for (const name of ['event', 'post']) {
    const id = intArg(params[name]);
    if (id !== undefined) out.add(tag.event(id));
  }
}

/**
 * Tags of a read's answer. A list gets its list tag and every record's tags, so a change to any record shown, or
 * any new one, drops it; a venue, organizer or term list gets what its arguments make it depend on besides (see
 * `linkedListTags`), and never the event list's tag: an event write drops it only when it changes what it shows
 * (src/cache/links.ts). One record gets only its own tags (a new event does not change another event's page).
 */
export function readTags(shows: Shows, body: unknown, params: Record<string, unknown> = {}): string[] {
  const out = new Set<string>();
  if (shows.list !== undefined) {
    out.add(tag.list(shows.kind));
    linkedListTags(shows, params, out);
    for (const r of asList(isObj(body) ? body[shows.list] : undefined)) recordTags(shows.kind, r, out);
  } else {
    recordTags(shows.kind, body, out);
  }
  return [...out].sort();
}

/** Records whose tags are read between two turns of the event loop (a feed shows thousands; a page, up to 100). */
const TAGS_SLICE = 250;

/** `readTags` of a list, a slice of its records at a time between turns of the event loop. */
async function readTagsInSlices(
  shows: Shows & { list: string },
  body: unknown,
  params: Record<string, unknown>,
): Promise<string[]> {
  const records = asList(isObj(body) ? body[shows.list] : undefined);
  const out = new Set(readTags(shows, { [shows.list]: records.slice(0, TAGS_SLICE) }, params));
  for (let i = TAGS_SLICE; i < records.length; i += TAGS_SLICE) {
    await nextTurn();
    for (const r of records.slice(i, i + TAGS_SLICE)) recordTags(shows.kind, r, out);
  }
  return [...out].sort();
}

/**
 * Tags a write touched: the list of its kind and the written record itself. An event's venue, organizers and terms
 * are not: their own pages do not show events. What an event write changes in the linked lists comes from the
 * event index (`links:*`, src/cache/links.ts), and nested records a write creates drop their own tags.
 */
export function writeTags(kind: TaggedKind, body: unknown): string[] {
  const out = new Set<string>([tag.list(kind)]);
  const id = idOf(body);
  if (id !== undefined && isObj(body)) {
    if (kind === 'event') out.add(tag.event(id));
    else RECORD_TAGS[kind](body, id, out);
  }
  return [...out].sort();
}

/** The contract's word for what a route returns, as the tags see it (categories and tags are terms). */
export function showsOf(returns: { record: { kind: string }; list?: string } | undefined): Shows | undefined {
  if (!returns) return undefined;
  const kind = returns.record.kind;
  return {
    kind: (kind === 'categories' || kind === 'tags' ? 'term' : kind) as TaggedKind,
    list: returns.list,
  };
}

/**
 * The tags of an answer of a route: what a read showed, or what a write touched, from what the contract says the
 * route returns. A route that says nothing is dropped with its kind's list.
 */
export function answerTags(
  contract: { id: string; returns?: { record: { kind: string }; list?: string } },
  write: boolean,
  body: unknown,
  params: Record<string, unknown> = {},
): string[] {
  const shows = showsOf(contract.returns);
  if (!shows) return [tag.list(kindOfRoute(contract.id))];
  return write ? writeTags(shows.kind, body) : readTags(shows, body, params);
}

/** The tags of a read's answer (`answerTags`), a list of thousands made over several turns of the event loop. */
export async function readAnswerTags(
  contract: { id: string; returns?: { record: { kind: string }; list?: string } },
  body: unknown,
  params: Record<string, unknown> = {},
): Promise<string[]> {
  const shows = showsOf(contract.returns);
  if (shows?.list === undefined) return answerTags(contract, false, body, params);
  return readTagsInSlices(shows as Shows & { list: string }, body, params);
}
