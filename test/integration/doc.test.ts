// GET /doc: a valid OpenAPI 3.0 document in TEC's shape that lists every route and parameter of the spec.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHARS } from '../../src/contract/args.ts';
import { call, openTarget, type Target } from '../harness.ts';
import type { Json } from './fixtures.ts';
import { PASSWORD_ON_SECONDARY, SPEC } from './spec-routes.ts';

type Param = {
  name: string;
  in: string;
  description: string;
  schema: Json;
  required: boolean;
  style?: string;
  explode?: boolean;
};
type Operation = {
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: { properties: Json; required?: string[] } }> };
  security?: unknown[];
  responses: Json;
};
type Doc = Json & {
  paths: Record<string, Record<string, Operation>>;
  servers: Array<{ url: string }>;
  components: { schemas: Json; securitySchemes?: Json };
};

let t: Target;
let doc: Doc;

/** Every parameter name an operation accepts: its parameters and its body's properties. */
const namesOf = (op: Operation | undefined): string[] => [
  ...(op?.parameters ?? []).map((p) => p.name),
  ...Object.keys(op?.requestBody?.content['application/json']?.schema.properties ?? {}),
];

beforeAll(async () => {
  t = await openTarget();
  const res = await call<Doc>(t, 'GET', '/doc');
  expect(res.status).toBe(200);
  doc = res.body;
});

afterAll(async () => {
  await t?.close();
});

