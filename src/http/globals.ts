// WordPress's global REST parameters (`_fields`, `_envelope`, `_jsonp`, `_method`), read and applied as
// WP_REST_Server::serve_request and rest_filter_response_fields do. Pure: the shape stage applies them to answers.
import type { IncomingHttpHeaders } from 'node:http';

/** The global parameters' names: never arguments of a route, and never part of a cache key. */
export const GLOBAL_PARAMS = ['_fields', '_envelope', '_jsonp', '_method'] as const;

export interface Globals {
  /** `_envelope` is set (any value, `isset($_GET['_envelope'])`): the answer becomes `{body, status, headers}`. */
  envelope: boolean;
  /**
   * `_jsonp` as WordPress reads it: absent when not set or PHP-falsy (`''`, `'0'`), else the callback, or `false`
   * when it is not a string (an array), which wp_check_jsonp_callback refuses.
   */
  jsonp?: string | false;
}

/** PHP's truthiness of a query value: `''` and `'0'` are false, any array with items is true. */
const phpTruthy = (v: unknown): boolean => {
  if (v === undefined || v === null || v === '' || v === '0') return false;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
};

/** The query's global parameters (only the query string counts for these two, `$_GET` in serve_request). */
export function globalsOf(query: Record<string, unknown>): Globals {
  const g: Globals = { envelope: query._envelope !== undefined };
  const cb = query._jsonp;
  if (phpTruthy(cb)) g.jsonp = typeof cb === 'string' ? cb : false;
  return g;
}

/** wp_check_jsonp_callback: a string of word characters and dots only. */
export const isJsonpCallback = (cb: string | false): cb is string =>
  typeof cb === 'string' && /^[\w.]+$/.test(cb);

/**
 * The method WordPress dispatches: `?_method=`, else `X-HTTP-Method-Override`, upper-cased, as serve_request reads
 * them, but only on a POST. WordPress lets a GET become a DELETE too; here a GET is always a read, so a link or an
 * image (with `_wpnonce` in its URL) can never write.
 */
export function effectiveMethod(
  method: string,
  query: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): string {
  if (method !== 'POST') return method;
  const header = headers['x-http-method-override'];
  const o = query._method ?? (Array.isArray(header) ? header[0] : header);
  return typeof o === 'string' && o !== '' ? o.toUpperCase() : method;
}

/** A `_fields` tree: `true` keeps a key whole, a subtree keeps only the keys it names. */
export type FieldTree = { [key: string]: true | FieldTree };

/**
 * `_fields` as rest_filter_response_fields reads it (wp_parse_list: a comma/space list or an array of scalars,
 * trimmed; `a.b` nests), or undefined when it names nothing. `a` after `a.b` keeps all of `a`; `a.b` after `a` stops
 * the reading of the list there, fields after it included (WordPress's `break 2`).
 */
export function fieldsOf(value: unknown): FieldTree | undefined {
  let list: string[];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') {
    list = Object.values(value as object)
      .filter((v) => ['string', 'number', 'boolean'].includes(typeof v))
      .map((v) => (v === true ? '1' : v === false ? '' : String(v)).trim());
  } else {
    list = String(value)
      .split(/[\s,]+/)
      .filter((s) => s !== '');
  }
  if (list.length === 0) return undefined;
  const tree: FieldTree = Object.create(null);
  outer: for (const field of list) {
    const parts = field.split('.');
    let ref = tree;
    while (parts.length > 1) {
      const next = parts.shift() as string;
      // WordPress's `break 2`: a sub-field of a field already kept whole ends the reading of the list there.
      if (ref[next] === true) break outer;
      ref[next] ??= Object.create(null) as FieldTree;
      ref = ref[next] as FieldTree;
    }
    ref[parts[0] as string] = true;
  }
  return tree;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isContainer = (v: Json): v is Json[] | { [k: string]: Json } => typeof v === 'object' && v !== null;

/**
 * `_rest_array_intersect_key_recursive`: the keys of `data` the tree names (list items by their index, as PHP keys
 * them), recursing where both sides nest. What PHP would encode as a list stays one (kept indices 0..n-1); kept
 * indices with gaps become an object, and nothing kept is `[]` (PHP's empty array), as wp_json_encode writes them.
 */
function intersect(data: Json[] | { [k: string]: Json }, tree: FieldTree): Json {
  const entries: Array<[string, Json]> = [];
  for (const [k, v] of Object.entries(data)) {
    const t = tree[k];
    if (t === undefined) continue;
    entries.push([k, t !== true && isContainer(v) ? intersect(v, t) : v]);
  }
  if (entries.length === 0) return [];
  if (Array.isArray(data) && entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}

/** rest_filter_response_fields over a response's data: a list filters each item, anything else itself. */
export function filterFields(data: unknown, tree: FieldTree): unknown {
  const d = data as Json;
  if (Array.isArray(d)) return d.map((item) => (isContainer(item) ? intersect(item, tree) : item));
  return isContainer(d) ? intersect(d, tree) : d;
}

/** Header names as the handlers and WordPress spell them (answers keep them lower-cased). */
const HEADER_NAMES: Record<string, string> = {
  'x-tec-total': 'X-TEC-Total',
  'x-tec-totalpages': 'X-TEC-TotalPages',
  'x-wp-total': 'X-WP-Total',
  'x-wp-totalpages': 'X-WP-TotalPages',
};

const headerName = (lower: string): string =>
  HEADER_NAMES[lower] ??
  lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/**
 * envelope_response: `{body, status, headers}`, the response's own headers inside (TEC sets its totals as numbers),
 * an empty set written `[]` as PHP's empty array is. The content type is the server's, not the response's.
 */
export function envelopeOf(body: unknown, status: number, headers: Record<string, string>): unknown {
  const own = Object.entries(headers)
    .filter(([k]) => k !== 'content-type')
    .map(([k, v]): [string, string | number] => [
      headerName(k),
      /^x-(tec|wp)-total/.test(k) && /^\d+$/.test(v) ? Number(v) : v,
    ]);
  return { body, status, headers: own.length ? Object.fromEntries(own) : [] };
}

/** The JSONP body: `/**\/callback(json)`, the comment WordPress prepends against Rosetta Flash. */
export const jsonpOf = (callback: string, json: string): string => `/**/${callback}(${json})`;

export const JAVASCRIPT_TYPE = 'application/javascript; charset=utf-8';
