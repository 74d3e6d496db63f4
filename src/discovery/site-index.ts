// GET /wp-json/ (and /{lang}/wp-json/): the upstream site's index with the calendar namespace and its routes added.
import type { Request, Response } from 'express';
import { NAMESPACE } from '../contract/discovery.ts';
import { allContracts } from '../contract/index.ts';
import type { Deps } from '../deps.ts';
import { badUpstreamAnswer } from '../http/errors.ts';
import { publicBase } from '../http/respond.ts';
import { describeRoutes } from './describe.ts';
import type { RootInfo } from './root.ts';

type Json = Record<string, unknown>;

/** Adds the namespace and its routes to a site index as WordPress lists registered namespaces: after the others. */
export function augmentSiteIndex(index: Json, routes: Record<string, unknown>): Json {
  const namespaces = Array.isArray(index.namespaces) ? (index.namespaces as unknown[]) : [];
  const existing = index.routes && typeof index.routes === 'object' ? (index.routes as Json) : {};
  return {
    ...index,
    namespaces: namespaces.includes(NAMESPACE) ? namespaces : [...namespaces, NAMESPACE],
    routes: { ...existing, ...routes },
  };
}

/** Keeps only the top-level keys `_fields` names, as WordPress does for the index. */
function pickFields(body: Json, fields: unknown): Json {
  if (typeof fields !== 'string' || fields.trim() === '') return body;
  const keep = new Set(fields.split(',').map((f) => f.trim().split('.')[0]));
  return Object.fromEntries(Object.entries(body).filter(([k]) => keep.has(k)));
}

/**
 * The site index is public and the same for every caller, so it is read anonymously; `restRoot` is the REST root
 * the caller used, so the added routes link to this gateway.
 */
export function siteIndexHandler(deps: Deps, root: RootInfo, publicUrl: string | undefined, prefix: string) {
  return async (req: Request, res: Response): Promise<void> => {
    const upstream = await deps.wp.request<Json>({ path: '/', as: 'anonymous', language: root.lang });
    if (!upstream.body || typeof upstream.body !== 'object') {
      throw badUpstreamAnswer('WordPress answered its index with something that is not an object.');
    }
    const base = publicBase(req, publicUrl);
    const env = { root, now: deps.now(), timezone: deps.site.timezone };
    const body = augmentSiteIndex(upstream.body, describeRoutes(allContracts(), env, `${base}${prefix}`));
    res
      .status(200)
      .type('application/json')
      .send(JSON.stringify(pickFields(body, req.query._fields)));
  };
}
