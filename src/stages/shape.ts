// Stage: WordPress's global parameters over the finished answer: `_fields`, then `_envelope`, then `_jsonp`, in
// WP_REST_Server::serve_request's order. The stages inside (the cache above all) only ever see and store the full
// answer; each shaped form is made once per answer and kept beside it.
import { type Answer, answerOf, JSON_TYPE } from '../http/answer.ts';
import { besideOf, countBeside, keptBeside, uncount } from '../http/beside.ts';
import { jsonpCallbackInvalid, jsonpDisabled } from '../http/errors.ts';
import type { Stage } from '../http/exchange.ts';
import {
  envelopeOf,
  type FieldTree,
  fieldsOf,
  filterFields,
  type Globals,
  isJsonpCallback,
  JAVASCRIPT_TYPE,
  jsonpOf,
} from '../http/globals.ts';
import { errorAnswer, toApiError } from '../http/respond.ts';
import type { Logger } from '../log.ts';

/** What one request asks of its answer, or undefined when it asks nothing (the answer goes out as it is). */
export interface Shape {
  fields?: FieldTree;
  envelope: boolean;
  jsonp?: string;
}

/** The shape a request asks for: `_fields` from its arguments (query or body, as `$request['_fields']` reads it). */
export function shapeOf(g: Globals, raw: Record<string, unknown>, jsonpEnabled: boolean): Shape | undefined {
  const fields = fieldsOf(raw._fields);
  const jsonp = jsonpEnabled && typeof g.jsonp === 'string' ? g.jsonp : undefined;
  if (!fields && !g.envelope && !jsonp) return undefined;
  return { fields, envelope: g.envelope, jsonp };
}

/**
 * A `_jsonp` WordPress refuses before anything else is done (no route, no credentials, no envelope): a site with
 * JSONP off (`rest_callback_disabled`, sent as JSON) or a callback that is not a dotted name (`rest_callback_invalid`,
 * sent as JavaScript, the type WordPress has already announced by then).
 */
export function jsonpRefusal(g: Globals, jsonpEnabled: boolean): Answer | undefined {
  if (g.jsonp === undefined) return undefined;
  if (!jsonpEnabled) return errorAnswer(jsonpDisabled());
  if (isJsonpCallback(g.jsonp)) return undefined;
  const a = errorAnswer(jsonpCallbackInvalid());
  return { ...a, headers: { ...a.headers, 'content-type': JAVASCRIPT_TYPE } };
}

/** Shaped forms of one answer (at most this many per answer: `_fields` lists are the caller's to vary). */
const MAX_FORMS = 16;
const forms = new WeakMap<Answer, Map<string, Answer>>();

/** The answer in the shape asked for: rest_filter_response_fields (not on errors), envelope_response, JSONP. */
export function shaped(answer: Answer, shape: Shape): Answer {
  const type = answer.headers['content-type'] ?? JSON_TYPE;
  if (!type.startsWith('application/json')) return answer;
  const key = JSON.stringify(shape);
  let known = forms.get(answer);
  const hit = known?.get(key);
  if (hit) return hit;
  let data: unknown = JSON.parse(answer.body.toString('utf8'));
  let status = answer.status;
  let headers: Record<string, string> = answer.headers;
  if (shape.fields && status < 400) data = filterFields(data, shape.fields);
  if (shape.envelope) {
    data = envelopeOf(data, status, headers);
    status = 200;
    headers = {};
  }
  let body = JSON.stringify(data);
  let contentType = type;
  if (shape.jsonp) {
    body = jsonpOf(shape.jsonp, body);
    contentType = JAVASCRIPT_TYPE;
  }
  const out = answerOf(body, { status, headers: { ...headers, 'content-type': contentType } });
  if (!known) {
    known = new Map();
    forms.set(answer, known);
  }
  if (known.size >= MAX_FORMS) {
    const first = known.keys().next().value as string;
    const dropped = known.get(first) as Answer;
    known.delete(first);
    uncount(dropped);
    keptBeside(answer, -(dropped.body.length + besideOf(dropped)));
  }
  known.set(key, out);
  // Kept as long as the answer is: a stored answer's budget counts the form, and the form's own gzip when it is made.
  keptBeside(answer, out.body.length);
  countBeside(out, (delta) => keptBeside(answer, delta));
  return out;
}

/**
 * Runs outside every other stage, so the envelope wraps every answer, a refusal of the credentials or the arguments
 * included (WordPress envelopes errors too). A request that asks for no shape passes through untouched.
 */
export const shapeStage =
  (log: Logger, jsonpEnabled: boolean): Stage =>
  async (x, next) => {
    // iCalendar feeds are no REST data (TEC's feed is a front-end URL): WordPress's parameters do not apply to them.
    if (x.binding.contract.produces === 'ical') return next();
    const refusal = jsonpRefusal(x.globals, jsonpEnabled);
    if (refusal) {
      x.answer = refusal;
      return;
    }
    // A read's arguments are all known here; a write's `_fields` may come in its body, read after authenticate.
    if (x.method === 'GET' && !shapeOf(x.globals, x.raw, jsonpEnabled)) return next();
    try {
      await next();
    } catch (err) {
      x.answer = errorAnswer(toApiError(err, log, x.requestId));
    }
    const shape = shapeOf(x.globals, x.raw, jsonpEnabled);
    if (shape && x.answer) x.answer = shaped(x.answer, shape);
  };
