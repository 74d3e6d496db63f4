import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ArgDef, boolean, idList, list, nonEmptyString, parseArgs, positiveInt } from './args.ts';
import { listEventsArgs } from './events.ts';

const d = { en: '', es: '' };

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

describe('parseArgs', () => {
  const shape = {
    id: { type: 'integer', required: true, description: d, schema: positiveInt } satisfies ArgDef<number>,
    page: { type: 'integer', default: 1, description: d, schema: positiveInt } satisfies ArgDef<number>,
    q: { type: 'string', description: d, schema: z.string() } satisfies ArgDef<string>,
  };

  it('reports missing required arguments before anything else', () => {
    expect(parseArgs(shape, { page: 'x' })).toEqual({ ok: false, missing: ['id'] });
  });

  it('reports every invalid argument with its name and why it was refused', () => {
    const r = parseArgs(shape, { id: '0', page: 'x' });
    expect(r).toEqual({
      ok: false,
      invalid: [
        { name: 'id', message: 'id must be a whole number greater than 0.' },
        { name: 'page', message: 'page must be a whole number greater than 0.' },
      ],
    });
  });

  it('fills defaults, ignores unknown parameters and treats null as absent', () => {
    expect(parseArgs(shape, { id: '4', q: null, other: 'x' })).toEqual({
      ok: true,
      args: { id: 4, page: 1 },
    });
  });

  it('caps per_page at 50 silently, as TEC does', () => {
    const r = parseArgs(listEventsArgs, { per_page: '500' });
    expect(r.ok && r.args.per_page).toBe(50);
  });

  it('never throws on arbitrary query-shaped input to the events list', () => {
    const value = fc.oneof(
      fc.string(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string(), fc.string()),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...Object.keys(listEventsArgs), 'x'), value), (raw) => {
        const r = parseArgs(listEventsArgs, raw);
        expect(typeof r.ok).toBe('boolean');
      }),
    );
  });
});
