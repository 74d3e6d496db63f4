// The `_fields` a list page or a feed reads its posts with: everything a record is made of, and not `_links`. A post
// cut down to those fields makes the same record, the same held-record tags and the same protection as the whole post.
import { describe, expect, it } from 'vitest';
import { filterFields } from '../../mocks/wordpress/http-util.ts';
import { heldEventTags } from '../events/held.ts';
import {
  canSeeProtected,
  isProtected,
  serializeEvent,
  serializeOrganizer,
  serializeVenue,
} from '../serialize/index.ts';
import { CUSTOM_MAPPING, eventPost, opts, related, TEC_MAPPING } from '../serialize/test-fixtures.ts';
import type { WpPost } from '../wp/types.ts';
import { recordFieldsOf } from './codec.ts';
import { type Mapping, mappingSchema, type ResourceKind } from './schema.ts';

/**
 * The TEC mapping with its post fields stored elsewhere and no image: the serializer still reads a post's own dates,
 * author, content and password (src/serialize/common.ts), so the fields asked for must hold them whatever the mapping.
 */
const ELSEWHERE: Mapping = (() => {
  const { image: _image, ...fields } = TEC_MAPPING.event.fields as Record<string, unknown>;
  for (const name of [
    'author',
    'date',
    'date_utc',
    'modified',
    'modified_utc',
    'password',
    'description',
    'excerpt',
  ])
    fields[name] = { meta: `_Stored_${name}` };
  return mappingSchema.parse({ ...TEC_MAPPING, event: { ...TEC_MAPPING.event, fields } });
})();

/** Every value a mapped event field can hold set to something other than its default. */
const VALUES = {
  start_date: '2026-07-01 19:00:00',
  end_date: '2026-07-02 21:30:00',
  utc_start_date: '2026-07-01 23:00:00',
  utc_end_date: '2026-07-03 01:30:00',
  duration: '95400',
  timezone: 'America/New_York',
  timezone_abbr: 'EDT',
  all_day: '',
  hide_from_listings: 'yes',
  featured: '1',
  event_status: 'postponed',
  event_status_reason: 'Rain',
  show_map: '',
  show_map_link: '1',
  cost: '10 – 20',
  currency_symbol: '€',
  currency_code: 'EUR',
  currency_position: 'postfix',
  website: 'https://example.test/tickets',
  venue: 20,
  organizer: [30, 31],
};

/** What WordPress answers besides the fields: links, unmapped meta, fields of other plugins. */
const EXTRA = {
  guid: { rendered: 'https://example.test/sub/?p=10' },
  template: '',
  sticky: false,
  _links: { self: [{ href: 'https://example.test/sub/wp-json/wp/v2/x/10' }] },
};

const cut = (post: WpPost, mapping: Mapping, kind: ResourceKind) =>
  filterFields(
    post as unknown as Record<string, unknown>,
    recordFieldsOf(mapping, kind).split(','),
  ) as WpPost;

describe.each([
  ['tec', TEC_MAPPING],
  ['custom', CUSTOM_MAPPING],
  ['TEC with its post fields in meta', ELSEWHERE],
] as Array<[string, Mapping]>)('recordFieldsOf with the %s mapping', (_name, mapping) => {
  const rel = related(mapping);
  const events: Array<[string, WpPost]> = [
    ['a plain event', eventPost(mapping, VALUES, { ...EXTRA, featured_media: 50, menu_order: -1 })],
    [
      'a protected event',
      eventPost(mapping, VALUES, {
        ...EXTRA,
        password: 'open sesame',
        content: { rendered: '', protected: true },
        excerpt: { rendered: '', protected: true },
      }),
    ],
    ['a draft', eventPost(mapping, VALUES, { ...EXTRA, status: 'draft', author: 7 })],
  ];

  it('asks for neither `_links` nor `_embedded`', () => {
    for (const kind of ['event', 'venue', 'organizer'] as const) {
      const fields = recordFieldsOf(mapping, kind).split(',');
      expect(fields).toContain('id');
      expect(fields).not.toContain('_links');
      expect(fields).not.toContain('_embedded');
    }
    expect(cut(events[0]![1], mapping, 'event')).not.toHaveProperty('_links');
  });

  it.each(events)('makes %s the same from the fields it asks for', (_what, post) => {
    const part = cut(post, mapping, 'event');
    for (const context of ['list', 'single'] as const) {
      expect(serializeEvent(part, rel, opts(mapping, { context }))).toEqual(
        serializeEvent(post, rel, opts(mapping, { context })),
      );
    }
    expect(heldEventTags(mapping, part)).toEqual(heldEventTags(mapping, post));
    expect(isProtected(part)).toBe(isProtected(post));
    expect(canSeeProtected(part, 'open sesame')).toBe(canSeeProtected(post, 'open sesame'));
  });

  it('makes venues and organizers the same from the fields it asks for', () => {
    const venue = { ...rel.venues.get(20)!, ...EXTRA, featured_media: 50 };
    const organizer = { ...rel.organizers.get(30)!, ...EXTRA };
    expect(serializeVenue(cut(venue, mapping, 'venue'), rel, opts(mapping))).toEqual(
      serializeVenue(venue, rel, opts(mapping)),
    );
    expect(serializeOrganizer(cut(organizer, mapping, 'organizer'), rel, opts(mapping))).toEqual(
      serializeOrganizer(organizer, rel, opts(mapping)),
    );
  });
});
