// The express application: the calendar namespace and site index on each language root; the rest of the site proxied.
import { randomUUID } from 'node:crypto';
import express from 'express';
import pkg from '../package.json' with { type: 'json' };
import { planOf } from './cache/notify.ts';
import { applyPlan, OPS_PREFIX, opsRouter } from './cache/ops.ts';
import { changesBindings } from './changes/routes.ts';
import { changesStream } from './changes/sse.ts';
import { recordChanges } from './changes/stage.ts';
import { Waits } from './changes/waits.ts';
import { NAMESPACE } from './contract/discovery.ts';
import type { Deps } from './deps.ts';
import { describeRoute } from './discovery/describe.ts';
import { REFERENCE_PATH, referenceRouter } from './discovery/reference.ts';
import { discoveryBindings } from './discovery/routes.ts';
import { siteIndexHandler } from './discovery/site-index.ts';
import { bundleBuilt, CALENDAR_PATH, calendarPages } from './elements/page.ts';
import { FORMATS } from './formats.ts';
import { apiRouter } from './http/adapter.ts';
import { cors, type OriginRule, originRule } from './http/cors.ts';
import { audienceOf, credentialsOf } from './http/credentials.ts';
import type { Stage } from './http/exchange.ts';
import { trustProxySetting } from './http/forwarded.ts';
import { parseQueryStringOrEmpty } from './http/query.ts';
import { publicBase, sendError, toApiError } from './http/respond.ts';
import { refuseUnsafeRestPaths } from './http/rest-path.ts';
import { requestLog } from './observe/request-log.ts';
import { siteProxy } from './proxy.ts';
import { allBindings } from './routes.ts';
import { afterUserDelete, refreshSite } from './site/refresh.ts';
import { authenticate } from './stages/authenticate.ts';
import { cacheStage } from './stages/cache.ts';
import { handle } from './stages/handle.ts';
import { idempotencyStage } from './stages/idempotency.ts';
import { invalidate } from './stages/invalidate.ts';
import { parse } from './stages/parse.ts';
import { render } from './stages/render.ts';
import { shapeStage } from './stages/shape.ts';
import { webhooksRouter } from './webhooks/routes.ts';

export { NAMESPACE };

export interface AppOptions {
  publicUrl?: string;
  /** Reverse proxies whose X-Forwarded-* headers count (TRUST_PROXY); none by default. */
  trustProxy?: readonly string[];
  /** Origins that get CORS access (CORS_ORIGINS); any origin by default, as WordPress does. */
  allowOrigin?: OriginRule;
  /** The secondary language served under `/{lang}/wp-json/…`. */
  secondaryLanguage?: string;
  /** Shared secret of the companion plugin's change notifications (WEBHOOK_SECRET). */
  webhookSecret?: string;
  /** Whether `_jsonp` is served (JSONP_ENABLED): WordPress's `rest_jsonp_enabled`, on unless turned off. */
  jsonp?: boolean;
  /** Bearer token a Prometheus scraper may use for /calendar-gateway/v1/metrics (METRICS_TOKEN). */
  metricsToken?: string;
  /** Long polls and event streams of the changes feed one client address may hold (CHANGES_WAITS_PER_CLIENT). */
  changesWaitsPerClient?: number;
  /** Demo mode (the in-memory WordPress): `/` is the calendar page instead of the upstream's home. */
  demo?: boolean;
}

interface Root {
  /** REST root path: `/wp-json` or `/{lang}/wp-json`. */
  rest: string;
  lang: string;
  secondary: boolean;
}

export function createApp(deps: Deps, opts: AppOptions = {}): express.Express {
  const { app, steps } = appSteps(deps, opts);
  for (const step of steps) step();
  return app;
}

/**
 * The app and the steps that build it, in order: a start runs them a turn apart (src/gateway.ts), since together they
 * were a task of 15–20 ms (express compiling every route's path) while /live and /ready waited. Nothing reaches the
 * app before the last step has run.
 */
