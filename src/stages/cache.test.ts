// The shared cache's key is made of the parsed arguments: what the route does not take cannot split it.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cacheKey } from '../cache/key.ts';
import { ResponseCache } from '../cache/response-cache.ts';
import type { ArgDef } from '../contract/args.ts';
import { eventRoutes } from '../contract/events.ts';
import { READABLE, type RouteContract } from '../contract/route.ts';
import { FORMATS } from '../formats.ts';
import { apiRouter } from '../http/adapter.ts';
import { GLOBAL_PARAMS } from '../http/globals.ts';
import type { Binding } from '../http/handler.ts';
import { parseArgs } from '../http/parse-args.ts';
import { createLogger } from '../log.ts';
import { cacheStage, isShareable } from './cache.ts';
import { handle } from './handle.ts';
import { parse } from './parse.ts';
import { render } from './render.ts';

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

/** A readable route whose one argument records every time its schema runs, and whose handler records its calls. */
function recorded(seen: string[]): Binding {
  const when: ArgDef<string> = {
    type: 'string',
    description: { en: '', es: '' },
    schema: z.unknown().transform((v, ctx) => {
      seen.push('parse');
      if (v === 'boom') throw new Error('a parser bug');
      if (v === 'bad') ctx.addIssue({ code: 'custom', message: 'must not be bad.' });
      return String(v).trim();
    }),
  };
  const contract: RouteContract = {
    id: 'things.list',
    pattern: '/things',
    path: '/things',
    methods: READABLE,
    summary: { en: '', es: '' },
    args: { when },
  };
  return {
    contract,
    handler: async ({ args }) => {
      seen.push('handle');
      return { body: args };
    },
  };
}

describe('the cache stage in the request path', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });

  async function serve(seen: string[]): Promise<string> {
    const log = createLogger('silent');
    const cache = new ResponseCache({
      policy: { ttlSeconds: 60, staleWhileRevalidateSeconds: 5, staleIfErrorSeconds: 60 },
    });
    const app = express();
    app.use(
      '/api',
      apiRouter([recorded(seen)], {
        prefix: '/api',
        defaultLanguage: 'en',
        home: 'http://site.test',
        timezone: 'UTC',
        log,
        stages: [cacheStage(cache, FORMATS), render(log), parse(FORMATS), handle],
      }),
    );
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/things`;
  }

  it('parses each request once for the key and the handler, and answers other spellings from the entry', async () => {
    const seen: string[] = [];
    const url = await serve(seen);
    const first = await fetch(`${url}?when=now&utm_source=a`);
    expect(await first.json()).toEqual({ when: 'now' });
    // One parse serves the cache key and the handler.
    expect(seen.splice(0)).toEqual(['parse', 'handle']);
    const other = await fetch(`${url}?fbclid=b&when=%20now%20`);
    expect(other.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(seen.splice(0)).toEqual(['parse']);
    // The same URL again through express (a cookie keeps it off the fast path): its key is known, nothing is parsed.
    const again = await fetch(`${url}?fbclid=b&when=%20now%20`, { headers: { Cookie: '_ga=GA1.2.3' } });
    expect(again.status).toBe(200);
    expect(seen.splice(0)).toEqual([]);
  });

  it('refuses a bad argument with its 400 after one parse, and stores nothing', async () => {
    const seen: string[] = [];
    const url = await serve(seen);
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${url}?when=bad&utm_source=${i}`);
      expect(r.status).toBe(400);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(seen.splice(0)).toEqual(['parse']);
    }
  });

  it('answers a parser that throws as the parse stage always did: an error body from render, no stack trace', async () => {
    const seen: string[] = [];
    const url = await serve(seen);
    const r = await fetch(`${url}?when=boom`);
    expect(r.status).toBe(500);
    const body = (await r.json()) as { code: string; data: { status: number } };
    expect(body.data.status).toBe(500);
    expect(JSON.stringify(body)).not.toContain('parser bug');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
});
