import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WpPost } from '../wp/types.ts';
import {
  decodeMeta,
  encodeMeta,
  type FieldValue,
  fromWpDate,
  readRecord,
  toWpDate,
  writeRecord,
} from './codec.ts';
import type { StorageFormat } from './schema.ts';
import { loadMappingSync } from './test-support.ts';

const tec = loadMappingSync('mappings/tec.json');
const custom = loadMappingSync('mappings/custom.json');

const post = (over: Partial<WpPost> = {}): WpPost => ({
  id: 7,
  date: '2031-05-01T09:00:00',
  date_gmt: '2031-05-01T13:00:00',
  modified: '2031-05-02T10:00:00',
  modified_gmt: '2031-05-02T14:00:00',
  slug: 'jazz',
  status: 'publish',
  type: 'tribe_events',
  link: 'https://example.test/event/jazz/',
  title: { rendered: 'Jazz &amp; Blues', raw: 'Jazz & Blues' },
  content: { rendered: '<p>Live</p>', raw: 'Live' },
  excerpt: { rendered: '', raw: '' },
  author: 3,
  featured_media: 0,
  menu_order: -1,
  meta: {},
  ...over,
});

describe('decodeMeta', () => {
  it.each<[unknown, StorageFormat, FieldValue | undefined, FieldValue]>([
    ['yes', 'yes-flag', undefined, true],
    ['', 'yes-flag', undefined, false],
    ['1', 'one-flag', undefined, true],
    [undefined, 'one-flag', undefined, false],
    ['1', 'bool', true, true],
    ['', 'bool', true, false],
    [undefined, 'bool', true, true],
    ['false', 'bool', true, false],
    [12, 'int', undefined, 12],
    ['12', 'int', undefined, 12],
    [0, 'int', undefined, null],
    ['', 'int', undefined, null],
    [[5, '26'], 'int-list', undefined, [5, 26]],
    [5, 'int-list', undefined, [5]],
    ['', 'int-list', undefined, []],
    ['2031-05-01 10:00:00', 'datetime', undefined, '2031-05-01 10:00:00'],
    ['', 'string', undefined, null],
    ['', 'string', '', ''],
    [['a', 'b'], 'string-list', undefined, ['a', 'b']],
    // Pro's `_VenueLat`: a float's text; anything else is no coordinate.
    ['39.4699', 'decimal', undefined, 39.4699],
    ['-0.3763', 'decimal', undefined, -0.3763],
    [12.5, 'decimal', undefined, 12.5],
    ['', 'decimal', undefined, null],
    ['north', 'decimal', undefined, null],
    [undefined, 'decimal', undefined, null],
  ])('reads %j stored as %s (default %j) as %j', (stored, format, def, expected) => {
    expect(decodeMeta(stored as never, format, def)).toEqual(expected);
  });
});

describe('encodeMeta', () => {
  it.each<[FieldValue, StorageFormat, unknown]>([
    [true, 'yes-flag', 'yes'],
    [false, 'yes-flag', null],
    [true, 'one-flag', '1'],
    [false, 'one-flag', null],
    [true, 'bool', '1'],
    [false, 'bool', ''],
    [12, 'int', 12],
    [null, 'int', null],
    [[3, 4], 'int-list', [3, 4]],
    ['x', 'string', 'x'],
    [null, 'string', ''],
    [39.4699, 'decimal', '39.4699'],
    [-179.99, 'decimal', '-179.99'],
    [null, 'decimal', null],
  ])('writes %j as %s: %j', (value, format, expected) => {
    expect(encodeMeta(value, format)).toEqual(expected);
  });

  it('round-trips every value through its storage format', () => {
    const cases = fc.oneof(
      fc.record({ format: fc.constant<StorageFormat>('yes-flag'), value: fc.boolean() }),
      fc.record({ format: fc.constant<StorageFormat>('one-flag'), value: fc.boolean() }),
      fc.record({ format: fc.constant<StorageFormat>('bool'), value: fc.boolean() }),
      fc.record({ format: fc.constant<StorageFormat>('int'), value: fc.integer({ min: 1 }) }),
      fc.record({ format: fc.constant<StorageFormat>('int-list'), value: fc.array(fc.integer({ min: 1 })) }),
      fc.record({ format: fc.constant<StorageFormat>('string'), value: fc.string({ minLength: 1 }) }),
      fc.record({
        format: fc.constant<StorageFormat>('decimal'),
        value: fc.double({ min: -180, max: 180, noNaN: true }).map((v) => v + 0),
      }),
      fc.record({
        format: fc.constant<StorageFormat>('datetime'),
        value: fc.constant('2031-01-02 03:04:05'),
      }),
    );
    fc.assert(
      fc.property(cases, ({ format, value }) => {
        const stored = encodeMeta(value, format);
        // WordPress deletes a row written as null; reading it back sees it absent.
        expect(
          decodeMeta(stored === null ? undefined : stored, format, format === 'bool' ? true : undefined),
        ).toEqual(value);
      }),
    );
  });
});

