// Tests for venue/organizer write values: only what was sent, TEC's status scaling, stateprovince, duplicates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LinkedFacets } from './catalog.ts';
import { findDuplicate, stateProvinceOf, valuesOf } from './write.ts';

const now = new Date('2026-03-10T12:00:00Z');
const opts = (extra: Partial<Parameters<typeof valuesOf>[2]> = {}) => ({
  canPublish: true,
  create: false,
  timezone: 'Europe/Madrid',
  now,
  ...extra,
});

describe('valuesOf', () => {
  it.each([
    [
      'a create without status publishes for publishers',
      { venue: 'V' },
      { canPublish: true, create: true },
      'publish',
    ],
    [
      'a create without status is a draft for contributors',
      { venue: 'V' },
      { canPublish: false, create: true },
      'draft',
    ],
    [
      'publish becomes pending for contributors',
      { venue: 'V', status: 'publish' },
      { canPublish: false, create: true },
      'pending',
    ],
    [
      'an update without status keeps the status',
      { city: 'X' },
      { canPublish: true, create: false },
      undefined,
    ],
  ])('%s', (_label, args, o, status) => {
    expect(valuesOf('venue', args, opts(o)).status).toBe(status);
  });

  it('carries only the fields that were sent', () => {
    expect(valuesOf('organizer', { phone: '1', email: '' }, opts())).toEqual({ phone: '1', email: '' });
    expect(valuesOf('venue', { show_map: false }, opts())).toEqual({ show_map: false });
  });

  it('ignores venue-only fields on organizers', () => {
    expect(valuesOf('organizer', { city: 'X', show_map: true }, opts())).toEqual({});
  });

  it('stores publication dates as wall clocks of the site and of UTC', () => {
    const v = valuesOf('venue', { date: '2024-05-10 14:30', date_utc: '2024-05-10T14:30:00+02:00' }, opts());
    expect(v.date).toBe('2024-05-10 14:30:00');
    expect(v.date_utc).toBe('2024-05-10 12:30:00');
  });

  it('refuses a date PHP cannot parse', () => {
    expect(() => valuesOf('venue', { date: 'not a date at all' }, opts())).toThrow();
  });

  it('derives stateprovince from the merged current and sent values', () => {
    const current = { country: 'Spain', state: 'S', province: 'P' };
    expect(valuesOf('venue', { country: 'United States' }, opts({ current })).stateprovince).toBe('S');
    expect(valuesOf('venue', { province: 'Q' }, opts({ current })).stateprovince).toBe('Q');
    expect(
      valuesOf('venue', { province: 'Q', stateprovince: 'given' }, opts({ current })).stateprovince,
    ).toBe('given');
    expect(valuesOf('venue', { city: 'C' }, opts({ current }))).not.toHaveProperty('stateprovince');
  });
});

describe('stateProvinceOf', () => {
  it.each([
    [{ country: 'United States', state: 'IL', province: 'x' }, 'IL'],
    [{ country: '', state: 'IL', province: 'x' }, 'IL'],
    [{ country: 'USA', state: 'NY' }, 'NY'],
    [{ country: 'Spain', state: 'x', province: 'Madrid' }, 'Madrid'],
    [{ country: 'Canada', province: 'ON' }, 'ON'],
  ])('%o → %s', (input, expected) => {
    expect(stateProvinceOf(input)).toBe(expected);
  });
});

const facet = (id: number, status: string, values: Record<string, string>): LinkedFacets => ({
  id,
  status,
  slug: `s${id}`,
  date: '2020-01-01 00:00:00',
  name: values.venue ?? values.organizer ?? '',
  values,
  searchText: '',
  author: 1,
  protected: false,
  openText: '',
});

describe('findDuplicate', () => {
  const items = [
    facet(7, 'publish', { venue: 'Hall', city: 'Madrid', address: '1 St' }),
    facet(3, 'draft', { venue: 'Hall', city: 'Madrid' }),
    facet(9, 'trash', { venue: 'Barn', city: 'Rome' }),
  ];

  it.each([
    ['the lowest id among records with the same name and sent fields', { venue: 'Hall', city: 'Madrid' }, 3],
    ['a match on every sent field only', { venue: 'Hall', city: 'Madrid', address: '1 St' }, 7],
    ['nothing when a sent field differs', { venue: 'Hall', city: 'Paris' }, undefined],
    ['nothing when the name differs', { venue: 'Hall 2' }, undefined],
    ['never a trashed record', { venue: 'Barn', city: 'Rome' }, undefined],
    ['a match ignoring surrounding spaces', { venue: ' Hall ', city: 'Madrid ' }, 3],
    ['a match ignoring case, as MySQL compares', { venue: 'HALL', city: 'madrid' }, 3],
  ])('finds %s', (_label, values, id) => {
    expect(findDuplicate('venue', items, values)?.id).toBe(id);
  });

  it('finds a record from its own values, and nothing for a name no record has', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 8,
          selector: (n) => n.trim().toLowerCase(),
        }),
        fc.string({ maxLength: 6 }),
        fc.nat(),
        (names, other, pick) => {
          const list = names.map((n, i) => facet(i + 1, 'publish', { organizer: n, phone: `p${i}` }));
          const target = list[pick % list.length];
          expect(findDuplicate('organizer', list, { ...target.values })?.id).toBe(target.id);
          if (!names.some((n) => n.trim().toLowerCase() === other.trim().toLowerCase())) {
            expect(findDuplicate('organizer', list, { organizer: other })).toBeUndefined();
          }
        },
      ),
    );
  });
});
