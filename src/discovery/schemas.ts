// components.schemas of /doc: TEC's record shapes as this gateway emits them (types as really sent, §2, §9.4).
type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string): Schema => ({ type: 'integer', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required?: string[]): Schema => ({
  type: 'object',
  ...(required ? { required } : {}),
  properties,
});

/** Post fields every event, venue and organizer starts with. */
const postHead: Record<string, Schema> = {
  id: int('The post id.'),
  author: str('The author id, as a numeric string.'),
  status: str('The post status.'),
  date: str('Publication date, site time (Y-m-d H:i:s).'),
  date_utc: str('Publication date, UTC (Y-m-d H:i:s).'),
  modified: str('Last modification date, site time.'),
  modified_utc: str('Last modification date, UTC.'),
  url: str('The permalink.'),
};

const imageOrFalse: Schema = { oneOf: [ref('Image'), { type: 'boolean', enum: [false] }] };
const globalIds: Record<string, Schema> = {
  global_id: str('A site-unique id: `{host}{path}?id={id}`.'),
  global_id_lineage: { type: 'array', items: { type: 'string' } },
};

export const componentSchemas: Record<string, Schema> = {
  ImageSize: obj({
    width: int('Width in pixels.'),
    height: int('Height in pixels.'),
    'mime-type': str('The mime type.'),
    url: str('The URL of this size.'),
  }),
  CostDetails: obj({
    currency_symbol: str('The currency symbol.'),
    currency_code: str('The ISO currency code.'),
    currency_position: { type: 'string', enum: ['prefix', 'postfix', ''] },
    values: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
  }),
  Term: obj({
    id: int('The term id.'),
    name: str('The term name.'),
    slug: str('The term slug.'),
    taxonomy: str('The taxonomy.'),
    description: str('The term description.'),
    parent: int('The parent term id (categories), 0 for none.'),
    count: int('How many posts have the term.'),
    url: str('The term archive URL.'),
    urls: obj({ self: str('This term.'), collection: str('The term list.'), up: str('The parent term.') }),
  }),
  Image: obj({
    url: str('The full-size image URL.'),
    id: int('The attachment id.'),
    extension: str('The file extension.'),
    width: int('Width in pixels.'),
    height: int('Height in pixels.'),
    sizes: { type: 'object', additionalProperties: ref('ImageSize') },
  }),
  DateDetails: obj({
    year: str('Zero-padded year.'),
    month: str('Zero-padded month.'),
    day: str('Zero-padded day.'),
    hour: str('Zero-padded hour.'),
    minutes: str('Zero-padded minutes.'),
    seconds: str('Zero-padded seconds.'),
  }),
  Event: obj({
    ...postHead,
    global_id: globalIds.global_id!,
    global_id_lineage: globalIds.global_id_lineage!,
    rest_url: str('This event in the API.'),
    title: str('The event title.'),
    description: str('The event description (HTML).'),
    excerpt: str('The event excerpt (HTML).'),
    slug: str('The event slug.'),
    image: imageOrFalse,
    all_day: bool('Whether the event lasts all day.'),
    start_date: str('Start, event wall clock (Y-m-d H:i:s).'),
    start_date_details: ref('DateDetails'),
    end_date: str('End, event wall clock.'),
    end_date_details: ref('DateDetails'),
    utc_start_date: str('Start in UTC.'),
    utc_start_date_details: ref('DateDetails'),
    utc_end_date: str('End in UTC.'),
    utc_end_date_details: ref('DateDetails'),
    timezone: str('The event time zone.'),
    timezone_abbr: str('The time zone abbreviation at the start.'),
    cost: str('The formatted cost.'),
    cost_details: ref('CostDetails'),
    website: str('The event website.'),
    show_map: bool('Whether to show a map.'),
    show_map_link: bool('Whether to show a map link.'),
    hide_from_listings: bool('Hidden from listings.'),
    sticky: bool('Sticky in calendar views.'),
    featured: bool('Featured.'),
    categories: { type: 'array', items: ref('Term') },
    tags: { type: 'array', items: ref('Term') },
    venue: {
      description: 'One venue as an object, several as a list, none as an empty list.',
      oneOf: [ref('Venue'), { type: 'array', items: ref('Venue') }],
    },
    organizer: { type: 'array', items: ref('Organizer') },
    custom_fields: {
      description: 'Additional fields with a value, or an empty list.',
      oneOf: [{ type: 'object' }, { type: 'array', items: {} }],
    },
    json_ld: { type: 'object', description: 'schema.org Event (single reads only).' },
  }),
  Venue: obj({
    ...postHead,
    venue: str('The venue name.'),
    description: str('The venue description (HTML).'),
    excerpt: str('The venue excerpt.'),
    slug: str('The venue slug.'),
    image: imageOrFalse,
    address: str('Street address.'),
    city: str('City.'),
    country: str('Country.'),
    province: str('Province.'),
    state: str('State.'),
    zip: str('Postal code.'),
    phone: str('Phone.'),
    website: str('Website.'),
    stateprovince: str('State or province.'),
    show_map: bool('Whether linked events show a map.'),
    show_map_link: bool('Whether linked events show a map link.'),
    ...globalIds,
  }),
  Organizer: obj({
    ...postHead,
    organizer: str('The organizer name.'),
    description: str('The organizer description (HTML).'),
    excerpt: str('The organizer excerpt.'),
    slug: str('The organizer slug.'),
    image: imageOrFalse,
    phone: str('Phone.'),
    website: str('Website.'),
    email: str('E-mail address.'),
    ...globalIds,
  }),
};

/** The response body of one path: a record, a list envelope, or something generic. */
export function responseSchema(path: string, single: boolean): Schema {
  const kind = path.split('/')[1] ?? '';
  const record: Record<string, string> = {
    events: 'Event',
    venues: 'Venue',
    organizers: 'Organizer',
    categories: 'Term',
    tags: 'Term',
  };
  const name = record[kind];
  if (!name) return { type: 'object' };
  if (single) return ref(name);
  return obj({
    [kind]: { type: 'array', items: ref(name) },
    rest_url: str('This page.'),
    next_rest_url: str('The next page, when it has results.'),
    previous_rest_url: str('The previous page.'),
    total: int('How many items match.'),
    total_pages: int('How many pages there are.'),
  });
}

export const errorSchema: Schema = obj(
  {
    code: str('The error code.'),
    message: str('A readable message.'),
    data: obj({ status: int('The HTTP status.') }),
  },
  ['code', 'message', 'data'],
);
