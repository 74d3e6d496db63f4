// TEC's own keys of each record kind in its emission order, and the one way to build a descriptor: TEC's fields,
// then the gateway's additions, so a field of ours can never land among TEC's (clients check TEC's keys in order).
import type { FieldDef, RecordDescriptor } from './fields.ts';

/**
 * What TEC's PHP emits, in order (tec-contract.md §2.1–2.3, §2.6; Post_Repository::get_event_data,
 * get_venue_data, get_organizer_data, prepare_term_data). Keys TEC emits only with add-ons the gateway does not
 * reproduce (Pro's `geo_lat`, `geo_lng`) are listed at their place, so a descriptor that adds them later puts them
 * there. A term's `url` is WordPress's `link` renamed: PHP appends the new key, so it follows `meta`.
 */
export const TEC_KEYS = {
  event: [
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
  ],
  venue: [
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
  ],
  organizer: [
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
  ],
  categories: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'],
  tags: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'],
} as const satisfies Record<RecordDescriptor['kind'], readonly string[]>;

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

/**
 * A record descriptor: `tec`, TEC's own fields in its order (checked against TEC_KEYS when the module loads), then
 * `additions`, the fields the gateway adds, each a key TEC does not have. The additions come after every TEC key,
 * except that a record ending with a single-read field (the event's `json_ld`) keeps it last: TEC's lists end with
 * `custom_fields`, its single reads with `json_ld`, and ours add between the two.
 */
export function tecRecord<
  const K extends RecordDescriptor['kind'],
  const T extends readonly FieldDef[],
  const A extends readonly FieldDef[] = readonly [],
>(d: {
  kind: K;
  component: string;
  dropEmpty: boolean;
  tec: T;
  additions?: A;
}): {
  kind: K;
  component: string;
  dropEmpty: boolean;
  fields: readonly (T[number] | A[number])[];
  added: string[];
} {
  const order: readonly string[] = TEC_KEYS[d.kind];
  const tecKeys = d.tec.map((f) => f.key);
  if (!inOrder(tecKeys, order))
    throw new Error(`${d.kind}: TEC's fields [${tecKeys}] are not in TEC's order [${order}]`);
  const additions: readonly FieldDef[] = d.additions ?? [];
  const ours = additions.filter((f) => order.includes(f.key)).map((f) => f.key);
  if (ours.length) throw new Error(`${d.kind}: ${ours} are TEC's keys: put them in \`tec\` at their place`);
  const last = d.tec.at(-1);
  const fields =
    last?.singleOnly === true ? [...d.tec.slice(0, -1), ...additions, last] : [...d.tec, ...additions];
  return {
    kind: d.kind,
    component: d.component,
    dropEmpty: d.dropEmpty,
    fields: fields as (T[number] | A[number])[],
    added: additions.map((f) => f.key),
  };
}
