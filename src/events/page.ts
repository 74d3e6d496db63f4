// What every post list shares: the page's records read as the caller, links that keep the filters, the envelope.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { HandlerResult } from '../http/handler.ts';
import { recordFieldsOf } from '../mapping/codec.ts';
import type { ResourceKind } from '../mapping/schema.ts';
import { asCaller } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';

/** `rest_url` echoes the effective query; unlike TEC it keeps categories and tags (docs/differences.md). */
export function listUrl(
  apiRoot: string,
  resource: string,
  params: Record<string, unknown>,
  page?: number,
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...params, page })) {
    if (v === undefined || v === null || (k === 'page' && (v === 1 || v === undefined))) continue;
    q.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = q.toString();
  return `${apiRoot}/${resource}/${s ? `?${s}` : ''}`;
}

/** The page's full records in the given order, read with the caller's credentials (WordPress has the last word). */
export async function readPage(
  deps: Deps,
  ctx: RequestContext,
  kind: ResourceKind,
  ids: number[],
  opts: { statuses?: string[]; password?: string } = {},
): Promise<WpPost[]> {
  if (!ids.length) return [];
  const res = await deps.wp.list<WpPost>({
    path: `/wp/v2/${deps.mapping[kind].restBase}`,
    // WordPress renders a protected post's content only when `password` matches it.
    query: {
      include: ids,
      per_page: ids.length,
      orderby: 'include',
      status: opts.statuses,
      password: opts.password,
      _fields: recordFieldsOf(deps.mapping, kind),
    },
    ...asCaller(ctx),
  });
  const byId = new Map(res.items.map((p) => [p.id, p]));
  return ids.map((id) => byId.get(id)).filter((p): p is WpPost => p !== undefined);
}

/** TEC's post-list envelope (`{resource}, rest_url, next_rest_url?, previous_rest_url?, total, total_pages`). */
export function postListResult(
  apiRoot: string,
  resource: string,
  records: unknown[],
  echo: Record<string, unknown>,
  page: number,
  total: number,
  totalPages: number,
): HandlerResult {
  const body: Record<string, unknown> = {
    [resource]: records,
    rest_url: listUrl(apiRoot, resource, echo, page),
  };
  if (page < totalPages) body.next_rest_url = listUrl(apiRoot, resource, echo, page + 1);
  if (page > 1) body.previous_rest_url = listUrl(apiRoot, resource, echo, page - 1);
  body.total = total;
  body.total_pages = totalPages;
  return { body, headers: { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages) } };
}
