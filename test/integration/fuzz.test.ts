// Property tests over every route of the contract: whatever the parameters or body, never a 500, and every error has
// WordPress's shape. Writes go where they cannot succeed (a subscriber, or an id that does not exist).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allContracts } from '../../src/contract/index.ts';
import type { RouteContract } from '../../src/contract/route.ts';
import { type CallResult, call, openTarget, type Role, type Target } from '../harness.ts';
import type { Json } from './fixtures.ts';

/**
 * A fixed seed by default, so CI runs the same inputs every time and a failure can be replayed; `FUZZ_SEED=random`
 * (with a larger FUZZ_RUNS) explores new ones, as fast-check prints the seed of any failure.
 */
const FUZZ_SEED = process.env.FUZZ_SEED === 'random' ? undefined : Number(process.env.FUZZ_SEED ?? 20261122);

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t?.close();
});

/** Fewer runs against the real WordPress, where each call costs tens of milliseconds; FUZZ_RUNS for a long hunt. */
const runs = () => Number(process.env.FUZZ_RUNS ?? (t.kind === 'mock' ? 40 : 15));
const MISSING = '99999999';

const scalar = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1.5',
    'true',
    'false',
    'null',
    'now',
    '2031-01-01',
    '1e309',
    '%',
    'ñ',
    '😀',
    'a,b',
  ),
);

/** A query entry in one of PHP's shapes: `a=v`, `a[]=v…` or `a[k]=v`. */
const queryEntry = (names: string[]) =>
  fc.tuple(
    fc.constantFrom(...names, 'junk', '_fields', '_embed', 'page', 'per_page'),
    fc.oneof(
      scalar.map((v) => [['', v]] as Array<[string, string]>),
      fc.array(scalar, { maxLength: 3 }).map((vs) => vs.map((v) => ['[]', v] as [string, string])),
      fc
        .tuple(fc.string({ maxLength: 4 }), scalar)
        .map(([k, v]) => [[`[${k}]`, v]] as Array<[string, string]>),
    ),
  );

const queryOf = (entries: Array<[string, Array<[string, string]>]>): string =>
  entries
    .flatMap(([name, parts]) =>
      parts.map(([suffix, v]) => `${encodeURIComponent(name)}${encodeURI(suffix)}=${encodeURIComponent(v)}`),
    )
    .join('&');

/** JSON values of every shape a client could send. */
const jsonValue = fc.oneof(
  scalar,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }),
);

const bodyOf = (names: string[]) =>
  fc.dictionary(fc.constantFrom(...names, 'junk', 'id'), jsonValue, { maxKeys: 6 });

/** A concrete path for a route: an id that does not exist, or a slug. */
const pathOf = (c: RouteContract, slug: string) =>
  c.path.replace('{id}', MISSING).replace('{slug}', encodeURIComponent(slug || 'x'));

function expectWordPressShape(res: CallResult, what: string): void {
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 400) {
    const body = res.body as Json;
    expect(typeof body.code, what).toBe('string');
    expect(typeof body.message, what).toBe('string');
    expect((body.data as Json)?.status, what).toBe(res.status);
  }
}

const contracts = allContracts().filter((c) => c.path !== '/doc' && c.path !== '/');

describe('never a 500, whatever the input', () => {
  it.each(contracts.filter((c) => c.methods.includes('GET')).map((c) => [c.id, c] as const))(
    'GET %s with random parameters',
    async (_id, c) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(queryEntry(Object.keys(c.args)), { maxLength: 5 }),
          fc.string({ maxLength: 8 }),
          fc.constantFrom<Role | undefined>(undefined, 'editor'),
          async (entries, slug, as) => {
            const path = `${pathOf(c, slug)}?${queryOf(entries)}`;
            expectWordPressShape(await call(t, 'GET', path, { as }), path);
          },
        ),
        { numRuns: runs(), seed: FUZZ_SEED },
      );
    },
  );

  const writes = contracts.flatMap((c) =>
    c.methods.filter((m) => m !== 'GET').map((m) => [`${m} ${c.id}`, m, c] as const),
  );
  it.each(writes)('%s with a random body, where it cannot succeed', async (_name, method, c) => {
    // Collections refuse a subscriber; single routes point at an id that does not exist.
    const as: Role = c.path.includes('{') ? 'admin' : 'subscriber';
    await fc.assert(
      fc.asyncProperty(bodyOf(Object.keys(c.args)), fc.string({ maxLength: 8 }), async (body, slug) => {
        const path = pathOf(c, slug);
        const res = await call(t, method, path, { as, body });
        expectWordPressShape(res, `${method} ${path} ${JSON.stringify(body)}`);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: runs(), seed: FUZZ_SEED },
    );
  });
});