describe('dates between wp/v2 and TEC', () => {
  it('swaps the T and the space both ways', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        (d) => {
          const wall = d.toISOString().slice(0, 19).replace('T', ' ');
          expect(fromWpDate(toWpDate(wall))).toBe(wall);
        },
      ),
    );
  });
});

describe('readRecord', () => {
  it('reads TEC storage into calendar fields', () => {
    const r = readRecord(
      tec,
      'event',
      post({
        meta: {
          _EventStartDate: '2031-05-01 20:00:00',
          _EventEndDate: '2031-05-01 23:00:00',
          _EventAllDay: 'yes',
          _EventVenueID: 12,
          _EventOrganizerID: [5, 6],
          _tribe_featured: '1',
          _EventShowMap: '',
        },
      }),
    );
    expect(r).toMatchObject({
      title: 'Jazz & Blues',
      description: 'Live',
      start_date: '2031-05-01 20:00:00',
      all_day: true,
      venue: 12,
      organizer: [5, 6],
      featured: true,
      show_map: false,
      sticky: -1,
      date: '2031-05-01 09:00:00',
      date_utc: '2031-05-01 13:00:00',
    });
  });

  it('reads the same calendar fields from the custom site', () => {
    const r = readRecord(
      custom,
      'event',
      post({ meta: { event_start: '2031-05-01 20:00:00', location_id: 3, all_day: '1', is_featured: '' } }),
    );
    expect(r).toMatchObject({ start_date: '2031-05-01 20:00:00', venue: 3, all_day: true, featured: false });
  });
});

describe('writeRecord', () => {
  it('writes only the fields given, in post fields and meta', () => {
    expect(
      writeRecord(tec, 'event', { title: 'A', all_day: false, venue: 4, sticky: true, unknown: 1 }),
    ).toEqual({
      title: 'A',
      menu_order: -1,
      meta: { _EventAllDay: null, _EventVenueID: 4 },
    });
    expect(writeRecord(tec, 'event', {})).toEqual({});
  });

  it('reads back what it wrote, for both mappings', () => {
    const values = fc.record({
      title: fc.string({ minLength: 1 }),
      start_date: fc.constant('2031-05-01 20:00:00'),
      all_day: fc.boolean(),
      featured: fc.boolean(),
      venue: fc.integer({ min: 1, max: 10_000 }),
      website: fc.webUrl(),
    });
    fc.assert(
      fc.property(fc.constantFrom(tec, custom), values, (mapping, v) => {
        const body = writeRecord(mapping, 'event', v) as { title: string; meta: Record<string, never> };
        const meta = Object.fromEntries(Object.entries(body.meta).filter(([, x]) => x !== null));
        const back = readRecord(mapping, 'event', post({ title: { rendered: '', raw: body.title }, meta }));
        expect(back).toMatchObject(v);
      }),
    );
  });
});
