// The routes and parameters of the shared service spec (spec.md), as data: what discovery and /doc must list.

export type SpecMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const EDIT: SpecMethod[] = ['POST', 'PUT', 'PATCH'];

export interface SpecRoute {
  /** Route regex below the namespace, as discovery keys it. */
  pattern: string;
  /** OpenAPI path below the server URL. */
  path: string;
  methods: SpecMethod[];
  /** Parameters every listed method accepts besides `multilang_language` (on its endpoint). */
  params: string[];
}

const L = 'multilang_language';
const ID = '(?P<id>\\d+)';
const SLUG = '(?P<slug>[^/]+)';

const eventFields = [
  'title',
  'start_date',
  'end_date',
  'author',
  'date',
  'date_utc',
  'description',
  'slug',
  'excerpt',
  'status',
  'timezone',
  'all_day',
  'image',
  'cost',
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
];
const venueFields = [
  'venue',
  'author',
  'date',
  'date_utc',
  'description',
  'status',
  'show_map',
  'show_map_link',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'website',
  'image',
];
const organizerFields = [
  'organizer',
  'author',
  'date',
  'date_utc',
  'description',
  'status',
  'phone',
  'website',
  'email',
  'image',
];
const categoryFields = ['name', 'description', 'slug', 'parent'];
const tagFields = ['name', 'description', 'slug'];
const listEvents = [
  'page',
  'per_page',
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'strict_dates',
  'search',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'status',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'include',
  'post_parent',
  'ticketed',
];
const listLinked = ['page', 'per_page', 'search', 'event', 'has_events', 'only_with_upcoming', 'status'];
const listTerms = [
  'page',
  'per_page',
  'search',
  'exclude',
  'include',
  'order',
  'orderby',
  'hide_empty',
  'post',
  'event',
  'slug',
];

