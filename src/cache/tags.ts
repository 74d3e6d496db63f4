// Invalidation tags of a response body: what records it shows (events, venues, organizers, terms) and which lists.
type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const idOf = (v: unknown): number | undefined => {
  if (!isObj(v)) return undefined;
  const id = v.id;
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
};
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

export const tag = {
  list: (kind: string) => `list:${kind}`,
  event: (id: number) => `event:${id}`,
  venue: (id: number) => `venue:${id}`,
  organizer: (id: number) => `organizer:${id}`,
  term: (taxonomy: string, id: number) => `term:${taxonomy}:${id}`,
};

/** The kind of record a route serves, from its contract id (`events.list` → `event`). */
export const kindOfRoute = (route: string): string =>
  route.split('.')[0]!.replace(/ies$/, 'y').replace(/s$/, '');

function termTags(terms: unknown, out: Set<string>): void {
  for (const t of asList(terms)) {
    const id = idOf(t);
    const tax = isObj(t) ? t.taxonomy : undefined;
    if (id !== undefined && typeof tax === 'string') out.add(tag.term(tax, id));
  }
}

function linkedTags(kind: 'venue' | 'organizer', value: unknown, out: Set<string>): void {
  for (const v of asList(value)) {
    const id = idOf(v);
    if (id !== undefined) out.add(kind === 'venue' ? tag.venue(id) : tag.organizer(id));
  }
}

/** Tags of one record in the contract's shapes (event, venue, organizer or term). */
export function recordTags(record: unknown, out: Set<string> = new Set()): Set<string> {
  const id = idOf(record);
  if (id === undefined || !isObj(record)) return out;
  if ('start_date' in record || 'all_day' in record) {
    out.add(tag.event(id));
    linkedTags('venue', record.venue, out);
    linkedTags('organizer', record.organizer, out);
    termTags(record.categories, out);
    termTags(record.tags, out);
  } else if (typeof record.venue === 'string') {
    out.add(tag.venue(id));
  } else if (typeof record.organizer === 'string') {
    out.add(tag.organizer(id));
  } else if (typeof record.taxonomy === 'string') {
    out.add(tag.term(record.taxonomy, id));
  }
  return out;
}

const LISTS: Record<string, string> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'term',
  tags: 'term',
};

/**
 * Tags of a whole response body. A list response (`{events: [...]}`) gets its list tag plus every record's tags, so
 * a change to any event shown, or any new event, drops it; a single record gets only its own tags (a new event does
 * not change another event's page). A body with no record in it falls back to the route kind's list tag.
 */
export function tagsOfBody(route: string, body: unknown): string[] {
  const out = new Set<string>();
  if (isObj(body)) {
    let listed = false;
    for (const [field, kind] of Object.entries(LISTS)) {
      const v = body[field];
      if (Array.isArray(v) && !('id' in body)) {
        listed = true;
        out.add(tag.list(kind));
        // Venue, organizer and term lists depend on events too (counts, `only_with_upcoming`, `event` filters).
        if (kind !== 'event') out.add(tag.list('event'));
        for (const r of v) recordTags(r, out);
      }
    }
    if (!listed) recordTags(body, out);
  }
  if (out.size === 0) out.add(tag.list(kindOfRoute(route)));
  return [...out].sort();
}
