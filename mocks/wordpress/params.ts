// Validation of request arguments the way WP_REST_Request::has_valid_params does (all errors collected, then reported).
import { DateTime } from 'luxon';
import { listSentence, type Params, parseList, WpError } from './http-util.ts';

type Spec =
  | { kind: 'int'; min?: number; max?: number }
  | { kind: 'int-list' }
  | { kind: 'string' }
  | { kind: 'string-list'; enum?: string[] }
  | { kind: 'enum'; values: string[] }
  | { kind: 'date' }
  | { kind: 'bool' };

export type Specs = Record<string, Spec>;

export interface ParamError {
  code: string;
  message: string;
}

const isIntString = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v.trim()));

/** rest_parse_date: RFC 3339 with optional offset; the offset is dropped later by WP_Date_Query, as on WordPress. */
export const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

function check(name: string, spec: Spec, value: unknown): ParamError | null {
  switch (spec.kind) {
    case 'int': {
      if (!isIntString(value))
        return { code: 'rest_invalid_type', message: `${name} is not of type integer.` };
      const n = Number(value);
      if (spec.min !== undefined && spec.max !== undefined && (n < spec.min || n > spec.max)) {
        return {
          code: 'rest_out_of_bounds',
          message: `${name} must be between ${spec.min} (inclusive) and ${spec.max} (inclusive)`,
        };
      }
      if (spec.min !== undefined && n < spec.min)
        return {
          code: 'rest_out_of_bounds',
          message: `${name} must be greater than or equal to ${spec.min}`,
        };
      return null;
    }
    case 'int-list': {
      const items = parseList(value);
      for (let i = 0; i < items.length; i++) {
        if (!isIntString(items[i]))
          return { code: 'rest_invalid_type', message: `${name}[${i}] is not of type integer.` };
      }
      return null;
    }
    case 'string-list': {
      if (!spec.enum) return null;
      const items = parseList(value);
      for (let i = 0; i < items.length; i++) {
        if (!spec.enum.includes(items[i] as string)) {
          return {
            code: 'rest_not_in_enum',
            message: `${name}[${i}] is not one of ${listSentence(spec.enum)}.`,
          };
        }
      }
      return null;
    }
    case 'enum':
      return spec.values.includes(String(value))
        ? null
        : { code: 'rest_not_in_enum', message: `${name} is not one of ${listSentence(spec.values)}.` };
    case 'date':
      return DATE_RE.test(String(value)) ? null : { code: 'rest_invalid_date', message: 'Invalid date.' };
    case 'bool':
      return ['true', 'false', '1', '0', '', 'yes', 'no'].includes(String(value).toLowerCase()) ||
        typeof value === 'boolean'
        ? null
        : { code: 'rest_invalid_type', message: `${name} is not of type boolean.` };
    default:
      return null;
  }
}

/** Throws rest_invalid_param listing every invalid argument (the `params` and `details` of WordPress). */
export function validateParams(params: Params, specs: Specs): void {
  const messages: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name];
    if (value === undefined) continue;
    const err = check(name, spec, value);
    if (err) {
      messages[name] = err.message;
      details[name] = { code: err.code, message: err.message, data: null };
    }
  }
  const names = Object.keys(messages);
  if (names.length > 0) {
    throw new WpError('rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, 400, {
      params: messages,
      details,
    });
  }
}

export const toBool = (v: unknown): boolean =>
  v === true || ['true', '1', 'yes'].includes(String(v).toLowerCase());
export const intList = (v: unknown): number[] => parseList(v).map(Number);

/**
 * A date argument as site-local `Y-m-d H:i:s`, like WP_Date_Query::build_mysql_datetime: an offset (`Z`, `+02:00`)
 * is honoured and converted to the site timezone; without one the value is taken as site-local.
 */
export function siteLocal(v: unknown, timezone: string): string {
  const m = DATE_RE.exec(String(v));
  if (!m) return '';
  const wall = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  const zone = m[8] ? (m[8] === 'Z' || m[8] === 'z' ? 'UTC' : `UTC${m[8]}`) : timezone;
  return DateTime.fromISO(wall, { zone }).setZone(timezone).toFormat('yyyy-MM-dd HH:mm:ss');
}
