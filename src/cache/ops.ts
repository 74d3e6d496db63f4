// Operator endpoints outside the calendar namespace: signed change notifications, purge-all, status and health.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { PRIVATE_CACHE_CONTROL } from '../http/answer.ts';
import { audienceOf, credentialsOf } from '../http/credentials.ts';
import {
  badNotification,
  badSignature,
  needsAdministrator,
  replayedNotification,
  webhookDisabled,
} from '../http/errors.ts';
import { sendError, toApiError } from '../http/respond.ts';
import { Readiness } from '../readiness.ts';
import {
  type Plan,
  parseNotification,
  planOf,
  ReplayGuard,
  SIGNATURE_HEADER,
  verifySignature,
} from './notify.ts';
import { gatewayStatus } from './status.ts';

export const OPS_PREFIX = '/calendar-gateway/v1';

/** How far a notification's signed time may be from ours (seconds); replays are remembered twice as long. */
export const NOTIFY_WINDOW_SECONDS = 300;

export interface OpsOptions {
  webhookSecret?: string;
  /** The gateway's version, shown by the status route. */
  version?: string;
  /** Bearer token that lets a scraper read /metrics without a WordPress administrator's credentials. */
  metricsToken?: string;
  maxSkewSeconds?: number;
  /** Where accepted signatures are remembered (Redis when configured); default: this process's memory. */
  replay?: ReplayGuard;
}

export const json = (res: Response, status: number, body: unknown) =>
  res
    .status(status)
    .set('Cache-Control', PRIVATE_CACHE_CONTROL)
    .type('application/json')
    .send(JSON.stringify(body));

/** Index first, then the cache: a list rebuilt in between must not come from the old index. */
export async function applyPlan(deps: Deps, plan: Plan): Promise<void> {
  if (plan.terms) deps.terms.invalidate();
  deps.catalog.invalidateTags(plan.tags);
  try {
    if (plan.events.length) await Promise.all(deps.indexes.all().map((i) => i.refetch(plan.events)));
  } finally {
    // Even when WordPress could not be asked, drop what is cached: the next read retries upstream.
    if (deps.cache) await deps.cache.invalidate(plan.tags);
  }
  // The change log, once the index holds what WordPress has now (src/changes/recorder.ts; it never throws).
  await deps.recorder?.tags(plan.tags);
}

/** A scraper's `Authorization: Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = createHash('sha256').update(m[1]!).digest();
  return timingSafeEqual(a, createHash('sha256').update(token).digest());
}

/** Runs `action` for a WordPress user with `manage_options`; anyone else gets WordPress's 401/403. */
export async function asOperator(
  deps: Deps,
  req: Request,
  res: Response,
  what: string,
  action: () => Promise<void>,
): Promise<void> {
  const credentials = credentialsOf(req);
  const ctx: RequestContext = {
    audience: audienceOf(credentials),
    credentials,
    language: deps.mapping.language.default,
    requestId: randomUUID(),
    // Failed sign-ins here count against the address as anywhere else (src/auth/throttle.ts).
    client: req.ip,
    signal: new AbortController().signal,
  };
  try {
    const caller = await deps.callers.resolve(ctx);
    if (!caller) throw needsAdministrator(what, false);
    if (caller.caps.manage_options !== true) throw needsAdministrator(what, true);
    await action();
  } catch (err) {
    res.set('Cache-Control', PRIVATE_CACHE_CONTROL);
    sendError(res, toApiError(err, deps.log, ctx.requestId));
  }
}

export function opsRouter(deps: Deps, o: OpsOptions): express.Router {
  const router = express.Router();
  // Operator answers are JSON or metrics text: no browser may sniff them into something it runs.
  router.use((_req: Request, res: Response, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });
  const startedAt = deps.now().getTime();
  const maxSkew = o.maxSkewSeconds ?? NOTIFY_WINDOW_SECONDS;
  // Signatures seen inside the skew window: the same signed body cannot be replayed, on any instance.
  const seen = o.replay ?? new ReplayGuard(maxSkew);

  router.post(
    '/notify',
    express.raw({ type: () => true, limit: '1mb' }),
    async (req: Request, res: Response) => {
      const requestId = randomUUID();
      try {
        if (!o.webhookSecret) {
          throw webhookDisabled();
        }
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const signature = req.get(SIGNATURE_HEADER);
        if (!verifySignature(raw, signature, o.webhookSecret)) {
          throw badSignature(SIGNATURE_HEADER);
        }
        const parsed = parseNotification(raw, Math.floor(deps.now().getTime() / 1000), maxSkew);
        if (!parsed.ok) throw badNotification(parsed.reason, parsed.status);
        if (!(await seen.first(signature!))) throw replayedNotification();
        deps.metrics?.notification();
        const plan = planOf(parsed.notification, deps.mapping);
        // Answer first: WordPress sends from its own request, and the refetch below asks that same WordPress.
        json(res, 202, { accepted: parsed.notification.changes.length, invalidated: plan.tags });
        applyPlan(deps, plan).catch((err: unknown) => {
          deps.log.warn(
            { err: (err as Error)?.message, requestId },
            'change notification could not be applied',
          );
        });
      } catch (err) {
        sendError(res, toApiError(err, deps.log, requestId));
      }
    },
  );

  router.get('/health', (_req: Request, res: Response) => {
    // Liveness only: a gateway keeps answering cached reads while WordPress is down, so this does not ask it.
    json(res, 200, { status: 'ok', uptime_seconds: Math.round((deps.now().getTime() - startedAt) / 1000) });
  });

  const readiness = new Readiness(deps);
  router.get('/ready', async (_req: Request, res: Response) => {
    const report = await readiness.check();
    if (report.ready) return json(res, 200, { status: 'ready', ...report });
    res.set('Retry-After', '5');
    json(res, 503, {
      code: 'gateway_not_ready',
      message: `Not ready: ${report.reasons.join('; ')}.`,
      data: { status: 503, ...report },
    });
  });

  router.get('/status', (req: Request, res: Response) =>
    asOperator(deps, req, res, 'Reading the status', async () => {
      const status = await gatewayStatus(deps, {
        startedAt,
        notifications: !!o.webhookSecret,
        version: o.version ?? '',
      });
      json(res, 200, status);
    }),
  );

  router.get('/metrics', async (req: Request, res: Response) => {
    const send = async () => {
      const text = (await deps.metrics?.text()) ?? '';
      res
        .status(200)
        .set('Cache-Control', PRIVATE_CACHE_CONTROL)
        .type('text/plain; version=0.0.4')
        .send(text);
    };
    if (o.metricsToken && bearerMatches(req.get('authorization'), o.metricsToken)) return send();
    return asOperator(deps, req, res, 'Reading the metrics', send);
  });

  router.post('/purge', (req: Request, res: Response) =>
    asOperator(deps, req, res, 'Purging', async () => {
      const before = deps.cache?.size.entries ?? 0;
      await deps.cache?.purgeAll();
      deps.terms.invalidate();
      deps.catalog.invalidateTags(null);
      json(res, 200, { purged: true, entries: before });
    }),
  );
  return router;
}
