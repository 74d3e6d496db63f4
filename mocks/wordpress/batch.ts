// POST /batch/v1 of the mock WordPress, as WP_REST_Server::serve_batch_request_v1 (5.6+) answers it.
import { HttpResponse } from 'msw';
import { WpError } from './http-util.ts';

/** WordPress's default `rest_get_max_batch_size`. */
const MAX_BATCH = 25;
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];
/** Headers of a sub-response that belong to the HTTP answer, not to the WP_REST_Response WordPress envelopes. */
const NOT_ENVELOPED = /^(content-type|content-length|access-control-|vary$)/i;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface BatchRoutes {
  /** The REST root (`http://…/wp-json`): sub-request paths are relative to it. */
  root: string;
  /** Runs one request as the mock's router does, its WpErrors already turned into error answers. */
  run: (request: Request) => Promise<Response>;
  /** Whether a path names a route that allows batching (posts and terms, not attachments: allow_batch). */
  allowsBatch: (path: string) => boolean;
  /** Whether a path names any route (else `rest_no_route`). */
  exists: (path: string) => boolean;
}

const invalid = (param: string, why: string) =>
  new WpError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, {
    params: { [param]: why },
    details: {},
  });

/**
 * Runs each sub-request in turn with the batch's own credentials and answers 207 `{responses: [{body, status,
 * headers}]}` in their order. A sub-request to a route without batch support answers `rest_batch_not_allowed`; with
 * `validation: require-all-validate`, any such error stops the batch before anything runs (`failed: validation`,
 * `null` for the valid ones). Unlike WordPress, the mock checks only routes before running (not each argument).
 */
export async function serveBatch(params: Json, outer: Request, routes: BatchRoutes): Promise<Response> {
  const validation = params.validation ?? 'normal';
  if (validation !== 'normal' && validation !== 'require-all-validate')
    throw invalid('validation', 'validation is not one of require-all-validate and normal.');
  const requests = params.requests;
  if (requests === undefined)
    throw new WpError('rest_missing_callback_param', 'Missing parameter(s): requests', 400, {
      params: ['requests'],
    });
  if (!Array.isArray(requests)) throw invalid('requests', 'requests is not of type array.');
  if (requests.length > MAX_BATCH)
    throw invalid('requests', `requests must contain at most ${MAX_BATCH} items.`);
  for (const [i, r] of requests.entries()) {
    if (!isObj(r)) throw invalid('requests', `requests[${i}] is not of type object.`);
    if (typeof r.path !== 'string')
      throw invalid('requests', `requests[${i}][path] is a required property of requests[${i}].`);
    if (r.method !== undefined && !METHODS.includes(String(r.method)))
      throw invalid('requests', `requests[${i}][method] is not one of POST, PUT, PATCH, and DELETE.`);
  }
  const checks = (requests as Json[]).map((r) => {
    const path = String(r.path).split('?')[0] ?? '';
    if (!routes.exists(path))
      return new WpError('rest_no_route', 'No route was found matching the URL and request method.', 404);
    if (!routes.allowsBatch(path))
      return new WpError(
        'rest_batch_not_allowed',
        'The requested route does not support batch requests.',
        400,
      );
    return null;
  });
  const envelope = (e: WpError) => ({
    body: { code: e.code, message: e.message, data: { status: e.status, ...e.data } },
    status: e.status,
    headers: {},
  });
  if (validation === 'require-all-validate' && checks.some(Boolean)) {
    return HttpResponse.json(
      { failed: 'validation', responses: checks.map((e) => (e ? envelope(e) : null)) },
      { status: 207 },
    );
  }
  const responses: unknown[] = [];
  for (const [i, r] of (requests as Json[]).entries()) {
    const error = checks[i];
    if (error) {
      responses.push(envelope(error));
      continue;
    }
    const headers = new Headers({ 'Content-Type': 'application/json' });
    const auth = outer.headers.get('authorization');
    if (auth) headers.set('Authorization', auth);
    const res = await routes.run(
      new Request(`${routes.root}${r.path}`, {
        method: String(r.method ?? 'POST'),
        headers,
        body: JSON.stringify(isObj(r.body) ? r.body : {}),
      }),
    );
    const kept: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!NOT_ENVELOPED.test(k)) kept[k] = v;
    });
    responses.push({ body: await res.json(), status: res.status, headers: kept });
  }
  return HttpResponse.json({ responses }, { status: 207 });
}
