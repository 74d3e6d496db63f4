// Every field of every record descriptor, wherever the descriptor says it goes: the write arguments, the mapping,
// the serialized record (order and password blanking) and /doc. These hold for a field added later without a new
// test: adding one to a descriptor is all it takes (plus its storage in a site's mapping file).
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../discovery/openapi.ts';
import { FORMATS } from '../formats.ts';
import { parseArgs } from '../http/parse-args.ts';
import { valuesOf } from '../linked/write.ts';
import { eventFields, type Mapping, organizerFields, venueFields } from '../mapping/schema.ts';
import { serializeEvent } from '../serialize/event.ts';
import { serializeOrganizer, serializeVenue } from '../serialize/linked.ts';
import { serializeTerm } from '../serialize/terms.ts';
import { opts, post, SITE, TEC_MAPPING } from '../serialize/test-fixtures.ts';
import type { Json } from '../serialize/types.ts';
import type { MetaValue, WpPost } from '../wp/types.ts';
import { eventWriteArgs } from './events.ts';
import { allContracts } from './index.ts';
import { linkedWriteArgs } from './linked.ts';
import {
  categoryRecord,
  exampleOf,
  keysOf,
  RECORDS,
  type RecordDescriptor,
  sentAsIsOf,
  tagRecord,
} from './records.ts';
import { termWriteArgs } from './terms.ts';

type Kind = keyof typeof RECORDS;
const KINDS = Object.keys(RECORDS) as Kind[];

const writeArgs = (kind: Kind, create: boolean) =>
  kind === 'event' ? eventWriteArgs(create) : linkedWriteArgs(kind, create);
const mappingFields = { event: eventFields, venue: venueFields, organizer: organizerFields };
const postType = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' };

/** A post of `kind` with a value in every meta row the TEC mapping names, so each stored field has one. */
function fullPost(kind: Kind, mapping: Mapping, extra: Partial<WpPost> = {}): WpPost {
  const meta: Record<string, MetaValue> = {};
  for (const [name, src] of Object.entries(mapping[kind].fields)) {
    if (!src || !('meta' in src)) continue;
    const value = {
      string: `stored ${name}`,
      datetime: '2026-02-01 10:00:00',
      bool: '1',
      'yes-flag': 'yes',
      'one-flag': '1',
      'string-list': ['20'],
      decimal: name === 'geo_lng' ? '-0.3763' : '39.4699',
      int: undefined,
      'int-list': undefined,
    }[src.format];
    if (value !== undefined) meta[src.meta] = value;
  }
  meta._EventTimezone = 'Europe/Madrid';
  return post(7, postType[kind], { meta, featured_media: 0, ...extra });
}

function serialize(kind: Kind, p: WpPost, password?: string): Json {
  const o = opts(TEC_MAPPING, { context: 'single', password });
  const related = { terms: new Map(), venues: new Map(), organizers: new Map(), media: new Map() };
  if (kind === 'event') return serializeEvent(p, related, o);
  return kind === 'venue' ? serializeVenue(p, related, o) : serializeOrganizer(p, related, o);
}

describe.each(KINDS)('the %s descriptor', (kind) => {
  const record: RecordDescriptor = RECORDS[kind];
  const withArgs = record.fields.filter((f) => f.arg);

  it('gives the write arguments: each field with one, described by the field, required where create says', () => {
    for (const create of [true, false]) {
      const args = writeArgs(kind, create) as Record<string, { description: unknown; required?: boolean }>;
      expect(Object.keys(args).filter((k) => k !== 'multilang_language')).toEqual(withArgs.map((f) => f.key));
      for (const f of withArgs) {
        expect(args[f.key]?.description).toEqual(f.about);
        expect(args[f.key]?.required === true).toBe(create && f.onCreate?.required === true);
      }
    }
  });

  it('gives the mapping an optional field for each stored one', () => {
    const shape = mappingFields[kind].shape as Record<
      string,
      { safeParse: (v: unknown) => { success: boolean } }
    >;
    for (const f of record.fields.filter((x) => x.stored)) {
      expect(shape[f.key], f.key).toBeDefined();
      expect(shape[f.key]?.safeParse({ meta: '_Any' }).success).toBe(true);
    }
  });

  it('gives /doc the record schema (in each root language) and the create body', () => {
    for (const lang of ['en', 'es'] as const) {
      const doc = openApiDocument(
        allContracts(),
        { root: { lang, secondary: lang === 'es' }, now: new Date(0), timezone: 'UTC', stable: true },
        'https://example.test/wp-json/calendar/events/v1',
      ) as {
        components: { schemas: Record<string, { properties: Record<string, { description: string }> }> };
        paths: Record<
          string,
          {
            post: {
              requestBody: { content: Record<string, { schema: Json }> };
              responses: Record<string, { content: Record<string, { schema: Json }> }>;
            };
          }
        >;
      };
      const schema = doc.components.schemas[record.component];
      expect(Object.keys(schema?.properties ?? {})).toEqual(keysOf(record));
      for (const f of record.fields) expect(schema?.properties[f.key]?.description).toBe(f.about[lang]);
      const path = kind === 'event' ? '/events' : `/${kind}s`;
      const body = doc.paths[path]?.post.requestBody.content['application/json']?.schema as {
        properties: Record<string, unknown>;
      };
      for (const f of withArgs) expect(body.properties, f.key).toHaveProperty(f.key);
      // A create answers the record it made, not a list.
      expect(doc.paths[path]?.post.responses['201']?.content['application/json']?.schema).toEqual({
        $ref: `#/components/schemas/${record.component}`,
      });
    }
  });

  it('gives the serialized record its keys in order, and a password blanks what the field says', () => {
    const open = serialize(kind, fullPost(kind, TEC_MAPPING));
    const keys = keysOf(record);
    expect(Object.keys(open)).toEqual(keys.filter((k) => k in open));
    // Every field is sent but those a venue or organizer leaves out when empty (no image here).
    const left = keys.filter((k) => !(k in open));
    const def = (k: string) => record.fields.find((f) => f.key === k);
    expect(left.every((k) => def(k)?.sometimes || (record.dropEmpty && !def(k)?.keepEmpty))).toBe(true);
    expect(left.filter((k) => record.fields.find((f) => f.key === k)?.stored)).toEqual([]);

    const locked = serialize(kind, fullPost(kind, TEC_MAPPING, { password: 'pw' }));
    for (const f of record.fields) {
      if (!(f.key in open) || f.key === 'json_ld') continue;
      expect(locked[f.key], f.key).toEqual(f.blank !== undefined ? f.blank : open[f.key]);
    }
    expect(serialize(kind, fullPost(kind, TEC_MAPPING, { password: 'pw' }), 'pw')).toEqual(open);
  });
});