describe('the document', () => {
  it('passes a real OpenAPI 3.0 validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('has TEC top-level shape: openapi 3.0.0, info, one server at the API root, and its component schemas', () => {
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.info).toMatchObject({
      version: '1.0.0',
      title: expect.any(String),
      description: expect.any(String),
    });
    expect(doc.servers).toEqual([{ url: `${t.api}/` }]);
    expect(Object.keys(doc.components.schemas)).toEqual([
      'ImageSize',
      'CostDetails',
      'Term',
      'Image',
      'DateDetails',
      'Event',
      'Venue',
      'Organizer',
      'VenueInput',
      'OrganizerInput',
    ]);
  });

  it('describes what writes accept: nested venues and organizers, terms by name, an image id or URL', () => {
    const body =
      doc.paths['/events']?.post?.requestBody?.content['application/json']?.schema.properties ?? {};
    const refs = (s: unknown) => JSON.stringify(s).match(/#\/components\/schemas\/\w+/g) ?? [];
    expect(refs(body.venue)).toContain('#/components/schemas/VenueInput');
    expect(refs(body.organizer)).toContain('#/components/schemas/OrganizerInput');
    expect(body.tags).toMatchObject({ oneOf: [{ type: 'array' }, { type: 'string' }, { type: 'number' }] });
    expect(body.image).toMatchObject({ oneOf: [{ type: 'integer' }, { type: 'string' }] });
    const venueInput = doc.components.schemas.VenueInput as { properties: Json };
    expect(Object.keys(venueInput.properties)).toEqual(
      expect.arrayContaining(['id', 'venue', 'address', 'city']),
    );
  });

  it('declares how to sign in: Basic (application passwords) and the login cookie with X-WP-Nonce', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      applicationPassword: { type: 'http', scheme: 'basic' },
      cookieNonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce' },
    });
    // Writes need one of them; reads take either, or none.
    expect(doc.paths['/events']?.post?.security).toEqual([{ applicationPassword: [] }, { cookieNonce: [] }]);
    expect(doc.paths['/events']?.get?.security).toEqual([
      {},
      { applicationPassword: [] },
      { cookieNonce: [] },
    ]);
  });

  it('documents the date window a list gets when none is given, as it is applied', async () => {
    const params = doc.paths['/events']?.get?.parameters ?? [];
    const start = params.find((p) => p.name === 'start_date')?.schema.default as string;
    const end = params.find((p) => p.name === 'end_date')?.schema.default as string;
    // Inclusive days (the default mode): from the start of a day to the end of a day.
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2} 23:59:59$/);
    // A list without dates and one with the documented window are the same list.
    const plain = await call<{ total: number }>(t, 'GET', '/events?per_page=1');
    const given = await call<{ total: number }>(
      t,
      'GET',
      `/events?per_page=1&start_date=${encodeURIComponent(start)}&end_date=${encodeURIComponent(end)}`,
    );
    expect(given.body.total).toBe(plain.body.total);
  });

  it("lists the paths in TEC's order after the namespace index", () => {
    expect(Object.keys(doc.paths)).toEqual([
      '/',
      '/doc',
      '/events',
      '/events/{id}',
      '/events/by-slug/{slug}',
      // Ours: the iCalendar feeds, after TEC's event routes.
      '/events.ics',
      '/events/{id}.ics',
      '/venues',
      '/venues/{id}',
      '/venues/by-slug/{slug}',
      '/organizers',
      '/organizers/{id}',
      '/organizers/by-slug/{slug}',
      '/categories',
      '/categories/{id}',
      '/tags',
      '/tags/{id}',
      // Ours: the changes feed, after TEC's routes.
      '/changes',
    ]);
  });

  it('documents the changes feed: its arguments, its answer and its event stream', () => {
    type Op = {
      parameters: Array<{ name: string }>;
      responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }>;
    };
    const get = (doc.paths['/changes'] as unknown as { get: Op }).get;
    expect(get.parameters.map((p) => p.name)).toEqual([
      'since',
      'limit',
      'feed',
      'timeout',
      'multilang_language',
    ]);
    const content = get.responses['200']!.content;
    expect(Object.keys(content['application/json']!.schema.properties as object)).toEqual([
      'items',
      'next',
      'has_more',
    ]);
    expect(content['text/event-stream']!.schema.description).toMatch(/Last-Event-ID/);
  });

  it('documents collections with get and post (create), and single records with get, post, put, patch and delete', () => {
    for (const kind of ['events', 'venues', 'organizers', 'categories', 'tags']) {
      expect(Object.keys(doc.paths[`/${kind}`] ?? {})).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths[`/${kind}/{id}`] ?? {})).toEqual([
        'get',
        'delete',
        'post',
        'put',
        'patch',
      ]);
    }
  });

  it('sends write fields as a JSON body and keeps the path identifier a required path parameter', () => {
    const update = doc.paths['/events/{id}']?.post;
    expect(update?.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const json = update?.requestBody?.content['application/json']?.schema;
    expect(json?.properties).toHaveProperty('title');
    expect(json?.required).toBeUndefined();
    const create = doc.paths['/events']?.post?.requestBody?.content['application/json']?.schema;
    expect(create?.required).toEqual(expect.arrayContaining(['title', 'start_date', 'end_date']));
    expect(doc.paths['/events']?.post?.responses).toHaveProperty('201');
  });

  it('shapes query parameters as TEC does, CSV lists as form style without explode, of ids or slugs', () => {
    const params = doc.paths['/events']?.get?.parameters ?? [];
    const categories = params.find((p) => p.name === 'categories');
    expect(categories).toEqual({
      name: 'categories',
      in: 'query',
      description: expect.any(String),
      schema: {
        anyOf: [
          { type: 'array', items: { type: 'string', maxLength: MAX_CHARS.text } },
          {
            type: 'array',
            items: { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: MAX_CHARS.text }] },
          },
        ],
      },
      required: false,
      style: 'form',
      explode: false,
    });
    const page = params.find((p) => p.name === 'page');
    expect(page).toMatchObject({ in: 'query', schema: { type: 'integer', default: 1 }, required: false });
    expect(page).not.toHaveProperty('style');
  });

  it("shows the parser's length bounds: a search 1 to 500 characters, a title at least 1, a slug at most 200", async () => {
    const param = (path: string, name: string) =>
      doc.paths[path]?.get?.parameters?.find((p) => p.name === name)?.schema as Json;
    expect(param('/events', 'search')).toMatchObject({ type: 'string', minLength: 1, maxLength: 500 });
    expect(param('/events/by-slug/{slug}', 'slug')).toMatchObject({ maxLength: 200 });
    const title = doc.paths['/events']?.post?.requestBody?.content['application/json']?.schema.properties
      .title as Json;
    expect(JSON.stringify(title)).toContain('"minLength":1');
    // A search one character too long is refused as /doc says it is.
    const res = await call(t, 'GET', `/events?search=${'a'.repeat(501)}`);
    expect(res.status).toBe(400);
  });

  it('does not document the event password on the primary root', () => {
    for (const s of SPEC.filter((r) => PASSWORD_ON_SECONDARY.includes(r.name))) {
      for (const m of s.methods)
        expect(namesOf(doc.paths[s.path]?.[m.toLowerCase()])).not.toContain('password');
    }
  });
});

describe('every route and parameter of the spec', () => {
  it.each(SPEC.flatMap((s) => s.methods.map((m) => [m, s.path, s] as const)))(
    'documents %s %s',
    (m, path, s) => {
      const op = doc.paths[path]?.[m.toLowerCase()];
      expect(op).toBeDefined();
      expect(namesOf(op)).toEqual(expect.arrayContaining(s.params));
    },
  );
});
