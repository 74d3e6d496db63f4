// Small HTTP helpers shared by the mock's routes: WordPress errors, request params (query + JSON/form body), _fields.
import { HttpResponse } from 'msw';

/** A WP_Error: serialised as `{code, message, data: {status, ...}}` like rest_convert_error_to_response. */
export class WpError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Record<string, unknown>;
  constructor(code: string, message: string, status: number, data: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
  }
}

/** rest_authorization_required_code(): 403 for a logged-in user, 401 for anonymous. */
export const authCode = (loggedIn: boolean): number => (loggedIn ? 403 : 401);

export function errorResponse(e: WpError): Response {
  return HttpResponse.json(
    { code: e.code, message: e.message, data: { status: e.status, ...e.data } },
    { status: e.status },
  );
}

export type Params = Record<string, unknown>;

/** Parses `a[b][]=1` style keys (PHP's $_GET/$_POST) into nested objects and arrays. */
export function setPhpKey(out: Params, key: string, value: string): void {
  const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(key);
  if (!m?.[2]) {
    out[key] = value;
    return;
  }
  const path = [m[1] as string, ...[...m[2].matchAll(/\[([^\]]*)\]/g)].map((x) => x[1] as string)];
  let node: Record<string, unknown> | unknown[] = out;
  for (let i = 0; i < path.length; i++) {
    const k = path[i] as string;
    const last = i === path.length - 1;
    const container = node as Record<string, unknown> & unknown[];
    if (last) {
      if (k === '' && Array.isArray(node)) node.push(value);
      else container[k as unknown as number] = value;
      return;
    }
    const nextIsList = path[i + 1] === '';
    let child = k === '' && Array.isArray(node) ? undefined : container[k as unknown as number];
    if (child === undefined || typeof child !== 'object' || child === null) {
      child = nextIsList ? [] : {};
      if (k === '' && Array.isArray(node)) node.push(child);
      else container[k as unknown as number] = child;
    }
    node = child as Record<string, unknown> | unknown[];
  }
}

export function queryParams(url: URL): Params {
  const out: Params = {};
  for (const [k, v] of url.searchParams) setPhpKey(out, k, v);
  return out;
}

/** Body params: JSON object, or urlencoded/multipart form. WordPress gives body params precedence over the query. */
export async function bodyParams(request: Request): Promise<Params> {
  const type = request.headers.get('content-type') ?? '';
  const text = await request.text();
  if (!text) return {};
  if (type.includes('application/json')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Params;
      return {};
    } catch {
      throw new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4 });
    }
  }
  const out: Params = {};
  if (type.includes('multipart/form-data')) {
    const form = await new Response(text, { headers: { 'content-type': type } }).formData();
    form.forEach((v, k) => {
      if (typeof v === 'string') setPhpKey(out, k, v);
    });
    return out;
  }
  for (const [k, v] of new URLSearchParams(text)) setPhpKey(out, k, v);
  return out;
}

/** wp_parse_list: a CSV string or an array, trimmed, empties dropped. */
export function parseList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const items = Array.isArray(v) ? v.map(String) : String(v).split(/[\s,]+/);
  return items.map((s) => s.trim()).filter((s) => s !== '');
}

/** rest_filter_response_fields: keeps only the requested top-level and dotted nested fields. */
export function filterFields(data: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const parts = f.split('.');
    let src: unknown = data;
    let dst: Record<string, unknown> = out;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] as string;
      if (!src || typeof src !== 'object' || !(p in (src as object))) break;
      const value = (src as Record<string, unknown>)[p];
      if (i === parts.length - 1) {
        dst[p] = value;
      } else {
        if (typeof dst[p] !== 'object' || dst[p] === null) dst[p] = {};
        dst = dst[p] as Record<string, unknown>;
        src = value;
      }
    }
  }
  return out;
}

/** wp_sprintf's `%l`: "a, b, and c". */
export function listSentence(items: string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

/** One invalid request parameter (rest_invalid_param with `params` and `details`, as WP_REST_Request builds it). */
export function invalidParam(
  name: string,
  code: string,
  message: string,
  status: number | null = null,
): WpError {
  return new WpError('rest_invalid_param', `Invalid parameter(s): ${name}`, 400, {
    params: { [name]: message },
    details: { [name]: { code, message, data: status === null ? null : { status } } },
  });
}

/** Builds a `Link` header value from rel → URL. */
export function linkHeader(links: Array<[string, string]>): string {
  return links.map(([rel, url]) => `<${url}>; rel="${rel}"`).join(', ');
}
