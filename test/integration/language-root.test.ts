// The language root /{lang}/wp-json/calendar/events/v1: same routes, Spanish descriptions, `password` documented.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import type { Json } from './fixtures.ts';
import { PASSWORD_ON_SECONDARY, SPEC } from './spec-routes.ts';

const NS = 'calendar/events/v1';
type Endpoint = { methods: string[]; args: Record<string, Json> };
type Index = { namespace: string; routes: Record<string, { endpoints: Endpoint[] } & Json>; _links: Json };

let t: Target;
let es: string;
let primary: Index;
let secondary: Index;

const get = async <T>(url: string): Promise<{ status: number; body: T }> => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as T };
};

/** An index with what may differ between roots taken out: descriptions, `password`, root URLs, computed dates. */
function comparable(index: Index, root: string): unknown {
  const text = JSON.stringify(index, (key, value) => {
    if (key === 'description' || key === 'password') return undefined;
    if (
      (key === 'start_date' || key === 'end_date') &&
      value &&
      typeof value === 'object' &&
      'default' in value
    ) {
      return { ...value, default: 'computed' };
    }
    return value;
  });
  return JSON.parse(text.replaceAll(`${root}/`, '{root}/'));
}

const endpointOf = (index: Index, pattern: string, methods: string[]) =>
  index.routes[`/${NS}${pattern}`]?.endpoints.find((e) => e.methods.join() === methods.join());

beforeAll(async () => {
  t = await openTarget();
  es = `${t.gateway.url}/es/wp-json`;
  primary = (await get<Index>(`${t.gateway.url}/wp-json/${NS}`)).body;
  const res = await get<Index>(`${es}/${NS}`);
  expect(res.status).toBe(200);
  secondary = res.body;
});

afterAll(async () => {
  await t?.close();
});

describe('discovery on the language root', () => {
  it('links up to the site index of its own root', () => {
    expect(secondary.namespace).toBe(NS);
    expect(secondary._links).toEqual({
      up: [{ href: `${es}/` }],
      help: [{ href: `${t.gateway.url}/calendar-gateway/v1/reference/` }],
    });
  });

  it('differs from the primary root only in descriptions and the password parameter', () => {
    expect(comparable(secondary, es)).toEqual(comparable(primary, `${t.gateway.url}/wp-json`));
  });

  it('describes the arguments in Spanish', () => {
    const en = endpointOf(primary, '/events', ['GET'])?.args;
    const sp = endpointOf(secondary, '/events', ['GET'])?.args;
    expect(sp?.page?.description).toBe('La página del archivo que se devuelve.');
    const names = Object.keys(en ?? {});
    const translated = names.filter((n) => sp?.[n]?.description !== en?.[n]?.description);
    expect(translated).toEqual(names);
  });

  it.each(SPEC.filter((s) => PASSWORD_ON_SECONDARY.includes(s.name)).map((s) => [s.name, s] as const))(
    'documents the optional password on %s',
    (_name, s) => {
      expect(endpointOf(secondary, s.pattern, s.methods)?.args.password).toMatchObject({
        required: false,
        type: 'string',
      });
      expect(endpointOf(primary, s.pattern, s.methods)?.args.password).toBeUndefined();
    },
  );

  it('does not add password to any other route', () => {
    const withPassword = Object.entries(secondary.routes).flatMap(([key, r]) =>
      r.endpoints.filter((e) => 'password' in e.args).map((e) => `${e.methods.join()} ${key}`),
    );
    expect(withPassword.sort()).toEqual(
      [`GET`, `DELETE`, `POST,PUT,PATCH`].map((m) => `${m} /${NS}/events/(?P<id>\\d+)`).sort(),
    );
  });
});

describe('/doc on the language root', () => {
  it('is a valid OpenAPI document served from this root, in Spanish, with password on event read, update and delete', async () => {
    const { status, body: doc } = await get<
      Json & { paths: Record<string, Record<string, Json>>; info: Json; servers: Json[] }
    >(`${es}/${NS}/doc`);
    expect(status).toBe(200);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    expect(doc.servers).toEqual([{ url: `${es}/${NS}/` }]);
    const english = (await call<{ info: Json }>(t, 'GET', '/doc')).body;
    expect(doc.info.title).not.toBe(english.info.title);
    const read = doc.paths['/events/{id}']?.get as {
      parameters: Array<{ name: string; in: string; required: boolean }>;
    };
    expect(read.parameters.find((p) => p.name === 'password')).toMatchObject({
      in: 'query',
      required: false,
    });
    const update = doc.paths['/events/{id}']?.post as {
      requestBody: { content: Record<string, { schema: { properties: Json } }> };
    };
    expect(update.requestBody.content['application/json']?.schema.properties).toHaveProperty('password');
  });
});

describe('the routes of the language root', () => {
  it('serves the same records, with links under its own root', async () => {
    const query = 'per_page=2&start_date=2020-01-01';
    const en = await call<{ events: Json[]; rest_url: string }>(t, 'GET', `/events?${query}`);
    const sp = await get<{ events: Json[]; rest_url: string }>(`${es}/${NS}/events?${query}`);
    expect(sp.status).toBe(200);
    expect(sp.body.events.map((e) => e.id)).toEqual(en.body.events.map((e) => e.id));
    expect(sp.body.rest_url.startsWith(`${es}/${NS}/events`)).toBe(true);
    for (const e of sp.body.events) expect(e.rest_url).toBe(`${es}/${NS}/events/${e.id}`);
  });

  it('answers unknown paths of the namespace with rest_no_route', async () => {
    const res = await get<Json>(`${es}/${NS}/nowhere`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_no_route');
  });

  it('serves the site index with the namespace on its own root', async () => {
    const res = await get<{ namespaces: string[]; routes: Record<string, Json> }>(`${es}/`);
    expect(res.status).toBe(200);
    expect(res.body.namespaces).toContain(NS);
    expect(res.body.routes[`/${NS}`]).toMatchObject({ _links: { self: [{ href: `${es}/${NS}` }] } });
  });
});
