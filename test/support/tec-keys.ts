// TEC's record keys in emission order, transcribed from the contract (shared tec-contract.md §2.1–2.3, §2.6) for the
// tests: answers must start with these, in this order. Kept apart from src/ so the tests check the code, not echo it.

/** §2.1 get_event_data: `json_ld` in single reads only. */
export const TEC_EVENT = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'custom_fields',
  'json_ld',
] as const;

/** §2.2 get_venue_data: empty keys dropped (PHP's array_filter), then the flags and the global ids appended. */
export const TEC_VENUE = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'venue',
  'description',
  'excerpt',
  'slug',
  'image',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'geo_lat',
  'geo_lng',
  'json_ld',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
] as const;

/** §2.3 get_organizer_data. */
export const TEC_ORGANIZER = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'organizer',
  'description',
  'excerpt',
  'slug',
  'image',
  'phone',
  'website',
  'email',
  'json_ld',
  'global_id',
  'global_id_lineage',
] as const;

/**
 * §2.6 the terms controller's item with `link` renamed `url` (Post_Repository::prepare_term_data sets the new key and
 * unsets the old, so `url` follows `meta`), then `urls`; `parent` for categories only.
 */
export const TEC_CATEGORY = [
  'id',
  'count',
  'description',
  'name',
  'slug',
  'taxonomy',
  'parent',
  'meta',
  'url',
  'urls',
];
export const TEC_TAG = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'];

/** §2.6 a term embedded in an event: `(array) WP_Term`, `term_id` renamed `id`, then `urls`. */
export const TEC_EMBEDDED_TERM = [
  'name',
  'slug',
  'term_group',
  'term_taxonomy_id',
  'taxonomy',
  'description',
  'parent',
  'count',
  'filter',
  'id',
  'urls',
];

export const TEC_KEYS_OF = {
  event: TEC_EVENT,
  venue: TEC_VENUE,
  organizer: TEC_ORGANIZER,
  categories: TEC_CATEGORY,
  tags: TEC_TAG,
} as const;

/** Whether `keys` appear in `order` in the same order (some of `order` may be missing). */
export function inOrder(keys: readonly string[], order: readonly string[]): boolean {
  let at = 0;
  for (const k of keys) {
    const i = order.indexOf(k, at);
    if (i < 0) return false;
    at = i + 1;
  }
  return true;
}
