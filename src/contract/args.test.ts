import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boolean, idList, list, nonEmptyString, positiveInt } from './args.ts';

describe('positiveInt (TEC is_positive_int)', () => {
  it.each([
    [1, 1],
    ['7', 7],
    [' 12 ', 12],
  ])('accepts %j as %j', (raw, n) => expect(positiveInt.parse(raw)).toBe(n));

  it.each([0, -1, '0', '1.5', 'abc', '', '1e3'])('refuses %j', (raw) => {
    expect(positiveInt.safeParse(raw).success).toBe(false);
  });

  it('accepts exactly the whole numbers above zero', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), (n) => {
        expect(positiveInt.safeParse(String(n)).success).toBe(n > 0);
      }),
    );
  });
});

describe('boolean (WordPress rest_sanitize_boolean)', () => {
  it.each([
    [true, true],
    ['true', true],
    ['1', true],
    [1, true],
    [false, false],
    ['false', false],
    ['0', false],
    [0, false],
  ])('reads %j as %j', (raw, b) => expect(boolean('x').parse(raw)).toBe(b));

  it.each(['yes', 'maybe', 2, [], {}])('refuses %j with "is not of type boolean."', (raw) => {
    const r = boolean('featured').safeParse(raw);
    expect(r.success ? '' : r.error.issues[0]?.message).toBe('featured is not of type boolean.');
  });
});

describe('lists', () => {
  it('reads a CSV and an array alike', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9-]{1,8}$/), { maxLength: 6 }), (items) => {
        expect(list.parse(items.join(','))).toEqual(list.parse(items));
      }),
    );
  });

  it('needs every item of an id list to be a positive integer', () => {
    expect(idList.parse('3, 5')).toEqual([3, 5]);
    expect(idList.safeParse('3,x').success).toBe(false);
    expect(idList.safeParse([]).success).toBe(false);
  });

  it('refuses an empty string or a non-string where TEC wants a non-empty string', () => {
    expect(nonEmptyString.safeParse('  ').success).toBe(false);
    expect(nonEmptyString.safeParse({}).success).toBe(false);
    expect(nonEmptyString.safeParse(42).success).toBe(false);
    expect(nonEmptyString.parse('42')).toBe('42');
  });
});
