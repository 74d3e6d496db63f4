// /doc's write bodies: JSON, with realistic examples that their own schemas accept and the gateway writes as sent.
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import type { Json } from './fixtures.ts';

type Schema = Json & { properties?: Record<string, Json>; required?: string[]; example?: unknown };
type Operation = { requestBody?: { content: Record<string, { schema: Schema; example?: Json }> } };
type Doc = Json & {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const WRITES = ['post', 'put', 'patch'];
const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;

let t: Target;
let doc: Doc;

beforeAll(async () => {
  t = await openTarget();
  const res = await call<Doc>(t, 'GET', '/doc');
  expect(res.status).toBe(200);
  doc = res.body;
});

afterAll(async () => {
  await t?.close();
});

/** Every write operation of the document with its JSON body. */
const writes = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method, op]) => WRITES.includes(method) && op.requestBody)
      .map(([method, op]) => ({ path, method, body: op.requestBody! })),
  );

const exampleOf = (path: string, method = 'post'): Json => {
  const example = doc.paths[path]?.[method]?.requestBody?.content['application/json']?.example;
  expect(example, `${method} ${path}`).toBeDefined();
  return example!;
};

let ajv: Ajv | undefined;

/** A validator of `schema` (OpenAPI 3.0's JSON Schema) whose `$ref`s name the document's component schemas. */
function validator(schema: Json) {
  if (!ajv) {
    // OpenAPI's own keywords (`example`) are not JSON Schema's: not strict about unknown keywords.
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });
  }
  return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
}

/**
 * What in `node` is no OpenAPI: Swagger UI's form state (`{value, errors}`), zod's internals or another `schema`
 * key (a descriptor's parser turned into JSON), and the `"string"` placeholder in an example.
 */
function leaksOf(node: unknown, at: string[] = ['#'], inExample = false): string[] {
  if (typeof node === 'string' && inExample && node === 'string') return [`${at.join(' ')}: "string"`];
  if (!node || typeof node !== 'object') return [];
  const leaks: string[] = [];
  const keys = Object.keys(node);
  if (keys.includes('value') && keys.includes('errors')) leaks.push(`${at.join(' ')}: {value, errors}`);
  for (const key of keys.filter((k) => ['_zod', '_def', '~standard', 'schema'].includes(k))) {
    // `schema` is OpenAPI's own key in a media type and a parameter; anywhere else it is a descriptor's.
    const [parent, grand] = at.slice(-2).reverse();
    const openApi = key === 'schema' && (/^[a-z]+\/[a-z.+-]+$/.test(parent ?? '') || grand === 'parameters');
    if (!openApi) leaks.push(`${at.join(' ')}: ${key}`);
  }
  for (const [key, value] of Object.entries(node)) {
    leaks.push(...leaksOf(value, [...at, key], inExample || key === 'example'));
  }
  return leaks;
}

