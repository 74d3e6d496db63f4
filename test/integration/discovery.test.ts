// GET /calendar/events/v1 (the namespace index) and GET /wp-json/ (the site index) on the primary root.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { expectError, type Json } from './fixtures.ts';
import {
  PASSWORD_ON_SECONDARY,
  SPEC,
  SPEC_DEFAULTS,
  SPEC_NULL_DEFAULTS,
  SPEC_UNTYPED,
} from './spec-routes.ts';

const NS = 'calendar/events/v1';
type Endpoint = { methods: string[]; args: Record<string, Json> };
type RouteData = { namespace: string; methods: string[]; endpoints: Endpoint[]; _links?: Json };

let t: Target;
let index: { namespace: string; routes: Record<string, RouteData>; _links: Json };

/** The endpoint of a route that serves exactly these methods. */
const endpointOf = (pattern: string, methods: string[]): Endpoint | undefined =>
  index.routes[`/${NS}${pattern}`]?.endpoints.find((e) => e.methods.join() === methods.join());

beforeAll(async () => {
  t = await openTarget();
  const res = await call<typeof index>(t, 'GET', '');
  expect(res.status).toBe(200);
  index = res.body;
});

afterAll(async () => {
  await t?.close();
});

describe('the namespace index', () => {
  it('names the namespace and links up to the site index of this gateway', () => {
    expect(index.namespace).toBe(NS);
    // WordPress's `up`, plus `help`: the API reference page (an addition, docs/differences.md).
    expect(index._links).toEqual({
      up: [{ href: `${t.gateway.url}/wp-json/` }],
      help: [{ href: `${t.gateway.url}/calendar-gateway/v1/reference/` }],
    });
  });

  it('answers the same with a trailing slash, with namespace and context given, and to HEAD', async () => {
    const slash = await call(t, 'GET', '/');
    expect(slash.status).toBe(200);
    expect(Object.keys(slash.body.routes as Json)).toEqual(Object.keys(index.routes));
    const explicit = await call(t, 'GET', `?namespace=${encodeURIComponent(NS)}&context=view`);
    expect(explicit.status).toBe(200);
    expect(explicit.body.namespace).toBe(NS);
    const head = await fetch(t.api, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('refuses a namespace it does not serve with rest_invalid_namespace', async () => {
    expectError(await call(t, 'GET', '?namespace=wp/v2'), 404, 'rest_invalid_namespace');
  });

  it('refuses a language outside the enum and any method but GET', async () => {
    expectError(await call(t, 'GET', '?multilang_language=fr'), 400, 'rest_invalid_param');
    expectError(await call(t, 'POST', '', { body: {} }), 404, 'rest_no_route');
  });

  it('keys every route by its raw regex with the namespace prefix, each with its namespace', () => {
    for (const [key, route] of Object.entries(index.routes)) {
      expect(key.startsWith(`/${NS}`)).toBe(true);
      expect(route.namespace).toBe(NS);
      expect(route.methods).toEqual(route.endpoints.flatMap((e) => e.methods));
    }
    expect(Object.keys(index.routes)[0]).toBe(`/${NS}`);
  });

  it('links only the routes without parameters to themselves', () => {
    for (const [key, route] of Object.entries(index.routes)) {
      if (key.includes('(?P<')) expect(route._links).toBeUndefined();
      else expect(route._links).toEqual({ self: [{ href: `${t.gateway.url}/wp-json${key}` }] });
    }
  });

  it('lists itself with the namespace and context arguments and their defaults', () => {
    const args = endpointOf('', ['GET'])?.args;
    expect(args?.namespace).toMatchObject({ required: false, default: NS });
    expect(args?.context).toMatchObject({ required: false, default: 'view' });
  });

  it('orders single-record endpoints read, delete, then edit, and collections read then create', () => {
    const events = index.routes[`/${NS}/events`];
    expect(events?.endpoints.map((e) => e.methods)).toEqual([['GET'], ['POST']]);
    const single = index.routes[`/${NS}/events/(?P<id>\\d+)`];
    expect(single?.endpoints.map((e) => e.methods)).toEqual([['GET'], ['DELETE'], ['POST', 'PUT', 'PATCH']]);
  });

  it('offers the language argument with its enum on every endpoint', () => {
    for (const route of Object.values(index.routes)) {
      for (const e of route.endpoints) {
        expect(e.args.multilang_language).toMatchObject({
          required: false,
          type: 'string',
          enum: ['en', 'es'],
        });
      }
    }
  });

  it('shows only schema keywords in argument entries, never validators or TEC internals', () => {
    const allowed = new Set(['required', 'default', 'description', 'type', 'items', 'format', 'enum']);
    for (const route of Object.values(index.routes)) {
      for (const e of route.endpoints) {
        for (const arg of Object.values(e.args))
          for (const k of Object.keys(arg)) expect(allowed.has(k), k).toBe(true);
      }
    }
  });

  it('shows the default list window as computed dates', () => {
    const args = endpointOf('/events', ['GET'])?.args;
    expect(args?.start_date?.default).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(args?.end_date?.default).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(String(args?.end_date?.default) > String(args?.start_date?.default)).toBe(true);
  });

  it('does not document the event password on the primary root', () => {
    for (const s of SPEC.filter((r) => PASSWORD_ON_SECONDARY.includes(r.name))) {
      expect(endpointOf(s.pattern, s.methods)?.args.password, s.name).toBeUndefined();
    }
  });

  it('marks the create arguments required as the spec does', () => {
    const args = endpointOf('/events', ['POST'])?.args;
    for (const name of ['title', 'start_date', 'end_date']) expect(args?.[name]?.required, name).toBe(true);
    const update = endpointOf('/events/(?P<id>\\d+)', ['POST', 'PUT', 'PATCH'])?.args;
    expect(update?.id?.required).toBe(true);
    expect(update?.title?.required).toBe(false);
  });
});

describe('every route and argument of the spec', () => {
  it.each(SPEC.map((s) => [s.name, s] as const))('lists %s with all its arguments', (_name, s) => {
    const endpoint = endpointOf(s.pattern, s.methods);
    expect(endpoint, `${s.methods.join(',')} ${s.pattern}`).toBeDefined();
    expect(Object.keys(endpoint?.args ?? {})).toEqual(expect.arrayContaining(s.params));
  });

  it.each(SPEC_DEFAULTS.map((d) => [d.name, d.param, d] as const))(
    'shows the default of %s %s',
    (_n, _p, d) => {
      const s = SPEC.find((r) => r.name === d.name)!;
      expect(endpointOf(s.pattern, s.methods)?.args[d.param]?.default).toEqual(d.value);
    },
  );
});

describe('types and defaults as the spec shows them', () => {
  const endpoint = (name: string) => {
    const s = SPEC.find((r) => r.name === name)!;
    return endpointOf(s.pattern, s.methods);
  };

  it.each(SPEC_UNTYPED.flatMap((u) => u.params.map((p) => [u.name, p] as const)))(
    'shows %s %s without a type',
    (name, param) => {
      const a = endpoint(name)?.args[param];
      expect(a).toBeDefined();
      expect(a).not.toHaveProperty('type');
    },
  );

  it.each(SPEC_NULL_DEFAULTS.flatMap((u) => u.params.map((p) => [u.name, p] as const)))(
    'shows %s %s with a null default',
    (name, param) => {
      expect(endpoint(name)?.args[param]).toHaveProperty('default', null);
    },
  );

  it('does not apply a shown null default: an event created without a venue has none', async () => {
    const res = await call(t, 'POST', '/events', {
      as: 'admin',
      body: { title: 'no venue', start_date: '2035-01-01 10:00:00', end_date: '2035-01-01 11:00:00' },
    });
    expect(res.status).toBe(201);
    expect(res.body.venue).toEqual([]);
    await call(t, 'DELETE', `/events/${res.body.id}`, { as: 'admin' });
  });
});

describe('the site index', () => {
  it('is the upstream index with the namespace and its routes added', async () => {
    const upstream = (await (await fetch(`${t.upstream}/`)).json()) as Json;
    const res = await fetch(`${t.gateway.url}/wp-json/`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json & { namespaces: string[]; routes: Json };
    expect(body.name).toBe(upstream.name);
    expect(body.namespaces).toEqual([...(upstream.namespaces as string[]), NS]);
    for (const key of Object.keys(upstream.routes as Json)) expect(body.routes[key]).toBeDefined();
    // Same description as the namespace index (computed date defaults may have moved on by a second).
    expect(Object.keys(body.routes as Json).filter((k) => k.startsWith(`/${NS}`))).toEqual(
      Object.keys(index.routes),
    );
    expect(body.routes[`/${NS}/events/(?P<id>\\d+)`]).toEqual(index.routes[`/${NS}/events/(?P<id>\\d+)`]);
  });

  it('answers without the trailing slash and honours _fields', async () => {
    const res = await fetch(`${t.gateway.url}/wp-json?_fields=namespaces`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(Object.keys(body)).toEqual(['namespaces']);
    expect(body.namespaces).toContain(NS);
  });
});
