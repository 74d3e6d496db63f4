// Pure parts of discovery and /doc: argument entries, root filtering, route order, computed defaults, site index.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ArgDef } from '../contract/args.ts';
import { allContracts } from '../contract/index.ts';
import { describeArg } from './describe.ts';
import { openApiDocument } from './openapi.ts';
import { type DescribeEnv, documentedArgs, groupRoutes, shownEndDefault, shownStartDefault } from './root.ts';
import { augmentSiteIndex } from './site-index.ts';

const primary: DescribeEnv = {
  root: { lang: 'en', secondary: false },
  now: new Date('2026-03-10T12:00:00Z'),
  timezone: 'UTC',
};
const secondary: DescribeEnv = { ...primary, root: { lang: 'es', secondary: true } };
const arg = (extra: Partial<ArgDef>): ArgDef => ({
  type: 'string',
  description: { en: 'E', es: 'S' },
  schema: z.unknown(),
  ...extra,
});

describe('describeArg', () => {
  it.each([
    ['a plain optional string', arg({}), primary, { required: false, description: 'E', type: 'string' }],
    [
      'a required integer',
      arg({ type: 'integer', required: true }),
      primary,
      { required: true, description: 'E', type: 'integer' },
    ],
    [
      'a default',
      arg({ default: 10 }),
      primary,
      { required: false, default: 10, description: 'E', type: 'string' },
    ],
    [
      'an enum in Spanish',
      arg({ enum: ['en', 'es'] }),
      secondary,
      { required: false, description: 'S', type: 'string', enum: ['en', 'es'] },
    ],
    [
      'an array with items',
      arg({ type: 'array', items: 'integer', csv: true }),
      primary,
      { required: false, description: 'E', type: 'array', items: { type: 'integer' } },
    ],
    [
      'a computed default',
      arg({ shownDefault: 'list-end' }),
      primary,
      { required: false, default: '2028-03-10 12:00:00', description: 'E', type: 'string' },
    ],
  ])('shows %s with only schema keywords', (_name, def, env, expected) => {
    expect(describeArg(def, env)).toEqual(expected);
  });
});

describe('documentedArgs', () => {
  it('drops secondary-only arguments on the primary root and keeps order everywhere', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), fc.boolean()), { selector: ([n]) => n }),
        (spec) => {
          const shape = Object.fromEntries(
            spec.map(([name, only]) => [name, arg(only ? { roots: 'secondary' } : {})]),
          );
          expect(documentedArgs(shape, primary.root).map(([n]) => n)).toEqual(
            spec.filter(([, o]) => !o).map(([n]) => n),
          );
          expect(documentedArgs(shape, secondary.root).map(([n]) => n)).toEqual(spec.map(([n]) => n));
        },
      ),
    );
  });
  it('never documents arguments read from the raw request only', () => {
    const shape = { a: arg({}), b: arg({ roots: 'none' }), c: arg({ roots: 'secondary' }) };
    expect(documentedArgs(shape, primary.root).map(([n]) => n)).toEqual(['a']);
    expect(documentedArgs(shape, secondary.root).map(([n]) => n)).toEqual(['a', 'c']);
  });
});

describe('groupRoutes', () => {
  it('gives the same routes and endpoint order whatever order the contracts are registered in', () => {
    const contracts = allContracts();
    const shape = (list: typeof contracts) =>
      groupRoutes(list).map((g) => [g.path, g.contracts.map((c) => c.id)]);
    const expected = shape(contracts);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(contracts, { minLength: contracts.length, maxLength: contracts.length }),
        (shuffled) => {
          // Each route has at most one read, one delete and one create/edit contract, so the order is total.
          expect(shape(shuffled)).toEqual(expected);
        },
      ),
    );
  });

  it('puts reads first, then deletes, then edits on single-record routes', () => {
    const single = groupRoutes(allContracts()).find((g) => g.path === '/events/{id}');
    expect(single?.contracts.map((c) => c.methods.join())).toEqual(['GET', 'DELETE', 'POST,PUT,PATCH']);
  });
});

describe('computed defaults of the list window', () => {
  it.each([
    ['UTC', '2026-03-09 23:59:00'],
    ['Europe/Madrid', '2026-03-10 00:59:00'],
    ['America/New_York', '2026-03-09 19:59:00'],
    ['UTC+5:30', '2026-03-10 05:29:00'],
  ])('shows start_date as yesterday 23:59 UTC in the site zone (%s)', (timezone, expected) => {
    expect(shownStartDefault({ now: primary.now, timezone })).toBe(expected);
  });

  it('shows end_date as now plus 24 months on the UTC clock', () => {
    expect(shownEndDefault({ now: primary.now, timezone: 'Europe/Madrid' })).toBe('2028-03-10 12:00:00');
  });

  it('shows end_date 24 months on as PHP counts them: from 29 February, on 1 March', () => {
    expect(shownEndDefault({ now: new Date('2028-02-29T10:00:00Z'), timezone: 'UTC' })).toBe(
      '2030-03-01 10:00:00',
    );
  });

  it('always shows both in Y-m-d H:i:s form with the end after the start', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }),
        fc.constantFrom('UTC', 'Europe/Madrid', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC-9:30'),
        (now, timezone) => {
          const start = shownStartDefault({ now, timezone });
          const end = shownEndDefault({ now, timezone });
          expect(start).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
          expect(end).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
          expect(end > start).toBe(true);
        },
      ),
    );
  });
});

describe('openApiDocument', () => {
  const doc = openApiDocument(allContracts(), primary, 'https://example.test/wp-json/calendar/events/v1') as {
    paths: Record<string, Record<string, { parameters?: Array<Record<string, unknown>> }>>;
  };

  it('declares every path template variable as a required path parameter without form style', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const vars = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(item)) {
        const inPath = (op.parameters ?? []).filter((p) => p.in === 'path');
        expect(inPath.map((p) => p.name)).toEqual(vars);
        for (const p of inPath) {
          expect(p.required).toBe(true);
          expect(p.style).toBeUndefined();
        }
      }
    }
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('augmentSiteIndex', () => {
  it('adds the namespace once, after the upstream ones, and keeps the upstream routes', () => {
    const upstream = { name: 'Site', namespaces: ['wp/v2'], routes: { '/wp/v2': { namespace: 'wp/v2' } } };
    const once = augmentSiteIndex(upstream, { '/calendar/events/v1': { namespace: 'calendar/events/v1' } });
    expect(once.namespaces).toEqual(['wp/v2', 'calendar/events/v1']);
    expect(Object.keys(once.routes as object)).toEqual(['/wp/v2', '/calendar/events/v1']);
    expect(augmentSiteIndex(once, {}).namespaces).toEqual(once.namespaces);
    expect(once.name).toBe('Site');
  });
});
