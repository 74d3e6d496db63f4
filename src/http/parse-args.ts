// WordPress's argument pipeline over a contract's argument shape: required ones first, then each present argument
// through its schema and its named format; defaults fill what is absent. The one parser of every request (the
// cache key, the shareability decision and the handler read what it returns) and of nested venue and organizer
// objects on event writes.
import {
  type ArgDef,
  type ArgFormat,
  type ArgsOf,
  type ArgsShape,
  INVALID,
  maxLengthOf,
  WHY,
} from '../contract/args.ts';

/**
 * The checks behind the contract's named formats, each given the schema's string result. They come from outside
 * (src/formats.ts), so that the parser depends on no date or media code.
 */
export type FormatChecks = Record<ArgFormat, (value: string) => boolean>;

export interface ArgIssue {
  name: string;
  message: string;
}

/** `page must be …`: a reason gets the parameter's name in front; a message that names it already is kept. */
export function withName(name: string, message: string): string {
  return message.startsWith(name) || /^[A-Z]/.test(message) ? message : `${name} ${message}`;
}

// The bound lives with the contract (/doc shows it as maxLength); the parser checks it.
export { maxLengthOf };

/** Whether a value, or a string in a list of them, is longer than `max` (objects are parsed, and bounded, apart). */
const tooLong = (value: unknown, max: number): boolean =>
  typeof value === 'string'
    ? value.length > max
    : Array.isArray(value) && value.some((v) => typeof v === 'string' && v.length > max);

function parseOne(
  def: ArgDef,
  value: unknown,
  formats: FormatChecks,
): { ok: true; value: unknown } | { ok: false; why: string } {
  // Before the schema and the format: what it costs to read a value must not grow with what a caller sends.
  const max = maxLengthOf(def);
  if (tooLong(value, max)) return { ok: false, why: `must be at most ${max} characters long.` };
  const r = def.schema.safeParse(value);
  if (!r.success) return { ok: false, why: r.error.issues[0]?.message ?? INVALID };
  if (def.format && !formats[def.format](String(r.data))) return { ok: false, why: WHY[def.format] };
  return { ok: true, value: r.data };
}

/** What parsing a request's arguments gave: the arguments, or the names missing, or the failing ones and why. */
export type Parsed<A = Record<string, unknown>> =
  | { ok: true; args: A }
  | { ok: false; missing: string[] }
  | { ok: false; invalid: ArgIssue[] };

/**
 * A default as the argument's own schema reads it, so an absent argument and one sent with its default value parse
 * alike (`strict_dates` defaults to TEC's text `'false'`, which the schema reads as `false`). One that the schema
 * refuses is applied as it is.
 */
function defaultOf(def: ArgDef): unknown {
  if (parsedDefaults.has(def)) return parsedDefaults.get(def);
  const r = def.schema.safeParse(def.default);
  const value = r.success ? r.data : def.default;
  parsedDefaults.set(def, value);
  return value;
}

/** Each definition's default as parsed, once: the contract's definitions never change. */
const parsedDefaults = new WeakMap<ArgDef, unknown>();

/** Unknown parameters are ignored, as WordPress does. */
export function parseArgs<S extends ArgsShape>(
  shape: S,
  raw: Record<string, unknown>,
  formats: FormatChecks,
): Parsed<ArgsOf<S>> {
  const missing = Object.entries(shape)
    .filter(([name, def]) => def.required && (raw[name] === undefined || raw[name] === null))
    .map(([name]) => name);
  if (missing.length) return { ok: false, missing };
  const out: Record<string, unknown> = {};
  const invalid: ArgIssue[] = [];
  for (const [name, def] of Object.entries(shape)) {
    const value = raw[name];
    if (value === undefined || value === null) {
      if (def.default !== undefined) out[name] = defaultOf(def);
      continue;
    }
    const r = parseOne(def, value, formats);
    if (r.ok) out[name] = r.value;
    else invalid.push({ name, message: withName(name, r.why) });
  }
  if (invalid.length) return { ok: false, invalid };
  return { ok: true, args: out as ArgsOf<S> };
}
