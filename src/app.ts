// The express application: the calendar namespace and site index on each language root; the rest of the site proxied.
import compression from 'compression';
import express from 'express';
import pkg from '../package.json' with { type: 'json' };
import { OPS_PREFIX, opsRouter } from './cache/ops.ts';
import { NAMESPACE } from './contract/discovery.ts';
import type { Deps } from './deps.ts';
import { describeRoute } from './discovery/describe.ts';
import { REFERENCE_PATH, referenceRouter } from './discovery/reference.ts';
import { discoveryBindings } from './discovery/routes.ts';
import { siteIndexHandler } from './discovery/site-index.ts';
import { apiRouter, sendError, toApiError } from './http/adapter.ts';
import { cors, type OriginRule, originRule } from './http/cors.ts';
import { credentialsOf } from './http/credentials.ts';
import { parseQueryStringOrEmpty } from './http/query.ts';
import { requestLog } from './observe/request-log.ts';
import { siteProxy } from './proxy.ts';
import { allBindings } from './routes.ts';

export { NAMESPACE };

export interface AppOptions {
  publicUrl?: string;
  /** Origins that get CORS access (CORS_ORIGINS); any origin by default, as WordPress does. */
  allowOrigin?: OriginRule;
  /** The secondary language served under `/{lang}/wp-json/…`. */
  secondaryLanguage?: string;
  /** Shared secret of the companion plugin's change notifications (WEBHOOK_SECRET). */
  webhookSecret?: string;
  /** Bearer token a Prometheus scraper may use for /calendar-gateway/v1/metrics (METRICS_TOKEN). */
  metricsToken?: string;
}

interface Root {
  /** REST root path: `/wp-json` or `/{lang}/wp-json`. */
  rest: string;
  lang: string;
  secondary: boolean;
}

export function createApp(deps: Deps, opts: AppOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // The adapter reads the query through src/http/query.ts; other routes get the same parser.
  app.set('query parser', parseQueryStringOrEmpty);
  app.set('trust proxy', 'loopback');
  app.set('etag', false);
  app.use(requestLog(deps.log, deps.metrics));
  // Bodies are parsed only inside the namespace: proxied requests must reach WordPress with their stream unread.
  const bodies = [
    express.json({ limit: '1mb', strict: false }),
    express.urlencoded({ extended: true, limit: '1mb' }),
  ];

  const bindings = allBindings(deps);
  const roots: Root[] = [{ rest: '/wp-json', lang: deps.mapping.language.default, secondary: false }];
  if (opts.secondaryLanguage && opts.secondaryLanguage !== deps.mapping.language.default) {
    roots.push({ rest: `/${opts.secondaryLanguage}/wp-json`, lang: opts.secondaryLanguage, secondary: true });
  }
  const allowOrigin = opts.allowOrigin ?? originRule(undefined);
  // Anonymous answers are stored and gzipped once (src/cache/http.ts); signed-in ones are made per request.
  const signedInCompression = compression({
    filter: (req, res) => credentialsOf(req) !== undefined && compression.filter(req, res),
  });
  for (const root of roots) {
    const prefix = `${root.rest}/${NAMESPACE}`;
    const info = { lang: root.lang, secondary: root.secondary };
    app.use(root.rest, cors(allowOrigin));
    app.use(
      prefix,
      signedInCompression,
      apiRouter([...discoveryBindings(deps, info), ...bindings], {
        prefix,
        defaultLanguage: root.lang,
        publicUrl: opts.publicUrl,
        home: deps.site.home,
        timezone: deps.site.timezone,
        log: deps.log,
        cache: deps.cache,
        idempotency: deps.idempotency,
        authenticate: (ctx) => deps.callers.resolve(ctx),
        bodies,
        describe: (contracts, apiRoot) => describeRoute(contracts, deps, info, apiRoot),
      }),
    );
    app.get(root.rest, siteIndexHandler(deps, info, opts.publicUrl, root.rest));
  }
  // Public, unlike the operator routes beside it: the API reference page over /doc.
  app.use(
    REFERENCE_PATH,
    referenceRouter({
      title: `${NAMESPACE} API reference`,
      secondaryLanguage: roots.find((r) => r.secondary)?.lang,
    }),
  );
  app.use(
    OPS_PREFIX,
    opsRouter(deps, {
      webhookSecret: opts.webhookSecret,
      metricsToken: opts.metricsToken,
      version: pkg.version,
      replay: deps.replay,
    }),
  );
  app.use(
    siteProxy({
      siteUrl: deps.wp.siteUrl,
      timeoutMs: deps.wp.options.timeoutMs,
      log: deps.log,
      publicUrl: opts.publicUrl,
      namespace: NAMESPACE,
    }),
  );
  app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    sendError(res, toApiError(err, deps.log, String(req.get('x-request-id') ?? '')));
  });
  return app;
}
