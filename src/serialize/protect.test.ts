// Password blanking as TEC's remove_password_protected_content does it, read from the record descriptors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eventRecord,
  keysOf,
  organizerRecord,
  type RecordDescriptor,
  venueRecord,
} from '../contract/records.ts';
import { assemble, blankProtected, blanksOf, withSingleOnly } from './protect.ts';

/** TEC 6.17 `Validator/Base.php::PASSWORD_PROTECTED_FIELDS` (contract §8), the oracle for the descriptors. */
const TEC_PROTECTED = [
  'description',
  'excerpt',
  'image',
  'all_day',
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
  'ticketed',
  'is_virtual',
  'virtual_url',
  'virtual_video_source',
  'attendance',
  'email',
  'phone',
  'stateprovince',
  'zip',
  'province',
  'country',
  'city',
  'address',
  'geo_lat',
  'geo_lng',
];

describe('the blanked fields of each record', () => {
  it.each<[RecordDescriptor, string[], string[]]>([
    // A venue's or organizer's own name is a title, and titles stay visible (a deliberate difference: TEC's list
    // holds `venue` and `organizer` for an event's links, so it blanks a protected venue's name too).
    // The status reason is ours (TEC's REST sends no status): free text, blanked like the description.
    [eventRecord, [], ['event_status_reason']],
    [venueRecord, ['venue'], ['state']],
    [organizerRecord, ['organizer'], []],
  ])('are TEC’s list as far as the record has the keys (%#)', (record, kept, added) => {
    const expected = keysOf(record).filter(
      (k) => (TEC_PROTECTED.includes(k) && !kept.includes(k)) || added.includes(k),
    );
    expect([...blanksOf(record).keys()]).toEqual(expected);
  });
});

describe('blankProtected', () => {
  it('blanks the protected keys of an event and keeps title and dates', () => {
    const out = blankProtected(eventRecord, {
      title: 'T',
      start_date: '2026-01-01 10:00:00',
      description: '<p>x</p>',
      image: { url: 'u' },
      all_day: true,
      cost_details: {
        currency_symbol: '$',
        currency_code: 'USD',
        currency_position: 'prefix',
        values: ['1'],
      },
      venue: { id: 1, city: 'X' },
      organizer: [{ id: 2 }],
      custom_fields: { a: 1 },
    });
    expect(out).toEqual({
      title: 'T',
      start_date: '2026-01-01 10:00:00',
      description: '',
      image: false,
      all_day: null,
      cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
      venue: [],
      organizer: [],
      custom_fields: [],
    });
  });

  it("keeps a venue's name and blanks its address, state included", () => {
    expect(blankProtected(venueRecord, { venue: 'Hall', address: 'a', state: 'NY', phone: '1' })).toEqual({
      venue: 'Hall',
      address: '',
      state: '',
      phone: '',
    });
  });

  it('does not share replacement objects between records', () => {
    const [a, b] = [
      blankProtected(eventRecord, { tags: ['x'] }),
      blankProtected(eventRecord, { tags: ['y'] }),
    ];
    (a.tags as string[]).push('mutated');
    expect(b.tags).toEqual([]);
  });

  it('leaves each blanked key holding its blank, every other key as it was, in the same order', () => {
    for (const record of [eventRecord, venueRecord, organizerRecord]) {
      const blanks = blanksOf(record);
      const entries = fc.uniqueArray(fc.tuple(fc.constantFrom(...keysOf(record), 'other'), fc.jsonValue()), {
        selector: ([k]) => k,
        maxLength: 12,
      });
      fc.assert(
        fc.property(entries, (pairs) => {
          const value = Object.fromEntries(pairs);
          const out = blankProtected(record, value);
          expect(Object.keys(out)).toEqual(Object.keys(value));
          for (const [k, v] of pairs) expect(out[k]).toEqual(blanks.has(k) ? blanks.get(k) : v);
        }),
      );
    }
  });
});

describe('assemble', () => {
  it('orders by the descriptor, sends stored values as they are and leaves out single-only fields', () => {
    const head = {
      id: 4,
      author: '1',
      status: 'publish',
      date: 'd',
      date_utc: 'd',
      modified: 'm',
      modified_utc: 'm',
    };
    const out = assemble(
      organizerRecord,
      {
        ...head,
        url: 'u',
        organizer: 'O',
        description: '',
        excerpt: '',
        image: false,
        global_id: 'g',
        global_id_lineage: ['g'],
      },
      { email: 'a@b.c', phone: 12, website: null, slug: 'x' },
    );
    expect(Object.keys(out)).toEqual(keysOf(organizerRecord).filter((k) => k in out));
    expect(out).toMatchObject({ email: 'a@b.c', phone: '12', slug: 'x' });
    // Organizer records drop empty values (PHP's array_filter): no website, no json_ld outside single reads.
    expect(out).not.toHaveProperty('website');
    expect(out).not.toHaveProperty('json_ld');
  });

  it('leaves out a field that is neither stored nor worked out (records.test.ts holds that none is)', () => {
    expect(assemble(eventRecord, { id: 1 }, {})).not.toHaveProperty('rest_url');
    expect(assemble(eventRecord, { id: 1 }, {})).toHaveProperty('slug', '');
  });

  it('places a single-read field before the next key the record has', () => {
    const venue = { venue: 'Hall', show_map: true, global_id: 'g' };
    expect(Object.keys(withSingleOnly(venueRecord, venue, 'json_ld', {}))).toEqual([
      'venue',
      'json_ld',
      'show_map',
      'global_id',
    ]);
    expect(Object.keys(withSingleOnly(eventRecord, { id: 1, custom_fields: [] }, 'json_ld', {}))).toEqual([
      'id',
      'custom_fields',
      'json_ld',
    ]);
  });
});
