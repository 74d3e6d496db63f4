// TEC's password blanking (§8) and the record's key order, both read from the record's descriptor.
import type { FieldDef, RecordDescriptor } from '../contract/records.ts';
import type { WpPost } from '../wp/types.ts';
import { canSeeProtected, phpEmpty } from './common.ts';
import type { Json, SerializeOptions } from './types.ts';

const fresh = (v: unknown): unknown => (v !== null && typeof v === 'object' ? structuredClone(v) : v);

/** The keys a password blanks in this kind of record, with what it shows instead. */
export const blanksOf = (record: RecordDescriptor): Map<string, unknown> =>
  new Map(record.fields.filter((f) => f.blank !== undefined).map((f) => [f.key, f.blank]));

interface Step {
  key: string;
  /** Left out when empty (records that drop empty values, fields not kept when empty). */
  dropEmpty: boolean;
  /** How a stored value is sent when the serializer works none out; absent, the serializer must work it out. */
  plain?: (v: unknown) => unknown;
}

/** What assembling and blanking a kind of record needs, made once per descriptor (every cache miss uses it). */
interface Plan {
  steps: Step[];
  blanks: Map<string, unknown>;
}

const PLANS = new WeakMap<RecordDescriptor, Plan>();

function planOf(record: RecordDescriptor): Plan {
  let plan = PLANS.get(record);
  if (plan) return plan;
  const steps = record.fields
    .filter((f) => !f.singleOnly)
    .map((f) => ({ key: f.key, dropEmpty: record.dropEmpty && !f.keepEmpty, plain: plainOf(f) }));
  plan = { steps, blanks: blanksOf(record) };
  PLANS.set(record, plan);
  return plan;
}

function plainOf(f: FieldDef): ((v: unknown) => unknown) | undefined {
  if (!f.stored) return undefined;
  if (f.type.type === 'boolean') return (v) => v === true;
  return (v) => (v === null || v === undefined ? '' : String(v));
}

/**
 * A copy with every field the descriptor marks blanked (TEC's `remove_password_protected_content`); title and
 * dates stay. Linked records inside (an event's venue and organizers) are blanked whole, as TEC does; a linked
 * record serialized on its own is blanked by its own descriptor.
 */
export function blankProtected(record: RecordDescriptor, value: Json): Json {
  const { blanks } = planOf(record);
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) out[key] = blanks.has(key) ? fresh(blanks.get(key)) : v;
  return out;
}

/**
 * The record in the descriptor's order: a value from `computed` where the serializer works one out, else the
 * stored value read as is (text as a string, a flag true only when stored true). A field neither stored nor in
 * `computed` is missing from the record (records.test.ts holds that every serializer sends every field). Fields
 * sent in single reads only are left for `withSingleOnly`; with `dropEmpty`, empty values are left out as PHP's
 * `array_filter` does.
 */
export function assemble(record: RecordDescriptor, computed: Json, stored: Record<string, unknown>): Json {
  const out: Json = {};
  for (const step of planOf(record).steps) {
    // A field only the serializer works out is taken as it is (left out when undefined, as JSON would, e.g. no
    // permalink yet); a stored one is sent as stored unless the serializer works it out.
    const own = computed[step.key];
    const value = own !== undefined || !step.plain ? own : step.plain(stored[step.key]);
    if (value === undefined || (step.dropEmpty && phpEmpty(value))) continue;
    out[step.key] = value;
  }
  return out;
}

/** `value` (an assembled record) with a single-read field (`json_ld`) set at its place in the descriptor's order. */
export function withSingleOnly(record: RecordDescriptor, value: Json, key: string, v: unknown): Json {
  const out: Json = {};
  for (const f of record.fields) {
    if (f.key === key) out[key] = v;
    else if (Object.hasOwn(value, f.key)) out[f.key] = value[f.key];
  }
  return out;
}

/**
 * The record as this caller may see it, then (single reads) its JSON-LD built from that, so no protected value
 * reaches `json_ld` when the record itself is blanked. Write answers go to the editor who just saved the post;
 * TEC blanks only on reads.
 */
export function forCaller(
  record: RecordDescriptor,
  post: WpPost,
  value: Json,
  o: SerializeOptions,
  jsonLd: (shown: Json) => Json,
): Json {
  const shown =
    o.context === 'write' || canSeeProtected(post, o.password) ? value : blankProtected(record, value);
  return o.context === 'single' ? withSingleOnly(record, shown, 'json_ld', jsonLd(shown)) : shown;
}
