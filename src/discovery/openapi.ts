// GET /doc: an OpenAPI 3.0.0 document shaped like TEC's, generated from the same contract that validates requests.
import { type ArgDef, maxLengthOf, minLengthOf } from '../contract/args.ts';
import { linkedWriteArgs } from '../contract/linked.ts';
import type { Method, RouteContract } from '../contract/route.ts';
import { resolveListDates } from '../dates/window.ts';
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

/**
 * Defaults the list handler computes per request, as it applies them (inclusive days, the default mode). Discovery
 * shows TEC's own values (`yesterday 23:59`); the document says what a client gets.
 */
function appliedDefault(name: string, env: DescribeEnv): string | undefined {
  if (env.stable || (name !== 'start_date' && name !== 'end_date')) return undefined;
  const window = resolveListDates({}, { timezone: env.timezone }, env.now);
  if (!window.ok) return undefined;
  return name === 'start_date' ? window.filter.startGte : window.filter.endLte;
}

/**
 * The parser's length bounds on every string the schema takes: the longest on each, alone or in a list; the
 * shortest on a value that is itself a string (a list's empty items are dropped, not refused). A nested venue or
 * organizer (a `$ref`) is parsed and bounded by its own arguments.
 */
function withLengthBounds(s: Json, min: number, max: number): void {
  if (s.$ref !== undefined) return;
  if (s.type === 'string' && s.enum === undefined) {
    if (min > 0) s.minLength = min;
    s.maxLength = max;
  }
  if (s.items && typeof s.items === 'object') withLengthBounds(s.items as Json, 0, max);
  for (const branch of [s.anyOf, s.oneOf])
    if (Array.isArray(branch)) for (const b of branch as Json[]) withLengthBounds(b, min, max);
}

/**
 * A property or parameter schema: what the argument accepts when it is wider than its type (ids or slugs, numbers
 * as text, nested objects), else its type, items and enum; and its default.
 */
function argSchema(def: ArgDef, env: DescribeEnv, applied?: string): Json {
  const s: Json = def.accepts ? structuredClone(def.accepts) : { type: def.type };
  if (!def.accepts && def.type === 'array') s.items = { type: def.items ?? 'string' };
  if (!def.accepts && def.enum) s.enum = [...def.enum];
  withLengthBounds(s, minLengthOf(def), maxLengthOf(def));
  const value = applied ?? shownDefault(def, env);
  if (value !== undefined) s.default = value;
  if (def.in === 'body' && def.example !== undefined) s.example = structuredClone(def.example);
  return s;
}

function parameter(name: string, def: ArgDef, env: DescribeEnv, list: boolean): Json {
  const where = def.in === 'path' ? 'path' : 'query';
  const p: Json = {
    name,
    in: where,
    description: say(def.description, env.root),
    schema: argSchema(def, env, list ? appliedDefault(name, env) : undefined),
    required: where === 'path' || def.required === true,
  };
  // TEC documents its CSV arguments as form style without explode (`a,b,c`).
  if (def.csv && where === 'query') Object.assign(p, { style: 'form', explode: false });
  return p;
}

/** The body arguments of a write: every argument but the path's. */
const bodyArgs = (args: Array<[string, ArgDef]>) => args.filter(([, def]) => def.in !== 'path');

/** A write's example body: every body argument that has an example, in the contract's order. */
const exampleBody = (args: Array<[string, ArgDef]>): Json =>
  Object.fromEntries(
    bodyArgs(args).flatMap(([name, def]) => (def.example === undefined ? [] : [[name, def.example]])),
  );

/** The object schema of a write's body arguments. */
function bodySchema(args: Array<[string, ArgDef]>, env: DescribeEnv): { schema: Json; required: string[] } {
  const body = bodyArgs(args);
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
  return { schema, required };
}

/**
 * Path parameters stay parameters; every other argument of a write goes in a JSON body, shown with a realistic
 * example that the reference page sends as it is. The gateway also reads the same fields from a form body, as TEC
 * does (and TEC's /doc documents), but the document names JSON only: nested venues and organizers have no form
 * encoding, and Swagger UI garbles its JSON example after a switch from a form (swagger-ui#10738: the form's
 * `{value, errors}` state is sent as the body).
 */
