// Cache keys: equal requests share a key whatever their parameter order or list form; different requests never do.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey, hashedKey, normaliseParams } from './key.ts';

const base = {
  route: 'events.list',
  language: 'en',
  audience: 'anonymous',
  base: 'https://api.example.com/wp-json',
};

describe('normaliseParams', () => {
  it.each([
    [{ b: '2', a: '1' }, 'a=1&b=2'],
    [{ categories: ['3', '4'] }, 'categories=3%2C4'],
    [{ categories: '3,4' }, 'categories=3%2C4'],
    [{ a: { b: '1' } }, 'a%5Bb%5D=1'],
    [{ a: undefined, b: 'x y' }, 'b=x%20y'],
    [{ per_page: 10 }, 'per_page=10'],
    [{}, ''],
  ])('normalises %j to %s', (params, expected) => {
    expect(normaliseParams(params)).toBe(expected);
  });
});

const params = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 6 }),
  fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  ),
  { maxKeys: 5 },
);

describe('cacheKey', () => {
  it('does not depend on the order of the parameters', () => {
    fc.assert(
      fc.property(params, (p) => {
        const reversed = Object.fromEntries(Object.entries(p).reverse());
        expect(cacheKey({ ...base, params: reversed })).toBe(cacheKey({ ...base, params: p }));
      }),
    );
  });

  it('gives different keys to different parameter values', () => {
    fc.assert(
      fc.property(
        params,
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.string(),
        fc.string(),
        (p, k, v1, v2) => {
          fc.pre(v1 !== v2);
          expect(cacheKey({ ...base, params: { ...p, [k]: v1 } })).not.toBe(
            cacheKey({ ...base, params: { ...p, [k]: v2 } }),
          );
        },
      ),
    );
  });

  it.each([
    ['route', { route: 'events.read' }],
    ['language', { language: 'es' }],
    ['audience', { audience: 'user:abc' }],
    ['public base URL', { base: 'http://localhost:3000/wp-json' }],
  ])('changes with the %s', (_name, change) => {
    expect(cacheKey({ ...base, params: {}, ...change })).not.toBe(cacheKey({ ...base, params: {} }));
  });

  it('cannot be forged by a value containing the separator', () => {
    const a = cacheKey({ ...base, language: 'en|anonymous', audience: 'x', params: {} });
    const b = cacheKey({ ...base, language: 'en', audience: 'anonymous|x', params: {} });
    expect(a).not.toBe(b);
  });

  it('hashes to a fixed-length Redis key', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(hashedKey(s)).toHaveLength(43);
      }),
    );
  });
});
