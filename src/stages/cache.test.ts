// The shared cache's key is made of the parsed arguments: what the route does not take cannot split it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../cache/key.ts';
import { eventRoutes } from '../contract/events.ts';
import { FORMATS } from '../formats.ts';
import { GLOBAL_PARAMS } from '../http/globals.ts';
import { parseArgs } from '../http/parse-args.ts';
import { isShareable } from './cache.ts';

const shape = eventRoutes.list.args;

/** The key the cache stage gives an anonymous read of the list with this query (null: a 400, never stored). */
function keyOf(raw: Record<string, unknown>): string | null {
  const parsed = parseArgs(shape, raw, FORMATS);
  if (!parsed.ok) return null;
  return cacheKey({
    route: 'events.list',
    args: parsed.args as Record<string, unknown>,
    language: 'en',
    audience: 'anonymous',
    base: 'https://api.example/wp-json/calendar/events/v1',
  });
}

/** Parameter names no list argument has (tracking parameters, made-up names, other cases of real ones). */
const junkName = fc
  .oneof(
    fc.constantFrom(
      'utm_source',
      'utm_medium',
      'fbclid',
      'gclid',
      'msclkid',
      '_ga',
      'mc_cid',
      'lang',
      'PER_PAGE',
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
    ...GLOBAL_PARAMS.map((p) => fc.constant(p)),
  )
  .filter((n) => !(n in shape) && n !== '__proto__');
const junkValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);

/** Valid list queries, as a query string parses them. */
const query = fc.record(
  {
    per_page: fc.integer({ min: 1, max: 60 }).map(String),
    page: fc.integer({ min: 1, max: 5 }).map(String),
    search: fc.constantFrom('jazz', 'trio night'),
    featured: fc.constantFrom('1', '0', 'true', 'FALSE'),
    categories: fc.constantFrom('jazz', 'jazz,3', ['3', 'jazz']),
    start_date: fc.constantFrom('2030-01-01', 'tomorrow'),
  },
  { requiredKeys: [] },
);

describe('the cache key of an anonymous list read', () => {
  it('ignores every parameter the route does not take, whatever its value', () => {
    fc.assert(
      fc.property(query, fc.dictionary(junkName, junkValue, { maxKeys: 6 }), (q, junk) => {
        expect(keyOf({ ...junk, ...q })).toBe(keyOf(q));
      }),
    );
  });

  it.each([
    ['leading zeros', { per_page: '07' }, { per_page: '7' }],
    ['a default sent', { per_page: '10', page: '1', strict_dates: 'false' }, {}],
    ['the cap of per_page', { per_page: '500' }, { per_page: '50' }],
    ['a boolean spelt otherwise', { featured: 'TRUE' }, { featured: '1' }],
    ['a comma list and an array', { categories: 'jazz, 3' }, { categories: ['jazz', '3'] }],
  ])('is one for %s', (_name, a, b) => {
    expect(keyOf(a)).not.toBeNull();
    expect(keyOf(a)).toBe(keyOf(b));
  });

  it.each([
    ['another page', { page: '2' }, {}],
    ['terms in another order', { categories: '3,jazz' }, { categories: 'jazz,3' }],
    ['a slug and its id', { categories: 'jazz' }, { categories: '3' }],
    ['another search', { search: 'Jazz' }, { search: 'jazz' }],
  ])('differs for %s', (_name, a, b) => {
    expect(keyOf(a)).not.toBe(keyOf(b));
  });
});

describe('isShareable', () => {
  it('never shares an answer to a request carrying a password, declared or not', () => {
    expect(isShareable('GET', true, {}, {})).toBe(true);
    expect(isShareable('GET', true, { password: 'x' }, {})).toBe(false);
    expect(isShareable('GET', true, {}, { password: 'x' })).toBe(false);
    expect(isShareable('GET', false, {}, {})).toBe(false);
    expect(isShareable('POST', true, {}, {})).toBe(false);
  });
});
