// Cache keys: equal arguments share a key whatever their order; different arguments never do.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey, canonicalArgs, hashedKey } from './key.ts';

const base = {
  route: 'events.list',
  language: 'en',
  audience: 'anonymous',
  base: 'https://api.example.com/wp-json',
};

describe('canonicalArgs', () => {
  it.each([
    [{ b: '2', a: '1' }, 'a=%221%22&b=%222%22'],
    [{ categories: ['3', 'jazz'] }, 'categories=%5B%223%22%2C%22jazz%22%5D'],
    [{ a: { d: 1, c: true } }, 'a=%7B%22c%22%3Atrue%2C%22d%22%3A1%7D'],
    [{ a: undefined, b: 'x y' }, 'b=%22x%20y%22'],
    [{ per_page: 10, featured: false }, 'featured=false&per_page=10'],
    [{}, ''],
  ])('writes %j as %s', (args, expected) => {
    expect(canonicalArgs(args)).toBe(expected);
  });

  it.each([
    ['a list and one item holding its comma', { c: ['a', 'b'] }, { c: ['a,b'] }],
    ['a number and its text', { page: 1 }, { page: '1' }],
    ['true and its text', { featured: true }, { featured: 'true' }],
    ['an empty list and an absent one', { c: [] }, {}],
  ])('keeps apart %s', (_name, a, b) => {
    expect(canonicalArgs(a)).not.toBe(canonicalArgs(b));
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
  it('does not depend on the order of the arguments', () => {
    fc.assert(
      fc.property(params, (p) => {
        const reversed = Object.fromEntries(Object.entries(p).reverse());
        expect(cacheKey({ ...base, args: reversed })).toBe(cacheKey({ ...base, args: p }));
      }),
    );
  });

  it('gives different keys to different argument values', () => {
    fc.assert(
      fc.property(
        params,
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.string(),
        fc.string(),
        (p, k, v1, v2) => {
          fc.pre(v1 !== v2);
          expect(cacheKey({ ...base, args: { ...p, [k]: v1 } })).not.toBe(
            cacheKey({ ...base, args: { ...p, [k]: v2 } }),
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
    expect(cacheKey({ ...base, args: {}, ...change })).not.toBe(cacheKey({ ...base, args: {} }));
  });

  it('cannot be forged by a value containing the separator', () => {
    const a = cacheKey({ ...base, language: 'en|anonymous', audience: 'x', args: {} });
    const b = cacheKey({ ...base, language: 'en', audience: 'anonymous|x', args: {} });
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
