// components.schemas of /doc: TEC's record shapes as this gateway emits them (types as really sent, §2, §9.4).
import { categoryRecord, RECORDS, type RecordDescriptor } from '../contract/records.ts';
import type { Returns } from '../contract/route.ts';

type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string): Schema => ({ type: 'integer', description });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required?: string[]): Schema => ({
  type: 'object',
  ...(required ? { required } : {}),
  properties,
});

/** A record's object schema from its descriptor: every field, its JSON type and its description in `lang`. */
function recordSchema(record: RecordDescriptor, lang: string): Schema {
  const properties: Record<string, Schema> = {};
  for (const f of record.fields) {
    properties[f.key] = { ...f.type, description: lang === 'es' ? f.about.es : f.about.en };
  }
  return obj(properties);
}

const imageSize = obj({
  width: int('Width in pixels.'),
  height: int('Height in pixels.'),
  'mime-type': str('The mime type.'),
  url: str('The URL of this size.'),
});
const costDetails = obj({
  currency_symbol: str('The currency symbol.'),
  currency_code: str('The ISO currency code.'),
  currency_position: { type: 'string', enum: ['prefix', 'postfix', ''] },
  values: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
});
const image = obj({
  url: str('The full-size image URL.'),
  id: int('The attachment id.'),
  extension: str('The file extension.'),
  width: int('Width in pixels.'),
  height: int('Height in pixels.'),
  sizes: { type: 'object', additionalProperties: ref('ImageSize') },
});
const dateDetails = obj({
  year: str('Zero-padded year.'),
  month: str('Zero-padded month.'),
  day: str('Zero-padded day.'),
  hour: str('Zero-padded hour.'),
  minutes: str('Zero-padded minutes.'),
  seconds: str('Zero-padded seconds.'),
});

/** The document's component schemas in TEC's order; the records' from their descriptors, in the root's language. */
export const componentSchemas = (lang: string): Record<string, Schema> => ({
  ImageSize: imageSize,
  CostDetails: costDetails,
  Term: recordSchema(categoryRecord, lang),
  Image: image,
  DateDetails: dateDetails,
  ...Object.fromEntries(
    Object.values(RECORDS).map((record) => [record.component, recordSchema(record, lang)]),
  ),
});

/** The response body of a route: what its contract says it returns (a record, or a list envelope of them). */
export function responseSchema(returns: Returns | undefined): Schema {
  if (!returns) return { type: 'object' };
  const record = ref(returns.record.component);
  if (returns.list === undefined) return record;
  return obj({
    [returns.list]: { type: 'array', items: record },
    rest_url: str('This page.'),
    next_rest_url: str('The next page, when it has results.'),
    previous_rest_url: str('The previous page.'),
    total: int('How many items match.'),
    total_pages: int('How many pages there are.'),
  });
}

export const errorSchema: Schema = obj(
  {
    code: str('The error code.'),
    message: str('A readable message.'),
    data: obj({ status: int('The HTTP status.') }),
  },
  ['code', 'message', 'data'],
);
