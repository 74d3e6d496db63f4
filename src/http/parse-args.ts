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

/** Unknown parameters are ignored, as WordPress does. */
export function parseArgs<S extends ArgsShape>(
  shape: S,
  raw: Record<string, unknown>,
  formats: FormatChecks,
): { ok: true; args: ArgsOf<S> } | { ok: false; missing: string[] } | { ok: false; invalid: ArgIssue[] } {
  const missing = Object.entries(shape)
    .filter(([name, def]) => def.required && (raw[name] === undefined || raw[name] === null))
    .map(([name]) => name);
  if (missing.length) return { ok: false, missing };
  const out: Record<string, unknown> = {};
  const invalid: ArgIssue[] = [];
  for (const [name, def] of Object.entries(shape)) {
    const value = raw[name];
    if (value === undefined || value === null) {
      if (def.default !== undefined) out[name] = def.default;
      continue;
    }
    const r = parseOne(def, value, formats);
    if (r.ok) out[name] = r.value;
    else invalid.push({ name, message: withName(name, r.why) });
  }
  if (invalid.length) return { ok: false, invalid };
  return { ok: true, args: out as ArgsOf<S> };
}