/** One entry per (route, method group) of spec.md's route table and payload rules. */
export const SPEC: Array<SpecRoute & { name: string }> = [
  { name: 'discovery', pattern: '', path: '/', methods: ['GET'], params: ['namespace', 'context', L] },
  { name: 'doc', pattern: '/doc', path: '/doc', methods: ['GET'], params: [L] },
  { name: 'list events', pattern: '/events', path: '/events', methods: ['GET'], params: [...listEvents, L] },
  {
    name: 'create event',
    pattern: '/events',
    path: '/events',
    methods: ['POST'],
    params: [...eventFields, L],
  },
  { name: 'read event', pattern: `/events/${ID}`, path: '/events/{id}', methods: ['GET'], params: ['id', L] },
  {
    name: 'update event',
    pattern: `/events/${ID}`,
    path: '/events/{id}',
    methods: EDIT,
    params: ['id', ...eventFields, L],
  },
  {
    name: 'delete event',
    pattern: `/events/${ID}`,
    path: '/events/{id}',
    methods: ['DELETE'],
    params: ['id', L],
  },
  {
    name: 'read event by slug',
    pattern: `/events/by-slug/${SLUG}`,
    path: '/events/by-slug/{slug}',
    methods: ['GET'],
    params: ['slug', L],
  },
  {
    name: 'update event by slug',
    pattern: `/events/by-slug/${SLUG}`,
    path: '/events/by-slug/{slug}',
    methods: EDIT,
    params: ['slug', ...eventFields, L],
  },
  {
    name: 'delete event by slug',
    pattern: `/events/by-slug/${SLUG}`,
    path: '/events/by-slug/{slug}',
    methods: ['DELETE'],
    params: ['slug', L],
  },
  ...(['venues', 'organizers'] as const).flatMap((kind) => {
    const fields = kind === 'venues' ? venueFields : organizerFields;
    return [
      {
        name: `list ${kind}`,
        pattern: `/${kind}`,
        path: `/${kind}`,
        methods: ['GET'] as SpecMethod[],
        params: [...listLinked, L],
      },
      {
        name: `create ${kind}`,
        pattern: `/${kind}`,
        path: `/${kind}`,
        methods: ['POST'] as SpecMethod[],
        params: [...fields, L],
      },
      {
        name: `read ${kind}`,
        pattern: `/${kind}/${ID}`,
        path: `/${kind}/{id}`,
        methods: ['GET'] as SpecMethod[],
        params: ['id', L],
      },
      {
        name: `update ${kind}`,
        pattern: `/${kind}/${ID}`,
        path: `/${kind}/{id}`,
        methods: EDIT,
        params: ['id', ...fields, L],
      },
      {
        name: `delete ${kind}`,
        pattern: `/${kind}/${ID}`,
        path: `/${kind}/{id}`,
        methods: ['DELETE'] as SpecMethod[],
        params: ['id', L],
      },
      {
        name: `read ${kind} by slug`,
        pattern: `/${kind}/by-slug/${SLUG}`,
        path: `/${kind}/by-slug/{slug}`,
        methods: ['GET'] as SpecMethod[],
        params: ['slug', L],
      },
      {
        name: `update ${kind} by slug`,
        pattern: `/${kind}/by-slug/${SLUG}`,
        path: `/${kind}/by-slug/{slug}`,
        methods: EDIT,
        params: ['slug', ...fields, L],
      },
      {
        name: `delete ${kind} by slug`,
        pattern: `/${kind}/by-slug/${SLUG}`,
        path: `/${kind}/by-slug/{slug}`,
        methods: ['DELETE'] as SpecMethod[],
        params: ['slug', L],
      },
    ];
  }),
  ...(['categories', 'tags'] as const).flatMap((kind) => {
    const fields = kind === 'categories' ? categoryFields : tagFields;
    const list = kind === 'categories' ? [...listTerms, 'parent'] : listTerms;
    return [
      {
        name: `list ${kind}`,
        pattern: `/${kind}`,
        path: `/${kind}`,
        methods: ['GET'] as SpecMethod[],
        params: [...list, L],
      },
      {
        name: `create ${kind}`,
        pattern: `/${kind}`,
        path: `/${kind}`,
        methods: ['POST'] as SpecMethod[],
        params: [...fields, L],
      },
      {
        name: `read ${kind}`,
        pattern: `/${kind}/${ID}`,
        path: `/${kind}/{id}`,
        methods: ['GET'] as SpecMethod[],
        params: ['id', L],
      },
      {
        name: `update ${kind}`,
        pattern: `/${kind}/${ID}`,
        path: `/${kind}/{id}`,
        methods: EDIT,
        params: ['id', ...fields, L],
      },
      {
        name: `delete ${kind}`,
        pattern: `/${kind}/${ID}`,
        path: `/${kind}/{id}`,
        methods: ['DELETE'] as SpecMethod[],
        params: ['id', L],
      },
    ];
  }),
];

/** Event operations that take `password` on the language root only (spec "Payload rules" 6). */
export const PASSWORD_ON_SECONDARY = ['read event', 'update event', 'delete event'];

/** Defaults the spec states, per list parameter. */
export const SPEC_DEFAULTS: Array<{ name: string; param: string; value: unknown }> = [
  { name: 'discovery', param: 'namespace', value: 'calendar/events/v1' },
  { name: 'discovery', param: 'context', value: 'view' },
  ...['list events', 'list venues', 'list organizers', 'list categories', 'list tags'].flatMap((name) => [
    { name, param: 'page', value: 1 },
    { name, param: 'per_page', value: 10 },
  ]),
  { name: 'list events', param: 'strict_dates', value: 'false' },
  { name: 'create event', param: 'all_day', value: false },
];

/** Parameters the spec lists as untyped (TEC declares only a Swagger type): discovery shows no `type` for them. */
export const SPEC_UNTYPED: Array<{ name: string; params: string[] }> = [
  {
    name: 'list events',
    params: [
      'start_date',
      'end_date',
      'starts_before',
      'starts_after',
      'ends_before',
      'ends_after',
      'strict_dates',
    ],
  },
  { name: 'create event', params: ['cost', 'website'] },
];

/** Create fields the spec shows with `default null`. */
export const SPEC_NULL_DEFAULTS: Array<{ name: string; params: string[] }> = [
  { name: 'create event', params: ['website', 'categories', 'tags', 'venue', 'organizer'] },
];
