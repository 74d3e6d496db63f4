// The contract of the namespace index (`GET /calendar/events/v1`) and of `GET /doc`.
import { type ArgDef, anyString } from './args.ts';
import { language } from './common.ts';
import { READABLE, route } from './route.ts';

export const NAMESPACE = 'calendar/events/v1';

export const CONTEXTS = ['view', 'embed', 'edit', 'help'] as const;

const namespaceArg: ArgDef<string> = {
  type: 'string',
  default: NAMESPACE,
  in: 'query',
  description: { en: 'The namespace to describe.', es: 'El espacio de nombres que se describe.' },
  schema: anyString,
};

// WordPress declares `context` without a type or check on this route; we accept any string the same way (a list, which
// no client means, is refused).
const contextArg: ArgDef<string> = {
  type: 'string',
  default: 'view',
  in: 'query',
  description: { en: 'The scope of the description.', es: 'El alcance de la descripción.' },
  schema: anyString,
};

export const discoveryRoutes = {
  index: route({
    id: 'discovery.index',
    pattern: '',
    path: '/',
    methods: READABLE,
    summary: {
      en: 'Describes the namespace: its routes, methods and arguments.',
      es: 'Describe el espacio de nombres: sus rutas, métodos y argumentos.',
    },
    args: { namespace: namespaceArg, context: contextArg, multilang_language: language },
  }),
  doc: route({
    id: 'discovery.doc',
    pattern: '/doc',
    path: '/doc',
    methods: READABLE,
    summary: {
      en: 'Returns the OpenAPI 3.0 documentation of the namespace.',
      es: 'Devuelve la documentación OpenAPI 3.0 del espacio de nombres.',
    },
    args: { multilang_language: language },
  }),
};
