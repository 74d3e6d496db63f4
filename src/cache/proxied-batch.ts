// A `/wp-json/batch/v1` request that went through the gateway's proxy: each sub-request's write, as a single one.
import type { Mapping } from '../mapping/schema.ts';
import type { Change } from './notify.ts';
import { changeOfWrite } from './proxied-writes.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The changes a batch made, from what it asked (`{requests: [{method, path, body}]}`) and what WordPress answered
 * (207 `{responses: [{body, status, headers}]}`, in the order of the requests). WordPress runs the sub-requests in
 * turn (WP_REST_Server::serve_batch_request_v1): each one it answered with a success is applied as the same write
 * sent alone would be (`changeOfWrite`). A batch refused whole, or one whose validation failed (`failed:
 * 'validation'`: nothing ran), changed nothing. Sub-request paths are relative to the REST root and take no method
 * override. Pure.
 */
export function changesOfBatch(
  mapping: Mapping,
  asked: unknown,
  status: number,
  answered: unknown,
): Change[] {
  if (status !== 207 && status !== 200) return [];
  if (!isObj(asked) || !isObj(answered) || answered.failed !== undefined) return [];
  const requests = asked.requests;
  const responses = answered.responses;
  if (!Array.isArray(requests) || !Array.isArray(responses)) return [];
  const out: Change[] = [];
  requests.forEach((r, i) => {
    const a = responses[i];
    if (!isObj(r) || !isObj(a) || typeof r.path !== 'string' || !r.path.startsWith('/')) return;
    const method = typeof r.method === 'string' ? r.method.toUpperCase() : 'POST';
    const change = changeOfWrite(mapping, method, `/wp-json${r.path}`, Number(a.status), a.body);
    if (change) out.push(change);
  });
  return out;
}
