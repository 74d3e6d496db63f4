// The namespace index as WordPress's REST server builds it (`get_namespace_index` / `get_data_for_route`).
import type { ArgDef } from '../contract/args.ts';
import { NAMESPACE } from '../contract/discovery.ts';
import type { RouteContract } from '../contract/route.ts';
import { referenceUrl } from './reference.ts';
import { type DescribeEnv, documentedArgs, groupRoutes, type RootInfo, say, shownDefault } from './root.ts';

export interface ArgData {
  required: boolean;
  default?: unknown;
  description?: string;
  type?: string;
  items?: { type: string };
  enum?: readonly string[];
}

export interface EndpointData {
  methods: string[];
  args: Record<string, ArgData>;
}

export interface RouteData {
  namespace: string;
  methods: string[];
  endpoints: EndpointData[];
  _links?: { self: Array<{ href: string }> };
}

/** One argument as discovery shows it: only schema keywords WordPress lets through, never validators. */
export function describeArg(def: ArgDef, env: DescribeEnv): ArgData {
  const out: ArgData = { required: def.required === true };
  const value = shownDefault(def, env);
  if (value !== undefined) out.default = value;
  out.description = say(def.description, env.root);
  if (!def.untyped) out.type = def.type;
  if (def.type === 'array' && def.items) out.items = { type: def.items };
  if (def.enum) out.enum = def.enum;
  return out;
}

const describeEndpoint = (c: RouteContract, env: DescribeEnv): EndpointData => ({
  methods: [...c.methods],
  args: Object.fromEntries(
    documentedArgs(c.args, env.root).map(([name, def]) => [name, describeArg(def, env)]),
  ),
});

/**
 * `routes` of the namespace index, keyed by the raw route regex with the namespace prefix. `restRoot` is the REST
 * root the caller used (`{site}/wp-json` or `{site}/{lang}/wp-json`); routes without parameters link to themselves.
 */
export function describeRoutes(
  contracts: readonly RouteContract[],
  env: DescribeEnv,
  restRoot: string,
): Record<string, RouteData> {
  const routes: Record<string, RouteData> = {};
  for (const group of groupRoutes(contracts)) {
    const key = `/${NAMESPACE}${group.pattern}`;
    const endpoints = group.contracts.map((c) => describeEndpoint(c, env));
    const data: RouteData = { namespace: NAMESPACE, methods: endpoints.flatMap((e) => e.methods), endpoints };
    if (!group.pattern.includes('(?P<')) data._links = { self: [{ href: `${restRoot}${key}` }] };
    routes[key] = data;
  }
  return routes;
}

export function namespaceIndex(contracts: readonly RouteContract[], env: DescribeEnv, restRoot: string) {
  return {
    namespace: NAMESPACE,
    routes: describeRoutes(contracts, env, restRoot),
    // `help` (RFC 8288): the API reference page this gateway serves in a browser; WordPress's `up` as it has it.
    _links: {
      up: [{ href: `${restRoot}/` }],
      help: [{ href: referenceUrl(restRoot, env.root.secondary ? env.root.lang : undefined) }],
    },
  };
}

/**
 * What WordPress answers to OPTIONS on a route (`get_data_for_route`): the route's namespace, methods and endpoints
 * with their arguments, as in the namespace index but without links.
 */
export function describeRoute(
  contracts: readonly RouteContract[],
  deps: { now: () => Date; site: { timezone: string } },
  root: RootInfo,
  apiRoot: string,
): RouteData | undefined {
  const env: DescribeEnv = { root, now: deps.now(), timezone: deps.site.timezone };
  const [route] = Object.values(describeRoutes(contracts, env, apiRoot));
  if (!route) return undefined;
  const { _links: _, ...data } = route;
  return data;
}