describe.each([
  ...KINDS.map((kind) => [kind, RECORDS[kind], (create: boolean) => writeArgs(kind, create)] as const),
  ['categories', categoryRecord, (create: boolean) => termWriteArgs('categories', create)] as const,
  ['tags', tagRecord, (create: boolean) => termWriteArgs('tags', create)] as const,
])("the %s descriptor's example body", (_kind, record, argsOf) => {
  it('passes the write arguments of create and update, each value as given (what /doc shows and the page sends)', () => {
    const example = exampleOf(record);
    // Every name a create requires, and more.
    const required = Object.entries(argsOf(true)).filter(([, def]) => def.required);
    expect(Object.keys(example)).toEqual(expect.arrayContaining(required.map(([name]) => name)));
    expect(Object.keys(example).length).toBeGreaterThan(required.length);
    for (const create of [true, false]) {
      const parsed = parseArgs(argsOf(create), example, FORMATS);
      expect(parsed).toMatchObject({ ok: true });
      if (parsed.ok) expect(parsed.args).toMatchObject(example);
    }
  });
});

describe.each([
  ['categories', categoryRecord],
  ['tags', tagRecord],
] as const)('the %s descriptor', (kind, record) => {
  it('gives the write arguments and the list and single item', () => {
    for (const create of [true, false]) {
      const args = termWriteArgs(kind, create) as Record<
        string,
        { description: unknown; required?: boolean }
      >;
      const withArgs = record.fields.filter((f) => f.arg);
      expect(Object.keys(args).filter((k) => k !== 'multilang_language')).toEqual(withArgs.map((f) => f.key));
      for (const f of withArgs) {
        expect(args[f.key]?.description).toEqual(f.about);
        expect(args[f.key]?.required === true).toBe(create && f.onCreate?.required === true);
      }
    }
    const term = {
      id: 3,
      name: 'Jazz',
      slug: 'jazz',
      description: '',
      taxonomy: 'tribe_events_cat',
      parent: 1,
      link: 'u',
      count: 2,
    };
    const item = serializeTerm(term, kind, { site: SITE, embedded: false });
    expect(Object.keys(item)).toEqual(keysOf(record));
  });
});

it('gives /doc its Term schema from the category descriptor', () => {
  const doc = openApiDocument(
    allContracts(),
    { root: { lang: 'en', secondary: false }, now: new Date(0), timezone: 'UTC', stable: true },
    'https://example.test/wp-json/calendar/events/v1',
  ) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
  expect(Object.keys(doc.components.schemas.Term?.properties ?? {})).toEqual(keysOf(categoryRecord));
});

describe.each(['venue', 'organizer'] as const)('a %s write', (kind) => {
  it('stores every field the descriptor marks as stored as sent', () => {
    const record: RecordDescriptor = RECORDS[kind];
    const sent = sentAsIsOf(record);
    const sample = (type: string, key: string) =>
      type === 'boolean'
        ? false
        : type === 'integer'
          ? 3
          : key === 'website'
            ? 'https://x.test'
            : `sent ${key}`;
    const body = Object.fromEntries(
      record.fields.filter((f) => sent.includes(f.key)).map((f) => [f.key, sample(f.arg!.type, f.key)]),
    );
    const parsed = parseArgs(linkedWriteArgs(kind, false), body, FORMATS);
    expect(parsed.ok).toBe(true);
    const v = valuesOf(kind, (parsed as { args: Record<string, unknown> }).args, {
      canPublish: true,
      create: false,
      timezone: 'UTC',
      now: new Date(0),
    });
    for (const key of sent) expect(v[key], key).toEqual(body[key]);
  });
});
