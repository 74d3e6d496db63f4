// Venue and organizer records, term list items and image objects as TEC emits them.
import { describe, expect, it } from 'vitest';
import { serializeImage } from './image.ts';
import { ORGANIZER_KEYS, VENUE_KEYS } from './keys.ts';
import { serializeOrganizer, serializeVenue } from './linked.ts';
import { serializeTerm } from './terms.ts';
import { CUSTOM_MAPPING, MEDIA, opts, post, SITE, TEC_MAPPING } from './test-fixtures.ts';

const media = new Map([[50, MEDIA]]);

describe('serializeVenue', () => {
  const full = post(20, 'tribe_venue', {
    featured_media: 50,
    meta: {
      _VenueAddress: '1 Main St',
      _VenueCity: 'Toronto',
      _VenueCountry: 'Canada',
      _VenueProvince: 'ON',
      _VenueState: '',
      _VenueStateProvince: 'ON',
      _VenueZip: 'M5V',
      _VenuePhone: '555',
      _VenueURL: 'https://hall.test',
      _VenueShowMap: '',
    },
  });

  it('emits the full key list in TEC order, json_ld only in single context', () => {
    const single = serializeVenue(full, { media }, opts(TEC_MAPPING, { context: 'single' }));
    expect(Object.keys(single)).toEqual(
      VENUE_KEYS.filter((k) => !['state', 'geo_lat', 'geo_lng', 'distance_km'].includes(k)),
    );
    expect(single.json_ld).toMatchObject({ '@type': 'Place', address: { addressLocality: 'Toronto' } });
    expect(serializeVenue(full, { media }, opts(TEC_MAPPING))).not.toHaveProperty('json_ld');
  });

  it("builds a protected venue's JSON-LD from the blanked record: no phone, website, region or address", () => {
    const locked = post(21, 'tribe_venue', {
      password: 'letmein',
      content: { rendered: '', protected: true },
      meta: {
        _VenueAddress: '9 Hidden Rd',
        _VenueState: 'NY',
        _VenueStateProvince: 'NY',
        _VenuePhone: '555 0101',
        _VenueURL: 'https://secret.test',
      },
    });
    const shown = serializeVenue(locked, { media }, opts(TEC_MAPPING, { context: 'single' }));
    expect(shown.state).toBe('');
    const text = JSON.stringify(shown);
    for (const secret of ['Hidden', 'NY', '555', 'secret.test']) expect(text).not.toContain(secret);
    expect(Object.keys(shown).indexOf('json_ld')).toBe(Object.keys(shown).indexOf('show_map') - 1);
    const unlocked = serializeVenue(
      locked,
      { media },
      opts(TEC_MAPPING, { context: 'single', password: 'letmein' }),
    );
    expect(unlocked.json_ld).toMatchObject({ telephone: '555 0101', sameAs: 'https://secret.test' });
  });

  it('reads show_map from its meta and defaults show_map_link to true when absent', () => {
    const r = serializeVenue(full, { media }, opts(TEC_MAPPING));
    expect(r.show_map).toBe(false);
    expect(r.show_map_link).toBe(true);
  });

  // The custom mapping stores no province, so a non-US venue has no stateprovince (and the empty key is dropped).
  it.each([
    { country: 'United States', state: 'NY', expected: 'NY' },
    { country: '', state: 'CA', expected: 'CA' },
    { country: 'Spain', state: 'Z', expected: undefined },
  ])(
    'derives stateprovince for country "$country" when the mapping has none',
    ({ country, state, expected }) => {
      const p = post(22, 'location', { meta: { location_country: country, location_state: state } });
      expect(serializeVenue(p, { media }, opts(CUSTOM_MAPPING)).stateprovince).toBe(expected);
    },
  );

  it('blanks a protected venue but its name unless the password matches', () => {
    const locked = { ...full, password: 'pw' };
    expect(serializeVenue(locked, { media }, opts(TEC_MAPPING))).toMatchObject({
      venue: serializeVenue(full, { media }, opts(TEC_MAPPING)).venue,
      address: '',
      show_map: null,
    });
    expect(serializeVenue(locked, { media }, opts(TEC_MAPPING, { password: 'pw' })).address).toBe(
      '1 Main St',
    );
  });
});

describe('serializeOrganizer', () => {
  it('drops empty keys and appends global ids, in TEC order', () => {
    const p = post(30, 'tribe_organizer', { meta: { _OrganizerEmail: 'a@b.test', _OrganizerPhone: '' } });
    const r = serializeOrganizer(p, { media }, opts(TEC_MAPPING, { context: 'single' }));
    expect(Object.keys(r)).toEqual(ORGANIZER_KEYS.filter((k) => !['image', 'phone', 'website'].includes(k)));
    expect(r.global_id_lineage).toEqual(['example.test/sub?id=30']);
    expect(r.json_ld).toMatchObject({ '@type': 'Person', email: 'a@b.test' });
  });
});

describe('serializeTerm', () => {
  const term = {
    id: 4,
    count: 2,
    description: 'd',
    link: 'https://example.test/sub/c/4/',
    name: 'Jazz',
    slug: 'jazz',
    taxonomy: 'tribe_events_cat',
    parent: 3,
    meta: [],
  };

  it('renders list items with url after meta (PHP appends the renamed link) and parent for categories only', () => {
    const cat = serializeTerm(term, 'categories', { site: SITE, embedded: false });
    expect(Object.keys(cat)).toEqual([
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
    ]);
    expect(cat.meta).toEqual([]);
    const tag = serializeTerm({ ...term, parent: 0, taxonomy: 'post_tag' }, 'tags', {
      site: SITE,
      embedded: false,
    });
    expect(tag).not.toHaveProperty('parent');
    expect(tag.urls).toEqual({ self: `${SITE.apiRoot}/tags/4`, collection: `${SITE.apiRoot}/tags` });
  });
});

describe('serializeImage', () => {
  it('returns false without media', () => {
    expect(serializeImage(undefined)).toBe(false);
  });

  it('omits the sizes block when WordPress has no complete metadata', () => {
    expect(serializeImage({ id: 9, source_url: 'https://x.test/a.png', mime_type: 'image/png' })).toEqual({
      url: 'https://x.test/a.png',
      id: 9,
      extension: 'png',
    });
  });

  it('keys sizes by name without the synthetic full size', () => {
    const img = serializeImage(MEDIA) as Record<string, unknown>;
    expect(Object.keys(img)).toEqual(['url', 'id', 'extension', 'width', 'height', 'filesize', 'sizes']);
    expect(Object.keys(img.sizes as object)).toEqual(['thumbnail']);
  });
});
