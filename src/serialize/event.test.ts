// Event records as TEC emits them, from hand-built wp/v2 posts under both mappings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mapping } from '../mapping/schema.ts';
import { serializeEvent } from './event.ts';
import { DATE_DETAIL_KEYS, EVENT_KEYS, ORGANIZER_KEYS, VENUE_KEYS } from './keys.ts';
import { CUSTOM_MAPPING, eventPost, opts, related, TEC_MAPPING } from './test-fixtures.ts';

const BASE = {
  start_date: '2026-07-01 19:00:00',
  end_date: '2026-07-01 21:30:00',
  venue: 20,
  organizer: [30, 31],
};

/** `keys` appear in `order`'s relative order. */
const inOrder = (keys: string[], order: readonly string[]) => {
  const idx = keys.map((k) => order.indexOf(k));
  return idx.every((i) => i >= 0) && idx.every((i, n) => n === 0 || i > idx[n - 1]);
};

describe.each([
  ['tec', TEC_MAPPING],
  ['custom', CUSTOM_MAPPING],
] as Array<[string, Mapping]>)('serializeEvent with the %s mapping', (_name, mapping) => {
  const rel = related(mapping);
  const event = (values: Record<string, unknown> = {}, over = {}) =>
    serializeEvent(eventPost(mapping, { ...BASE, ...values }, over), rel, opts(mapping));

  it('emits every list key in TEC order, without json_ld', () => {
    // `distance_km` only on lists near a point (src/geo/order.ts adds it).
    expect(Object.keys(event())).toEqual(EVENT_KEYS.filter((k) => k !== 'json_ld' && k !== 'distance_km'));
  });

  it('adds json_ld only in single context', () => {
    const single = serializeEvent(eventPost(mapping, BASE), rel, opts(mapping, { context: 'single' }));
    expect(Object.keys(single)).toEqual(EVENT_KEYS.filter((k) => k !== 'distance_km'));
    expect(single.json_ld).toMatchObject({ '@type': 'Event', startDate: '2026-07-01T19:00:00-04:00' });
    expect(event()).not.toHaveProperty('json_ld');
    expect(
      serializeEvent(eventPost(mapping, BASE), rel, opts(mapping, { context: 'write' })),
    ).not.toHaveProperty('json_ld');
  });

  it('uses TEC JSON types: string author, zero-padded string date details, booleans, [] custom_fields', () => {
    const r = event();
    expect(r.id).toBe(10);
    expect(r.author).toBe('1');
    expect(r.global_id).toBe('example.test/sub?id=10');
    expect(r.global_id_lineage).toEqual(['example.test/sub?id=10']);
    expect(r.rest_url).toBe('http://localhost:3000/wp-json/calendar/events/v1/events/10');
    expect(r.start_date_details).toEqual({
      year: '2026',
      month: '07',
      day: '01',
      hour: '19',
      minutes: '00',
      seconds: '00',
    });
    for (const k of ['start', 'end', 'utc_start', 'utc_end']) {
      const d = r[`${k}_date_details`] as Record<string, unknown>;
      expect(Object.keys(d)).toEqual([...DATE_DETAIL_KEYS]);
      for (const v of Object.values(d)) expect(typeof v).toBe('string');
    }
    for (const k of ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'])
      expect(typeof r[k]).toBe('boolean');
    expect(r.custom_fields).toEqual([]);
  });

  it('computes the UTC dates and zone abbreviation from the wall clock when they are not stored', () => {
    const r = event();
    expect(r.utc_start_date).toBe('2026-07-01 23:00:00');
    expect(r.utc_end_date).toBe('2026-07-02 01:30:00');
    if (!mapping.event.fields.timezone_abbr) expect(r.timezone_abbr).toBe('EDT');
  });

  it('keeps title, content and stored excerpt as WordPress rendered them, trimmed', () => {
    const r = event(
      {},
      { title: { rendered: 'Jazz &amp; Blues' }, excerpt: { rendered: '<p>x</p>\n', raw: 'x' } },
    );
    expect(r.title).toBe('Jazz &amp; Blues');
    expect(r.description).toBe('<p>Body</p>');
    expect(r.excerpt).toBe('<p>x</p>');
  });

  it('never shows an excerpt WordPress generated from the content', () => {
    expect(event({}, { excerpt: { rendered: '<p>Body [&hellip;]</p>', raw: '' } }).excerpt).toBe('');
  });

  it('strips the "Protected: " and "Private: " prefixes wp/v2 adds to titles', () => {
    expect(event({}, { title: { rendered: 'Private: Board meeting' }, status: 'private' }).title).toBe(
      'Board meeting',
    );
  });

  it('falls back to the permalink for an empty website and escapes a stored one', () => {
    const type = mapping.event.postType;
    expect(event().website).toBe(`https://example.test/sub/${type}/${type}-10/`);
    expect(event({ website: 'https://x.test/?a=1&b=2' }).website).toBe('https://x.test/?a=1&amp;b=2');
  });

  it.each([
    { venue: null, expected: 'empty list' },
    { venue: 20, expected: 'object' },
    { venue: 999, expected: 'empty list' },
  ])('renders venue $venue as $expected', ({ venue, expected }) => {
    const r = event({ venue });
    if (expected === 'object') expect(r.venue).toMatchObject({ id: 20, venue: 'Title 20 &#8211; live' });
    else expect(r.venue).toEqual([]);
  });

  it('renders several venues as a list when the mapping stores more than one', () => {
    const multi = structuredClone(mapping);
    const src = multi.event.fields.venue;
    if (src && 'meta' in src) src.format = 'int-list';
    const r = serializeEvent(eventPost(multi, { ...BASE, venue: [20, 21] }), rel, opts(multi));
    expect((r.venue as Array<{ id: number }>).map((v) => v.id)).toEqual([20, 21]);
  });

  it('always renders organizers as a list, in stored order, skipping unknown ids', () => {
    expect((event({ organizer: [31, 30] }).organizer as Array<{ id: number }>).map((o) => o.id)).toEqual([
      31, 30,
    ]);
    expect(event({ organizer: [] }).organizer).toEqual([]);
    expect((event({ organizer: [999, 30] }).organizer as unknown[]).length).toBe(1);
  });

  it('drops empty venue and organizer keys and keeps the survivors in TEC order', () => {
    const r = event();
    const venue = r.venue as Record<string, unknown>;
    expect(venue).not.toHaveProperty('zip');
    expect(venue).not.toHaveProperty('image');
    expect(inOrder(Object.keys(venue), VENUE_KEYS)).toBe(true);
    expect(Object.keys(venue).slice(-4)).toEqual([
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    for (const o of r.organizer as Array<Record<string, unknown>>) {
      expect(inOrder(Object.keys(o), ORGANIZER_KEYS)).toBe(true);
      expect(o).not.toHaveProperty('email');
      expect(o.image).toMatchObject({ id: 50, extension: 'jpg' });
    }
  });

  it('embeds categories and tags as WP_Term-shaped objects with gateway urls', () => {
    const [parent, child] = event().categories as Array<Record<string, unknown>>;
    expect(Object.keys(child)).toEqual([
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
    ]);
    expect(child.taxonomy).toBe(mapping.event.categories?.taxonomy);
    expect(child.urls).toEqual({
      self: 'http://localhost:3000/wp-json/calendar/events/v1/categories/4',
      collection: 'http://localhost:3000/wp-json/calendar/events/v1/categories',
      up: 'http://localhost:3000/wp-json/calendar/events/v1/categories/3',
    });
    expect(parent.urls).not.toHaveProperty('up');
    expect(((event().tags as Array<Record<string, unknown>>)[0].urls as Record<string, string>).self).toMatch(
      /\/tags\/7$/,
    );
  });

  it('formats the cost with the stored currency, defaulting to a $ prefix', () => {
    expect(event({ cost: '0' }).cost).toBe('Free');
    expect(event({ cost: '15' }).cost).toBe('$15');
    expect(event({}).cost).toBe('');
  });

  it('makes each linked record once per page, the same record as one made for that event alone', () => {
    const page = related(mapping);
    const events = [10, 11, 12].map((id) =>
      serializeEvent(eventPost(mapping, BASE, { id }), page, opts(mapping)),
    );
    // Each event read with a page of its own: what every event was sent before records were shared.
    const alone = [10, 11, 12].map((id) =>
      serializeEvent(eventPost(mapping, BASE, { id }), related(mapping), opts(mapping)),
    );
    expect(JSON.stringify(events)).toBe(JSON.stringify(alone));
    const [a, b] = events as Array<Record<string, Record<string, unknown>[]>>;
    expect(b!.venue).toBe(a!.venue);
    expect(b!.organizer![1]).toBe(a!.organizer![1]);
    if (mapping.event.categories) expect(b!.categories![0]).toBe(a!.categories![0]);
    // What else a linked record depends on is kept apart: single reads add json_ld, a password may unlock it.
    const single = serializeEvent(eventPost(mapping, BASE), page, opts(mapping, { context: 'single' }));
    expect(single.venue).toHaveProperty('json_ld');
    expect(single.venue).not.toBe(a!.venue);
    expect(serializeEvent(eventPost(mapping, BASE), page, opts(mapping)).venue).not.toHaveProperty('json_ld');
  });

  it('blanks a password-protected event unless the matching password is given', () => {
    const protectedPost = { password: 's3cret', content: { rendered: '<p>Body</p>', protected: true } };
    const blank = serializeEvent(eventPost(mapping, BASE, protectedPost), rel, opts(mapping));
    expect(blank).toMatchObject({
      title: 'Title 10 &#8211; live',
      description: '',
      venue: [],
      organizer: [],
      all_day: null,
    });
    expect(blank.start_date).toBe('2026-07-01 19:00:00');
    const wrong = serializeEvent(
      eventPost(mapping, BASE, protectedPost),
      rel,
      opts(mapping, { password: 'nope' }),
    );
    expect(wrong.description).toBe('');
    const right = serializeEvent(
      eventPost(mapping, BASE, protectedPost),
      rel,
      opts(mapping, { password: 's3cret' }),
    );
    expect(right.description).toBe('<p>Body</p>');
  });

  it('trusts WordPress when the password is unknown: rendered content means the forwarded password matched', () => {
    const anon = (rendered: string) => eventPost(mapping, BASE, { content: { rendered, protected: true } });
    expect(serializeEvent(anon('<p>Body</p>'), rel, opts(mapping, { password: 'x' })).description).toBe(
      '<p>Body</p>',
    );
    expect(serializeEvent(anon(''), rel, opts(mapping, { password: 'x' })).description).toBe('');
    expect(serializeEvent(anon('<p>Body</p>'), rel, opts(mapping)).description).toBe('');
  });

  it('never throws and keeps TEC key order for arbitrary meta values', () => {
    const metaValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
    );
    const names = Object.keys(mapping.event.fields);
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), metaValue), fc.boolean(), (values, single) => {
        const r = serializeEvent(
          eventPost(mapping, values),
          rel,
          opts(mapping, { context: single ? 'single' : 'list' }),
        );
        expect(inOrder(Object.keys(r), EVENT_KEYS)).toBe(true);
        expect(typeof r.author).toBe('string');
        expect(typeof r.cost).toBe('string');
        JSON.stringify(r);
      }),
    );
  });
});
