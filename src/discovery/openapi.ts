// GET /doc: an OpenAPI 3.0.0 document shaped like TEC's, generated from the same contract that validates requests.
import type { ArgDef } from '../contract/args.ts';
import type { Method, RouteContract } from '../contract/route.ts';
import { type DescribeEnv, documentedArgs, groupRoutes, say, shownDefault } from './root.ts';
import { componentSchemas, errorSchema, responseSchema } from './schemas.ts';

type Json = Record<string, unknown>;

const INFO = {
  title: { en: 'Calendar Events REST API', es: 'API REST de eventos del calendario' },
  description: {
    en: 'Events, venues, organizers, event categories and event tags of the calendar (TEC-compatible). Updates accept POST, PUT and PATCH alike; create is also documented on each collection.',
    es: 'Eventos, lugares, organizadores, categorías y etiquetas de eventos del calendario (compatible con TEC). Las actualizaciones aceptan POST, PUT y PATCH por igual; la creación también se documenta en cada colección.',
  },
};

/** A property or parameter schema: type, items, default and enum as the contract declares them. */
function argSchema(def: ArgDef, env: DescribeEnv): Json {
  const s: Json = { type: def.type };
  if (def.type === 'array') s.items = { type: def.items ?? 'string' };
  const value = shownDefault(def, env);
  if (value !== undefined) s.default = value;
  if (def.enum) s.enum = [...def.enum];
  return s;
}

function parameter(name: string, def: ArgDef, env: DescribeEnv): Json {
  const where = def.in === 'path' ? 'path' : 'query';
  const p: Json = {
    name,
    in: where,
    description: say(def.description, env.root),
    schema: argSchema(def, env),
    required: where === 'path' || def.required === true,
  };
  // TEC documents its CSV arguments as form style without explode (`a,b,c`).
  if (def.csv && where === 'query') Object.assign(p, { style: 'form', explode: false });
  return p;
}

/** Path parameters stay parameters; every other argument of a write goes in a form (or JSON) body. */
function requestBody(args: Array<[string, ArgDef]>, env: DescribeEnv): Json | undefined {
  const body = args.filter(([, def]) => def.in !== 'path');
  if (body.length === 0) return undefined;
  const required = body.filter(([, def]) => def.required).map(([name]) => name);
  const schema: Json = {
    type: 'object',
    properties: Object.fromEntries(
      body.map(([name, def]) => [
        name,
        { ...argSchema(def, env), description: say(def.description, env.root) },
      ]),
    ),
  };
  if (required.length) schema.required = required;
  return {
    required: required.length > 0,
    content: { 'application/x-www-form-urlencoded': { schema }, 'application/json': { schema } },
  };
}

const ERROR_RESPONSE = {
  description: 'A WordPress error: `{code, message, data: {status}}`.',
  content: { 'application/json': { schema: errorSchema } },
};

function operation(c: RouteContract, method: Method, path: string, env: DescribeEnv): Json {
  const args = documentedArgs(c.args, env.root);
  const write = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const params = args.filter(([, def]) => !write || def.in === 'path').map(([n, d]) => parameter(n, d, env));
  const single = path.includes('{');
  const created = method === 'POST' && !single;
  const op: Json = {
    operationId: method === c.methods[0] ? c.id : `${c.id}.${method.toLowerCase()}`,
    summary: say(c.summary, env.root),
    tags: [path.split('/')[1] || 'discovery'],
  };
  if (params.length) op.parameters = params;
  const body = write ? requestBody(args, env) : undefined;
  if (body) op.requestBody = body;
  op.responses = {
    [created ? '201' : '200']: {
      description: say(c.summary, env.root),
      content: { 'application/json': { schema: responseSchema(path, single) } },
    },
    default: ERROR_RESPONSE,
  };
  return op;
}

/** `servers[0].url` is the API root the caller used, with a trailing slash as TEC prints it. */
export function openApiDocument(
  contracts: readonly RouteContract[],
  env: DescribeEnv,
  apiRoot: string,
): Json {
  const paths: Json = {};
  for (const group of groupRoutes(contracts)) {
    const item: Json = {};
    for (const c of group.contracts) {
      for (const method of c.methods) item[method.toLowerCase()] = operation(c, method, group.path, env);
    }
    paths[group.path] = item;
  }
  return {
    openapi: '3.0.0',
    info: {
      version: '1.0.0',
      title: say(INFO.title, env.root),
      description: say(INFO.description, env.root),
    },
    servers: [{ url: `${apiRoot}/` }],
    components: { schemas: componentSchemas },
    paths,
  };
}