function requestBody(args: Array<[string, ArgDef]>, env: DescribeEnv): Json | undefined {
  if (args.every(([, def]) => def.in === 'path')) return undefined;
  const { schema, required } = bodySchema(args, env);
  return {
    description: say(FORM_TOO, env.root),
    required: required.length > 0,
    content: { 'application/json': { schema, example: exampleBody(args) } },
  };
}

const FORM_TOO = {
  en: 'The fields as JSON. A form body (`application/x-www-form-urlencoded`) with the same fields is accepted too, as TEC accepts it.',
  es: 'Los campos en JSON. También se acepta un formulario (`application/x-www-form-urlencoded`) con los mismos campos, como en TEC.',
};

const ERROR_RESPONSE = {
  description: 'A WordPress error: `{code, message, data: {status}}`.',
  content: { 'application/json': { schema: errorSchema } },
};

/** How a caller signs in: WordPress's own ways (the gateway passes them through to WordPress). */
const SECURITY_SCHEMES = {
  applicationPassword: {
    type: 'http',
    scheme: 'basic',
    description:
      'A WordPress application password: `Authorization: Basic base64(user:application-password)`.',
  },
  cookieNonce: {
    type: 'apiKey',
    in: 'header',
    name: 'X-WP-Nonce',
    description:
      'The WordPress login cookie with its REST nonce (`wp_create_nonce("wp_rest")`), as the block editor sends them.',
  },
};
const SIGNED_IN = [{ applicationPassword: [] }, { cookieNonce: [] }];

/** A nested venue or organizer on an event write: `{id}` of an existing one, or the fields of a new one. */
function linkedInput(kind: 'venue' | 'organizer', env: DescribeEnv): Json {
  const args = documentedArgs(linkedWriteArgs(kind, false), env.root);
  const { schema } = bodySchema(args, env);
  schema.example = exampleBody(args);
  (schema.properties as Json).id = { type: 'integer', description: `An existing ${kind}'s id.` };
  schema.description = `An existing ${kind} (\`{"id": 12}\`), or a new one by its fields; an existing ${kind} with the same name and fields is reused.`;
  return schema;
}

/** What a feed answers, as /doc says it. */
const ICAL_ABOUT =
  'An RFC 5545 calendar (VCALENDAR) of the events: one VEVENT each, with a UID that stays the same when the event is renamed or rescheduled.';

function operation(c: RouteContract, method: Method, path: string, env: DescribeEnv): Json {
  const args = documentedArgs(c.args, env.root);
  const write = method === 'POST' || method === 'PUT' || method === 'PATCH';
  // The list's filters and its feed's read comma-separated lists alike.
  const list = c.id === 'events.list' || c.id === 'events.feed';
  const params = args
    .filter(([, def]) => !write || def.in === 'path')
    .map(([n, d]) => parameter(n, d, env, list));
  const single = path.includes('{');
  const created = method === 'POST' && !single;
  const op: Json = {
    operationId: method === c.methods[0] ? c.id : `${c.id}.${method.toLowerCase()}`,
    summary: say(c.summary, env.root),
    tags: [path.split('/')[1]?.replace(/\.ics$/, '') || 'discovery'],
  };
  if (params.length) op.parameters = params;
  const body = write ? requestBody(args, env) : undefined;
  if (body) op.requestBody = body;
  // Writes need a signed-in caller; reads answer anyone, and more to a signed-in one (drafts, private events).
  op.security = method === 'GET' ? [{}, ...SIGNED_IN] : SIGNED_IN;
  op.responses = {
    [created ? '201' : '200']: {
      description: say(c.summary, env.root),
      content:
        c.produces === 'ical'
          ? { 'text/calendar': { schema: { type: 'string', description: ICAL_ABOUT } } }
          : {
              'application/json': { schema: c.response ?? responseSchema(c.returns) },
              ...(c.events && {
                'text/event-stream': { schema: { type: 'string', description: say(c.events, env.root) } },
              }),
            },
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
    components: {
      schemas: {
        ...componentSchemas(env.root.lang),
        VenueInput: linkedInput('venue', env),
        OrganizerInput: linkedInput('organizer', env),
      },
      securitySchemes: SECURITY_SCHEMES,
    },
    paths,
  };
}
