// /doc says the length bounds the parser holds: every string an argument takes carries the parser's maxLength (and
// minLength when the parser refuses an empty value), and a string one character too long is refused by both.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { type ArgDef, maxLengthOf } from '../contract/args.ts';
import { allContracts } from '../contract/index.ts';
import { FORMATS } from '../formats.ts';
import { parseArgs } from '../http/parse-args.ts';
import { openApiDocument } from './openapi.ts';
import type { DescribeEnv } from './root.ts';

type Schema = Record<string, unknown>;

const env: DescribeEnv = {
  root: { lang: 'en', secondary: true },
  now: new Date('2026-03-10T12:00:00Z'),
  timezone: 'UTC',
};
const ajv = new Ajv({ strict: false, validateFormats: false });

/** Every string node of a schema (through anyOf, oneOf and list items), with whether it is the value itself. */
function strings(s: Schema, top = true): Array<{ node: Schema; top: boolean }> {
  const out: Array<{ node: Schema; top: boolean }> = [];
  if (s.type === 'string' && s.enum === undefined) out.push({ node: s, top });
  if (s.items) out.push(...strings(s.items as Schema, false));
  for (const b of [s.anyOf, s.oneOf])
    if (Array.isArray(b)) for (const x of b as Schema[]) out.push(...strings(x, top));
  return out;
}

const parses = (name: string, def: ArgDef, value: unknown) =>
  parseArgs({ [name]: def }, { [name]: value }, FORMATS).ok;

describe('/doc and the parser agree on length bounds', async () => {
  const doc = (await SwaggerParser.dereference(
    openApiDocument(allContracts(), env, 'https://example.com/wp-json/calendar/events/v1') as never,
  )) as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };

  const cases = allContracts().flatMap((c) =>
    c.methods.flatMap((method) => {
      const op = doc.paths[c.path]?.[method.toLowerCase()] as
        | {
            parameters?: Array<{ name: string; schema: Schema }>;
            requestBody?: { content: Record<string, { schema: { properties: Record<string, Schema> } }> };
          }
        | undefined;
      return Object.entries(c.args).flatMap(([name, def]) => {
        const schema =
          op?.parameters?.find((p) => p.name === name)?.schema ??
          op?.requestBody?.content['application/json']?.schema.properties[name];
        return schema ? [[`${method} ${c.path} ${name}`, name, def, schema] as const] : [];
      });
    }),
  );

  it('documents some string arguments', () => {
    expect(cases.filter(([, , , s]) => strings(s).length > 0).length).toBeGreaterThan(50);
  });

  it.each(cases)('%s', (_label, name, def, schema) => {
    const max = maxLengthOf(def);
    const emptyRefused = !parses(name, def, '');
    for (const { node, top } of strings(schema)) {
      expect(node.maxLength).toBe(max);
      expect(node.minLength).toBe(top && emptyRefused ? 1 : undefined);
    }
    if (strings(schema).some((n) => n.top)) {
      const long = 'a'.repeat(max + 1);
      expect(parses(name, def, long)).toBe(false);
      expect(ajv.validate(schema, long)).toBe(false);
    }
  });
});