describe("the document's write bodies", () => {
  it('are JSON, each with an example that sends every required field and only documented ones', () => {
    const all = writes();
    // Create and update of each kind, by id and by slug, with POST, PUT and PATCH.
    expect(all.length).toBeGreaterThanOrEqual(KINDS.length * 4);
    for (const { path, method, body } of all) {
      expect(Object.keys(body.content), `${method} ${path}`).toEqual(['application/json']);
      const { schema, example } = body.content['application/json']!;
      // More than the required name: a term's has its description too.
      expect(Object.keys(example ?? {}).length, `${method} ${path}`).toBeGreaterThan(1);
      expect(Object.keys(schema.properties ?? {}), `${method} ${path}`).toEqual(
        expect.arrayContaining(Object.keys(example ?? {})),
      );
      expect(Object.keys(example ?? {}), `${method} ${path}`).toEqual(
        expect.arrayContaining(schema.required ?? []),
      );
    }
    expect(exampleOf('/events')).toMatchObject({
      start_date: '2027-06-12 20:00:00',
      venue: { venue: expect.any(String), city: expect.any(String) },
      organizer: [{ organizer: expect.any(String) }],
      cost: expect.any(String),
      website: expect.stringMatching(/^https:\/\//),
    });
  });

  it('match their schemas: each body, each property and each nested input', () => {
    for (const { path, method, body } of writes()) {
      const { schema, example } = body.content['application/json']!;
      const valid = validator(schema);
      expect(valid(example), `${method} ${path}: ${JSON.stringify(valid.errors)}`).toBe(true);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (property.example === undefined) continue;
        const one = validator(property);
        expect(one(property.example), `${method} ${path} ${name}: ${JSON.stringify(one.errors)}`).toBe(true);
      }
    }
    for (const name of ['VenueInput', 'OrganizerInput']) {
      const schema = doc.components.schemas[name]!;
      const valid = validator(schema);
      expect(valid(schema.example), `${name}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
    // The check can fail: a wrongly typed field, or a nested venue without its fields' types, is refused.
    const create = validator(doc.paths['/events']!.post!.requestBody!.content['application/json']!.schema);
    expect(create({ ...exampleOf('/events'), all_day: 'yes' })).toBe(false);
    expect(create({ ...exampleOf('/events'), venue: { venue: 12 } })).toBe(false);
  });

  it('leak no internals of the argument descriptors and no placeholder anywhere in the document', () => {
    // The walk finds what it looks for: Swagger UI's form state, a descriptor's parser, a placeholder.
    expect(
      leaksOf({
        example: { title: 'string' },
        properties: { excerpt: { value: 'string', errors: [] }, cost: { type: 'string', schema: {} } },
      }),
    ).toEqual([
      '# example title: "string"',
      '# properties excerpt: {value, errors}',
      '# properties cost: schema',
    ]);
    expect(leaksOf(doc)).toEqual([]);
  });
});

describe('the example bodies, sent as the reference page sends them', () => {
  /** Removes a term left by an interrupted run (term names are unique; a second create would be refused). */
  async function removeTerm(kind: 'categories' | 'tags', name: string) {
    const found = await call<{ [k: string]: Array<{ id: number; name: string }> }>(
      t,
      'GET',
      `/${kind}?hide_empty=false&per_page=50&search=${encodeURIComponent(name)}`,
      { as: 'editor' },
    );
    for (const term of found.body[kind] ?? []) {
      if (term.name === name) await call(t, 'DELETE', `/${kind}/${term.id}`, { as: 'editor' });
    }
  }

  it('create each kind (201) and update it by id and by slug with every method (200)', async () => {
    const made: Array<[string, number]> = [];
    try {
      for (const kind of KINDS) {
        const example = exampleOf(`/${kind}`);
        if (kind === 'categories' || kind === 'tags') await removeTerm(kind, String(example.name));
        const created = await call<Json & { id: number; slug: string }>(t, 'POST', `/${kind}`, {
          as: 'editor',
          body: example,
        });
        expect(created.status, `POST /${kind}: ${JSON.stringify(created.body)}`).toBe(201);
        made.push([kind, created.body.id]);
        for (const method of ['post', 'put', 'patch']) {
          for (const [path, target] of [
            [`/${kind}/{id}`, `/${kind}/${created.body.id}`],
            [`/${kind}/by-slug/{slug}`, `/${kind}/by-slug/${created.body.slug}`],
          ] as const) {
            if (!doc.paths[path]?.[method]) continue;
            const updated = await call<Json & { id: number }>(t, method.toUpperCase(), target, {
              as: 'editor',
              body: exampleOf(path, method),
            });
            expect(updated.status, `${method} ${path}: ${JSON.stringify(updated.body)}`).toBe(200);
            expect(updated.body.id).toBe(created.body.id);
          }
        }
      }
      // The event holds what its example sent: its dates, the nested venue and organizer, its terms.
      const [, eventId] = made[0]!;
      const event = await call<Json>(t, 'GET', `/events/${eventId}`, { as: 'editor' });
      const sent = exampleOf('/events');
      const venue = sent.venue as Json;
      const organizer = (sent.organizer as Json[])[0]!;
      expect(event.body).toMatchObject({
        title: sent.title,
        start_date: sent.start_date,
        end_date: sent.end_date,
        timezone: sent.timezone,
        website: sent.website,
        venue: { venue: venue.venue, address: venue.address, city: venue.city, zip: venue.zip },
        organizer: [{ organizer: organizer.organizer, email: organizer.email }],
      });
      const slugs = (k: string) => (event.body[k] as Array<{ slug: string }>).map((x) => x.slug).sort();
      expect(slugs('categories')).toEqual([...(sent.categories as string[])].sort());
      expect(slugs('tags')).toEqual([...(sent.tags as string[])].sort());
      // The venue and organizer examples are the ones nested in the event's: the same records are reused.
      const venueId = made.find(([k]) => k === 'venues')?.[1];
      expect((event.body.venue as Json).id).toBe(venueId);
    } finally {
      for (const [kind, id] of made.reverse()) await call(t, 'DELETE', `/${kind}/${id}`, { as: 'editor' });
    }
  });
});
