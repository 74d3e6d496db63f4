// One descriptor per record kind (event, venue, organizer, category, tag): each field once, in TEC's emission order.
//
// The descriptors live in records/ (fields.ts: the vocabulary; event.ts, linked.ts, terms.ts: the kinds); this
// module gathers them with the helpers that read them (the write arguments, the key order, the text fields).
import type { ArgDef } from './args.ts';
import { eventRecord } from './records/event.ts';
import type { FieldDef, RecordDescriptor } from './records/fields.ts';
import { organizerRecord, venueRecord } from './records/linked.ts';

export { EVENT_STATUSES, eventRecord } from './records/event.ts';
export type { FieldDef, JsonSchema, RecordDescriptor } from './records/fields.ts';
export { exampleOf, organizerRecord, venueRecord } from './records/linked.ts';
export { categoryRecord, tagRecord } from './records/terms.ts';

export const RECORDS = { event: eventRecord, venue: venueRecord, organizer: organizerRecord } as const;

export type RecordKind = keyof typeof RECORDS;

/** The write arguments of a record kind's fields, in record order (`create`: with what create adds). */
type WriteShape<F extends readonly FieldDef[]> = {
  [D in F[number] as D extends { arg: ArgDef } ? D['key'] : never]: NonNullable<D['arg']>;
};

export function writeArgsOf<R extends RecordDescriptor>(record: R, create: boolean): WriteShape<R['fields']> {
  const out: Record<string, ArgDef> = {};
  for (const f of record.fields) {
    if (f.arg) out[f.key] = create && f.onCreate ? { ...f.arg, ...f.onCreate } : f.arg;
  }
  return out as WriteShape<R['fields']>;
}

/** The keys of a record kind in TEC's order (`json_ld` included: single reads end or carry it there). */
export const keysOf = (record: RecordDescriptor): string[] => record.fields.map((f) => f.key);

/** The free-text write fields (names, descriptions, addresses, contacts): strings with no format and no enum. */
export const textFieldsOf = (record: RecordDescriptor): string[] =>
  record.fields.filter((f) => f.arg?.type === 'string' && !f.arg.format && !f.arg.enum).map((f) => f.key);

/** The write fields stored as sent (the handler works out the others, `byHandler`). */
export const sentAsIsOf = (record: RecordDescriptor): string[] =>
  record.fields.filter((f) => f.arg && !f.byHandler).map((f) => f.key);