export function appSteps(
  deps: Deps,
  opts: AppOptions = {},
): { app: express.Express; steps: Array<() => void> } {
  const app = express();
  const steps: Array<() => void> = [];
  app.disable('x-powered-by');
  // The adapter reads the query through src/http/query.ts; other routes get the same parser.
  app.set('query parser', parseQueryStringOrEmpty);
  // X-Forwarded-* counts only from the proxies TRUST_PROXY names (none by default): see src/http/forwarded.ts.
  app.set('trust proxy', trustProxySetting(opts.trustProxy));
  app.set('etag', false);
  app.use(requestLog(deps.log, deps.metrics));
  // Before anything else below a REST root: a path that names another once decoded reaches neither us nor WordPress.
  app.use(refuseUnsafeRestPaths);
  // Bodies are parsed only inside the namespace: proxied requests must reach WordPress with their stream unread.
  const bodies = [
    express.json({ limit: '1mb', strict: false }),
    express.urlencoded({ extended: true, limit: '1mb' }),
  ];

  const waits = new Waits(opts.changesWaitsPerClient ?? 4);
  // The changes feed needs the change log (every gateway has one; Deps built by hand in tests may not).
  const bindings = [...allBindings(deps), ...(deps.changes ? changesBindings(deps, waits) : [])];
  const roots: Root[] = [{ rest: '/wp-json', lang: deps.mapping.language.default, secondary: false }];
  if (opts.secondaryLanguage && opts.secondaryLanguage !== deps.mapping.language.default) {
    roots.push({ rest: `/${opts.secondaryLanguage}/wp-json`, lang: opts.secondaryLanguage, secondary: true });
  }
  const allowOrigin = opts.allowOrigin ?? originRule(undefined);
  const jsonp = opts.jsonp ?? true;
  const stages = requestPath(deps, bodies, jsonp);
  for (const root of roots)
    steps.push(() => {
      const prefix = `${root.rest}/${NAMESPACE}`;
      const info = { lang: root.lang, secondary: root.secondary };
      app.use(root.rest, cors(allowOrigin));
      // The changes feed as server-sent events: a stream, not an answer the stages could render (src/changes/sse.ts).
      app.use(
        `${prefix}/changes`,
        changesStream(deps, waits, {
          apiRoot: (req) => `${publicBase(req, opts.publicUrl)}${prefix}`,
          language: root.lang,
        }),
      );
      app.use(
        prefix,
        apiRouter([...discoveryBindings(deps, info), ...bindings], {
          prefix,
          defaultLanguage: root.lang,
          publicUrl: opts.publicUrl,
          home: deps.site.home,
          // Read at each request: a change of WordPress's settings updates it (src/site/refresh.ts).
          get timezone() {
            return deps.site.timezone;
          },
          log: deps.log,
          stages,
          jsonp,
          describe: (contracts, apiRoot) => describeRoute(contracts, deps, info, apiRoot),
        }),
      );
      app.get(root.rest, siteIndexHandler(deps, info, opts.publicUrl, root.rest));
    });
  steps.push(() => {
    // Public, unlike the operator routes beside it: the API reference page over /doc.
    app.use(
      REFERENCE_PATH,
      referenceRouter({
        title: `${NAMESPACE} API reference`,
        secondaryLanguage: roots.find((r) => r.secondary)?.lang,
        publicUrl: opts.publicUrl,
      }),
    );
    // Public too: the calendar as people see it, the element on this gateway's API (src/elements/page.ts).
    const calendar = calendarPages({
      publicUrl: opts.publicUrl,
      language: deps.mapping.language.default,
      secondaryLanguage: roots.find((r) => r.secondary)?.lang,
      site: deps.site,
      wpAdmin: !opts.demo,
    });
    app.use(CALENDAR_PATH, calendar.router);
    if (!bundleBuilt()) {
      deps.log.warn(
        { path: CALENDAR_PATH },
        'the calendar element is not built (`npm install` builds it, or `npm run elements:build`): its page says so',
      );
    }
    if (opts.demo) app.get('/', calendar.home);
  });
  steps.push(() => {
    app.use(
      OPS_PREFIX,
      opsRouter(deps, {
        webhookSecret: opts.webhookSecret,
        metricsToken: opts.metricsToken,
        version: pkg.version,
        replay: deps.replay,
      }),
    );
    if (deps.webhooks) app.use(OPS_PREFIX, webhooksRouter(deps, deps.webhooks));
  });
  steps.push(() => {
    app.use(
      siteProxy({
        siteUrl: deps.wp.siteUrl,
        timeoutMs: deps.wp.options.timeoutMs,
        log: deps.log,
        publicUrl: opts.publicUrl,
        namespace: NAMESPACE,
        // A wp/v2 write through us is applied as the companion plugin's notification of it would be.
        writes: {
          mapping: deps.mapping,
          apply: (changes) => applyPlan(deps, planOf({ time: 0, changes }, deps.mapping)),
          site: () => refreshSite(deps).then(() => {}),
          userDeleted: (id) => afterUserDelete(deps, id),
        },
        // Credentials are checked (and failures throttled) here too, else guesses would go around through wp/v2.
        signIn: (req) => signIn(deps, req as express.Request),
      }),
    );
    app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
      sendError(res, toApiError(err, deps.log, String(req.get('x-request-id') ?? '')));
    });
  });
  return { app, steps };
}

/**
 * The request path of every route, as named stages (design.md): WordPress's global parameters over the finished
 * answer (`_fields`, `_envelope`, `_jsonp`, outside everything so that they shape refusals too); who the caller is and whether they may write; the
 * shared cache for anonymous reads; the bytes of the answer; the tags a successful write drops; a retried write's
 * first answer; the arguments; the handler. Each stage runs around the ones after it: the cache stores what render
 * made, render turns whatever the arguments or the handler threw into WordPress's error body, and a retry under
 * the same Idempotency-Key gets the first answer, a refusal of its arguments included, and drops its tags again.
 */
function requestPath(deps: Deps, bodies: express.RequestHandler[], jsonp: boolean): Stage[] {
  return [
    shapeStage(deps.log, jsonp),
    authenticate({ resolve: (ctx) => deps.callers.resolve(ctx), bodies }),
    ...(deps.cache ? [cacheStage(deps.cache, FORMATS)] : []),
    render(deps.log),
    ...(deps.cache ? [invalidate(deps.cache)] : []),
    ...(deps.recorder ? [recordChanges(deps.recorder)] : []),
    ...(deps.idempotency ? [idempotencyStage(deps.idempotency)] : []),
    parse(FORMATS),
    handle,
  ];
}

/** Checks a proxied request's credentials as the calendar API's own are checked (cached, throttled). */
async function signIn(deps: Deps, req: express.Request): Promise<void> {
  const credentials = credentialsOf(req);
  if (!credentials) return;
  await deps.callers.resolve({
    audience: audienceOf(credentials),
    credentials,
    language: deps.mapping.language.default,
    requestId: String(req.get('x-request-id') ?? randomUUID()),
    client: req.ip,
    signal: new AbortController().signal,
  });
}
