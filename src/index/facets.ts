// An event's facets: the few mapped values list queries filter, sort and search on, read from a wp/v2 post.
import { eventRecord } from '../contract/records.ts';
import { readField, wpFieldsOf } from '../mapping/codec.ts';
import type { EventFieldName, FieldSource, Mapping } from '../mapping/schema.ts';
import { blanksOf } from '../serialize/protect.ts';
import { plainText } from '../text/plain.ts';
import type { WpPost } from '../wp/types.ts';
import { type RepeatFacets, repeatOf } from './occurrences/repeat.ts';

export interface EventFacets {
  id: number;
  status: string;
  slug: string;
  /** Plain text (tags stripped, entities decoded). */
  title: string;
  /** Event-local wall clock `Y-m-d H:i:s` as stored; `''` when the event has none. */
  start: string;
  end: string;
  /** UTC `Y-m-d H:i:s` when the mapping stores it (TEC does), else null. */
  startUtc: string | null;
  endUtc: string | null;
  categories: number[];
  tags: number[];
  venue: number | null;
  organizers: number[];
  featured: boolean;
  /** `hide_from_listings`: never appears in lists. */
  hidden: boolean;
  sticky: boolean;
  allDay: boolean;
  /** Parent post id, 0 for none. */
  parent: number;
  /** Has a post password. */
  protected: boolean;
  author: number;
  /** Publication date, site-local `Y-m-d H:i:s`. */
  date: string;
  modifiedGmt: string;
  /** Whether an excerpt is stored (wp/v2's view context invents one from the content; TEC shows none). */
  hasExcerpt: boolean;
  /** Title, excerpt and content as plain lower-cased text, one per line; a protected event's title alone. */
  searchText: string;
  /** A series (it carries a rule) or an override (it replaces one occurrence of a series): never listed as itself. */
  series?: true;
  override?: true;
  /** The recurrence facets of a series or an override (src/index/occurrences/). */
  repeat?: RepeatFacets;
}

/** The mapped event fields the facets read; the index asks wp/v2 for exactly these (plus taxonomies). */
const FACET_FIELDS = [
  'title',
  'description',
  'excerpt',
  'slug',
  'status',
  'author',
  'date',
  'modified_utc',
  'password',
  'sticky',
  'parent',
  'start_date',
  'end_date',
  'utc_start_date',
  'utc_end_date',
  'all_day',
  'hide_from_listings',
  'featured',
  'venue',
  'organizer',
  'timezone',
  'recurrence',
  'series_parent',
  'recurrence_id',
] as const satisfies readonly EventFieldName[];

/** Statuses the index crawls. `trash` is allowed in the same CSV for editors; `any` would leave it out. */
export const INDEX_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

/** Statuses of an event that make it count for `has_events` (TEC: every status but draft and pending), when readable. */
export const HAS_EVENTS_STATUSES = ['publish', 'future', 'private'];
/** Every status an event can be linked in (`only_with_upcoming` counts each the caller may read). */
export const ANY_EVENT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** Statuses that exist upstream but are never listed, whatever the caller asks for. */
export const UNLISTED_STATUSES: ReadonlySet<string> = new Set(['trash', 'auto-draft', 'inherit']);

/** `_fields` for the index crawl: the facet fields of the mapping, through the codec so both agree. */
export function indexFieldsOf(mapping: Mapping): string[] {
  const all = mapping.event.fields as Record<string, FieldSource | undefined>;
  const fields: Record<string, FieldSource | undefined> = {};
  for (const name of FACET_FIELDS) fields[name] = all[name];
  const trimmed = { ...mapping, event: { ...mapping.event, fields } } as Mapping;
  // The codec adds `type` and `link`, which the index does not need.
  return wpFieldsOf(trimmed, 'event', ['date', 'modified_gmt']).filter((f) => f !== 'type' && f !== 'link');
}

/** The wp/v2 query that crawls events for the index (`context=edit` shows raw text and passwords). */
export function indexQueryOf(mapping: Mapping): Record<string, string> {
  return {
    context: 'edit',
    status: INDEX_STATUSES.join(','),
    _fields: indexFieldsOf(mapping).join(','),
    orderby: 'id',
    order: 'asc',
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const bool = (v: unknown): boolean => v === true;
const ids = (v: unknown): number[] =>
  Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];

/** The facets of one event post (fetched with `context=edit` and the index `_fields`). */
export function facetsOf(post: WpPost, mapping: Mapping): EventFacets {
  const f = mapping.event.fields;
  const read = (src: FieldSource | undefined) => readField(post, src);
  const title = plainText(str(read(f.title))).trim();
  const excerpt = plainText(str(read(f.excerpt)));
  const content = plainText(str(read(f.description)));
  const sticky = read(f.sticky);
  const venue = read(f.venue);
  const { categories, tags } = mapping.event;
  const start = str(read(f.start_date));
  const end = str(read(f.end_date));
  const startUtc = str(read(f.utc_start_date)) || null;
  const endUtc = str(read(f.utc_end_date)) || null;
  const allDay = bool(read(f.all_day));
  const repeat = repeatOf({
    recurrence: read(f.recurrence),
    seriesParent: read(f.series_parent),
    recurrenceId: read(f.recurrence_id),
    start,
    end,
    startUtc,
    endUtc,
    timezone: str(read(f.timezone)),
    allDay,
  });
  return {
    id: post.id,
    status: str(read(f.status)) || str(post.status),
    slug: str(read(f.slug)),
    title,
    start,
    end,
    startUtc,
    endUtc,
    categories: categories ? ids(post[categories.restBase]) : [],
    tags: tags ? ids(post[tags.restBase]) : [],
    venue: typeof venue === 'number' ? venue : null,
    organizers: ids(read(f.organizer)),
    featured: bool(read(f.featured)),
    hidden: bool(read(f.hide_from_listings)),
    // Sticky is stored as `menu_order = -1` by TEC; a boolean meta on other sites.
    sticky: typeof sticky === 'number' ? sticky < 0 : bool(sticky),
    allDay,
    parent: Number(read(f.parent)) || 0,
    protected: str(read(f.password)) !== '',
    author: Number(read(f.author)) || 0,
    date: str(read(f.date)),
    modifiedGmt: str(read(f.modified_utc)) || str(read({ post: 'modified_gmt' })),
    hasExcerpt: excerpt.trim() !== '',
    searchText: searchTextOf({ title, excerpt, description: content }, str(read(f.password)) !== ''),
    ...(repeat?.rule ? { series: true as const, repeat } : repeat ? { override: true as const, repeat } : {}),
  };
}

/** The event fields a search reads, in the order of the search text's lines. */
const SEARCHED = ['title', 'excerpt', 'description'] as const;
const BLANKED = blanksOf(eventRecord);

/**
 * Title, excerpt and content, lower-cased, one per line (so no word spans two of them). A protected event keeps only
 * the fields its password does not blank (the title): no list shows the others to anyone (wp/v2's view context
 * blanks them even for editors), so no search may match them (SECURITY.md).
 */
export function searchTextOf(texts: Record<(typeof SEARCHED)[number], string>, isProtected: boolean): string {
  return SEARCHED.filter((k) => !isProtected || !BLANKED.has(k))
    .map((k) => texts[k])
    .join('\n')
    .toLowerCase();
}
