// Password blanking as TEC's remove_password_protected_content does it, at any depth.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankProtected, PASSWORD_PROTECTED_FIELDS } from './protect.ts';

const PROTECTED = Object.keys(PASSWORD_PROTECTED_FIELDS);

function protectedValuesAt(value: unknown, found: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(value)) for (const v of value) protectedValuesAt(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (PROTECTED.includes(k)) found.push([k, v]);
      else protectedValuesAt(v, found);
    }
  }
  return found;
}

describe('blankProtected', () => {
  it('blanks the protected keys of an event and keeps title and dates', () => {
    const out = blankProtected({
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

  // TEC blanks by key name, so a protected venue's own name (key `venue`) becomes [] too.
  it('blanks nested venue fields but keeps the venue name, which is a title', () => {
    const out = blankProtected([
      { venue: 'Hall', address: 'a', geo_lat: 1.5, state: 'NY', json_ld: { address: {} } },
    ]);
    expect(out).toEqual([{ venue: 'Hall', address: '', geo_lat: 0, state: '', json_ld: { address: '' } }]);
  });

  it('blanks the venue and organizers linked from an event', () => {
    expect(blankProtected({ venue: { id: 1, venue: 'Hall' }, organizer: [{ id: 2 }] })).toEqual({
      venue: [],
      organizer: [],
    });
  });

  it('does not share replacement objects between records', () => {
    const [a, b] = [blankProtected({ tags: ['x'] }), blankProtected({ tags: ['y'] })];
    (a.tags as unknown as string[]).push('mutated');
    expect(b.tags).toEqual([]);
  });

  it('leaves every protected key, at any depth, holding its blank value', () => {
    const key = fc.oneof(fc.constantFrom(...PROTECTED, 'title', 'start_date'), fc.string());
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (value) => {
        for (const [k, v] of protectedValuesAt(blankProtected(value))) {
          // A venue's or organizer's own name (a string) is kept: a deliberate difference from TEC.
          if ((k === 'venue' || k === 'organizer') && typeof v === 'string') continue;
          expect(v).toEqual(PASSWORD_PROTECTED_FIELDS[k]);
        }
      }),
    );
  });
});
