// /doc is as wide as the API: for every argument of every route, each value the one parser accepts (and, for a
// linked venue or organizer, the write handler) is valid against the schema /doc serves for it, read as OpenAPI
// reads it: a query or path value as its serialization (`form`, comma-separated when `explode: false`), a body value
// as JSON. So the reference page and the typed client generated from /doc never refuse what the gateway takes.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ArgDef } from '../contract/args.ts';
import { allContracts } from '../contract/index.ts';
import { linkedItems } from '../events/linked.ts';
import { FORMATS } from '../formats.ts';
import { parseArgs } from '../http/parse-args.ts';
import { openApiDocument } from './openapi.ts';
import type { DescribeEnv } from './root.ts';

type Schema = Record<string, unknown>;

// The language root documents every argument the primary root does, and more.
const env: DescribeEnv = {
  root: { lang: 'es', secondary: true },
  now: new Date('2026-03-10T12:00:00Z'),
  timezone: 'UTC',
};

/** Query strings and path segments as clients send them (a list: a repeated `name[]=`). */
const TEXT = [
  ...['1', '12', '0', '-3', '1.5', '12,13', 'jazz', 'jazz,12', 'true', 'false', 'TRUE', 'yes', 'off', ''],
  ...['tomorrow 9am', '2027-06-12 20:00:00', '1700000000', 'publish', 'publish,draft', 'asc', 'DESC', 'es'],
  ...['Europe/Madrid', 'UTC+2', 'https://example.com/a.jpg', 'view', 'calendar/events/v1', 'Jazz night', ' '],
];
const QUERY: Array<string | string[]> = [
  ...TEXT,
  ['publish', 'draft'],
  ['jazz', '12'],
  ['12', '13'],
  ['true'],
];

/** JSON body values: the texts, and numbers, booleans, lists and objects. */
const JSON_VALUES: unknown[] = [
  ...TEXT,
  ...[1, 12, 0, -3, 1.5, 1700000000, true, false],
  ...[[], ['jazz', 12], [12, 13], ['12'], [true], [{ id: 12 }]],
  ...[{ id: 12 }, { venue: 'Hall' }, { organizer: 'Ann' }, [{ organizer: 'Ann' }], { a: 1 }],
];

const ajv = new Ajv({ strict: false, validateFormats: false });
const compiled = new Map<Schema, ReturnType<Ajv['compile']>>();
const validJson = (schema: Schema, value: unknown): boolean => {
  const check = compiled.get(schema) ?? ajv.compile(schema);
  compiled.set(schema, check);
  return check(value) as boolean;
};

/**
 * Whether a query or path value is a serialization of a value the schema allows (OpenAPI 3.0, `style: form`): a
 * text, comma-separated for a list; a repeated parameter only for a list.
 */
function validText(schema: Schema, text: string | string[]): boolean {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).some((s) => validText(s, text));
  if (Array.isArray(schema.oneOf))
    return (schema.oneOf as Schema[]).filter((s) => validText(s, text)).length === 1;
  if (Array.isArray(text))
    return schema.type === 'array' && text.every((item) => validText(schema.items as Schema, item));
  switch (schema.type) {
    case 'array':
      return text.split(',').every((item) => validText(schema.items as Schema, item));
    case 'integer':
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text) && validJson(schema, Number(text));
    case 'boolean':
      return (text === 'true' || text === 'false') && validJson(schema, text === 'true');
    default:
      return validJson(schema, text);
  }
}

/** Whether the gateway takes `value` for the argument: its parser, then the write handler for linked records. */
function accepted(name: string, def: ArgDef, value: unknown, write: boolean): boolean {
  if (!parseArgs({ [name]: def }, { [name]: value }, FORMATS).ok) return false;
  if (write && (name === 'venue' || name === 'organizer')) {
    try {
      linkedItems(name, value);
    } catch {
      return false;
    }
  }
  return true;
}

interface Operation {
  parameters?: Array<{ name: string; in: string; schema: Schema }>;
  requestBody?: { content: { 'application/json': { schema: { properties: Record<string, Schema> } } } };
}

describe('/doc and the parser', async () => {
  const doc = (await SwaggerParser.dereference(
    openApiDocument(allContracts(), env, 'https://example.com/wp-json/calendar/events/v1') as never,
  )) as unknown as { paths: Record<string, Record<string, Operation>> };

  const cases = allContracts().flatMap((contract) =>
    contract.methods.map((method) => {
      const op = doc.paths[contract.path]?.[method.toLowerCase()];
      if (!op) throw new Error(`${method} ${contract.path} is not in /doc`);
      return [`${method} ${contract.path} (${contract.id})`, contract.args, op, method] as const;
    }),
  );

  it.each(cases)('%s: every value the gateway takes is valid against /doc', (_name, args, op, method) => {
    const write = method !== 'GET' && method !== 'DELETE';
    const refused: string[] = [];
    for (const [name, def] of Object.entries(args)) {
      const param = op.parameters?.find((p) => p.name === name);
      const property = op.requestBody?.content['application/json'].schema.properties[name];
      if (param) {
        for (const v of param.in === 'path' ? TEXT : QUERY)
          if (accepted(name, def, v, write) && !validText(param.schema, v)) refused.push(`${name}=${v}`);
      } else if (property) {
        for (const v of JSON_VALUES)
          if (accepted(name, def, v, write) && !validJson(property, v))
            refused.push(`${name}: ${JSON.stringify(v)}`);
      } else {
        // Not documented: only arguments the contract keeps out of discovery and /doc.
        expect(def.roots, name).toBe('none');
      }
    }
    expect(refused).toEqual([]);
  });
});
