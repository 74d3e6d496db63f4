// Assembles a running gateway from a configuration: client, probe, index, app, HTTP server.

import { readFile } from 'node:fs/promises';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { appSteps } from './app.ts';
import { AuthThrottle } from './auth/throttle.ts';
import { fastServe } from './cache/fast-path.ts';
import { ReplayGuard } from './cache/notify.ts';
import { NOTIFY_WINDOW_SECONDS, OPS_PREFIX } from './cache/ops.ts';
import { createCacheLayer } from './cache/setup.ts';
import { tag } from './cache/tags.ts';
import { ChangeRecorder } from './changes/recorder.ts';
import { createChangeLog } from './changes/setup.ts';
import type { Config } from './config.ts';
import { ConfigError } from './config.ts';
import type { Deps } from './deps.ts';
import { originRule } from './http/cors.ts';
import { ApiError, upstreamFailed } from './http/errors.ts';
import { gracefulClose } from './http/shutdown.ts';
import { IndexRegistry } from './index/registry.ts';
import { LinkedCatalog } from './linked/catalog.ts';
import { createLogger, type Logger } from './log.ts';
import { type Mapping, mappingSchema } from './mapping/schema.ts';
import { RemoteImages } from './media/remote-image.ts';
import { Metrics } from './observe/metrics.ts';
import { redactUrl } from './observe/redact.ts';
import { afterWaiting } from './pace/turns.ts';
import { PasswordGuesses } from './passwords/guesses.ts';
import { SeriesLocks } from './recurrence/series-lock.ts';
import type { SharedRedis } from './shared-redis.ts';
import { refreshSite } from './site/refresh.ts';
import { IdempotencyStore } from './stages/idempotency.ts';
import { warmBeforeListening, warmForSite } from './warm-ups.ts';
import { registerWebhookMetrics } from './webhooks/metrics.ts';
import { Webhooks } from './webhooks/service.ts';
import { CallerResolver } from './wp/caller.ts';
import { WpClient } from './wp/client.ts';
import { discoverRestRoot } from './wp/discover.ts';
import { causeOf, upstreamUnavailable } from './wp/errors.ts';
import { ProbeError, probeUpstream, SOURCE_URL_META, WRITE_META } from './wp/probe.ts';
import { RecordCache } from './wp/records.ts';
import { TermCache } from './wp/terms.ts';
import { sweep, UndoJournal } from './write/undo.ts';

export interface Gateway {
  deps: Deps;
  server: Server;
  /** `http://127.0.0.1:PORT` */
  url: string;
  close(): Promise<void>;
}

export async function loadMapping(path: string): Promise<Mapping> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new ConfigError(
      `Mapping file ${path} cannot be read: set MAPPING (--mapping) to a file under mappings/.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Mapping file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = mappingSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Mapping file ${path} is not a valid mapping:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export interface StartOptions {
  log?: Logger;
  now?: () => Date;
  quiet?: boolean;
  /**
   * Keep trying while WordPress cannot be reached (process managers, compose): the port answers meanwhile,
   * `/calendar-gateway/v1/ready` with 503. Without it a first failure is thrown (tests, one-off runs).
   */
  retry?: boolean;
  /** Called once the port is open, before WordPress was reached. */
  onListening?: (url: string) => void;
  /** How long `close()` lets requests in flight finish. Default 10 s. */
  graceMs?: number;
  /** Demo mode: the upstream is the in-memory WordPress of mocks/ (`/` serves the calendar page). */
  demo?: boolean;
}

/** How long an address that signed in as a user is known for that user (src/auth/throttle.ts). */
const KNOWN_ADDRESS_MS = 30 * 24 * 3600 * 1000;

/** The failed sign-ins' throttle, shared by every instance through Redis when configured. */
const authThrottle = (config: Config, shared: SharedRedis | undefined): AuthThrottle =>
  new AuthThrottle(
    {
      perAddress: config.authFailuresPerAddress,
      perUserAddress: config.authFailuresPerUserAddress,
      perUser: config.authFailuresPerUser,
      windowMs: config.authFailureWindowSeconds * 1000,
      knownMs: KNOWN_ADDRESS_MS,
    },
    shared,
  );

/** How often each instance looks for undo steps left to retry. */
const UNDO_SWEEP_MS = 5_000;

export async function startGateway(
  config: Config & { upstreamUrl: string },
  opts: StartOptions = {},
): Promise<Gateway> {
  const log = opts.log ?? createLogger(config.logLevel);
  const mapping = await loadMapping(config.mapping);
  // What the port answers until WordPress is reached and the index built: why the gateway is not ready yet.
  const starting: Starting = { reasons: [...STARTING_REASONS] };
  let handler: RequestListener = (req, res) => startingHandler(starting, req, res);
  await warmBeforeListening(log);
  const { server, closeServer } = await listen(config, (req, res) => {
    handler(req, res);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  opts.onListening?.(url);
  let ready: Awaited<ReturnType<typeof prepare>>;
  try {
    ready = await retrying(
      () => prepare(config, mapping, log, opts, starting, url),
      log,
      redactUrl(config.upstreamUrl),
      opts.retry === true,
      starting,
    );
  } catch (err) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw err;
  }
  const { deps, app, caching, allowOrigin } = ready;
  // Stored anonymous answers are sent before express sees the request (design: near the node:http ceiling).
  const cache = deps.cache;
  // Returns nothing: a listener's return value makes Node's emit look for a promise to catch, on every request.
  handler = cache
    ? (req, res) => {
        if (!fastServe(cache, req, res, allowOrigin, deps.metrics)) app(req, res);
      }
    : app;
  // What failed writes (here or in an instance that died mid-write) left behind is removed once WordPress answers.
  let sweeping = false;
  const sweepNow = () => {
    if (sweeping) return;
    sweeping = true;
    sweep(deps)
      .catch((err: unknown) => log.warn({ err }, 'undo sweep failed'))
      .finally(() => {
        sweeping = false;
      });
  };
  sweepNow();
  deps.webhooks?.start();
  const sweeper = setInterval(sweepNow, UNDO_SWEEP_MS);
  sweeper.unref();
  return {
    deps,
    server,
    url,
    close: async () => {
      clearInterval(sweeper);
      await deps.webhooks?.stop();
      deps.indexes.stop();
      deps.catalog.stop();
      deps.recorder?.stop();
      // Stop accepting, let requests in flight finish (bounded), then drop what is left.
      await closeServer(opts.graceMs ?? 10_000);
      await deps.changes?.close();
      await caching.close();
    },
  };
}

/** The server, listening, and its graceful close (which follows its connections from the first one). */
function listen(
  config: Config,
  handler: RequestListener,
): Promise<{ server: Server; closeServer: (graceMs: number) => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = createServer(handler);
    const closeServer = gracefulClose(s);
    s.keepAliveTimeout = 65_000;
    s.listen(config.port, config.host, () => resolve({ server: s, closeServer }));
    s.once('error', reject);
  });
}

/** Why a starting gateway is not ready yet, in words an operator can act on (no address, no secret, no count). */
interface Starting {
  reasons: string[];
}

const NOT_REACHED = 'WordPress has not answered yet';
const NOT_BUILT = 'the event index of the default language is not built yet';
const STARTING_REASONS = [NOT_REACHED, NOT_BUILT];

/** What the port answers while WordPress is being reached and the index built: alive, not ready, and why. */
function startingHandler(starting: Starting, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').split('?')[0];
  const alive = path === `${OPS_PREFIX}/health`;
  const body = alive
    ? { status: 'ok', starting: true }
    : {
        code: 'gateway_starting',
        message: `The gateway is starting: ${starting.reasons.join('; ')}.`,
        data: { status: 503, reasons: starting.reasons },
      };
  res.writeHead(alive ? 200 : 503, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...(alive ? {} : { 'Retry-After': '5' }),
  });
  res.end(JSON.stringify(body));
}

/** Whether a start-up failure may pass by itself (WordPress down or overloaded), rather than need a fix. */
const transient = (err: unknown): boolean =>
  err instanceof ApiError
    ? err.status >= 500 && err.code !== 'gateway_misconfigured'
    : err instanceof TypeError || (err as Error)?.name === 'TimeoutError';

async function retrying<T>(
  run: () => Promise<T>,
  log: Logger,
  upstream: string,
  retry: boolean,
  starting: Starting,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!retry || !transient(err)) throw err;
      const waitS = Math.min(30, 2 ** Math.min(attempt - 1, 5));
      const why =
        err instanceof ApiError ? `${err.code}: ${err.message}` : String((err as Error)?.message ?? err);
      // The system error (refused, unknown host, TLS) is what an operator fixes: the log names it, /ready does not.
      const cause = causeOf(err);
      log.warn(
        { attempt, retryInSeconds: waitS, ...(cause ? { cause } : {}) },
        `WordPress at ${upstream} is not ready (${why}${cause ? `; ${cause}` : ''}); retrying in ${waitS} s`,
      );
      const code = err instanceof ApiError ? err.code : 'upstream_unreachable';
      starting.reasons = [
        `WordPress could not be reached or failed (${code}, attempt ${attempt}); next try in ${waitS} s`,
        NOT_BUILT,
      ];
      await new Promise((r) => setTimeout(r, waitS * 1000));
    }
  }
}

/** Everything that needs WordPress: REST root discovery, the probe, the index build, then the app. */
async function prepare(
  config: Config & { upstreamUrl: string },
  mapping: Mapping,
  log: Logger,
  opts: StartOptions,
  starting: Starting,
  selfUrl: string,
) {
  const found = await discoverRestRoot(config.upstreamUrl, config.upstreamTimeoutMs).catch((err: unknown) => {
    throw upstreamUnavailable(err, (err as Error)?.name === 'TimeoutError');
  });
  if (!found.root) {
    // A proxy in front of an overloaded or restarting WordPress answers 5xx pages: that passes; anything else is a fix.
    if (found.status >= 500) throw upstreamFailed(found.status);
    throw new ProbeError([
      `${redactUrl(config.upstreamUrl)} answered HTTP ${found.status} but is neither a WordPress REST root nor a WordPress page naming one (Link rel="https://api.w.org/"): set UPSTREAM_URL to the REST root, e.g. https://example.com/wp-json.`,
    ]);
  }
  if (found.moved) {
    log.warn(
      `UPSTREAM_URL ${redactUrl(config.upstreamUrl)} is the site, not its REST root: using ${redactUrl(found.root)} (set UPSTREAM_URL to it to skip this look-up).`,
    );
  }
  if (found.canonical) {
    log.info(
      `WordPress names itself ${found.canonical}; the gateway calls it at ${redactUrl(found.root)}, the host UPSTREAM_URL gave.`,
    );
  }
  const wp = new WpClient({
    baseUrl: found.root,
    canonicalBaseUrl: found.canonical,
    serviceAuth: config.upstreamAuth,
    timeoutMs: config.upstreamTimeoutMs,
    slotGraceMs: config.upstreamSlotGraceMs,
    languageParam: mapping.language.param,
    defaultLanguage: mapping.language.default,
    concurrency: config.upstreamConcurrency,
    queue: config.upstreamQueue,
  });
  const site = await probeUpstream(wp, mapping);
  await warmForSite(site.timezone, log);
  if (!site.mediaSourceMeta) {
    log.info(
      `Attachments do not expose ${SOURCE_URL_META} in REST (the companion plugin registers it): an image URL sent again is uploaded again.`,
    );
  }
  if (!site.writeMeta) {
    log.warn(
      `${site.unstamped?.join(', ')} do not expose ${WRITE_META} in REST: update the companion plugin (wordpress/companion/calendar-gateway-companion.php). Until then a write whose answer is lost leaves what it may have made for the operator (logged), since nothing proves it the gateway's.`,
    );
  }
  // The parts are made a few at a time, a turn apart: together they were one task of 20 ms of CPU (issue 33's start
  // probe, `node bench/start-tasks.ts`), during which the open port answered nothing, /live and /ready included.
  await afterWaiting();
  const caching = createCacheLayer(config, log);
  await afterWaiting();
  const changes = createChangeLog(
    {
      retentionDays: config.changesRetentionDays,
      prefix: config.redisPrefix,
      apiRoot: `${(config.publicUrl ?? selfUrl).replace(/\/$/, '')}/wp-json/calendar/events/v1`,
      mapping,
    },
    caching.redis,
  );
  let recorder: ChangeRecorder | undefined;
  await afterWaiting();
  const indexes = new IndexRegistry({
    snapshots: caching.snapshots,
    onChange: (language, ids, links, soft) => {
      caching.onIndexChange(language, ids, links, soft);
      // Polls, refetches and reconciliations found these changed in WordPress: the change log hears of them too.
      recorder?.events(ids).catch((err: unknown) => log.warn({ err }, 'changes could not be logged'));
    },
    client: wp,
    mapping,
    pollMs: config.pollIntervalMs > 0 ? config.pollIntervalMs : false,
    reconcileMs: config.reconcileIntervalMs,
    crawlConcurrency: config.indexCrawlConcurrency,
    recurrenceWindowMonths: config.recurrenceWindowMonths,
    logger: log,
  });
  const catalog = new LinkedCatalog(
    { wp, mapping },
    {
      onChange: (kind, ids) => {
        caching.cache?.invalidate([tag.list(kind), ...ids.map((id) => `${kind}:${id}`)]).catch(() => {});
        recorder
          ?.records(kind, ids)
          .catch((err: unknown) => log.warn({ err }, 'changes could not be logged'));
      },
    },
  );
  if (config.pollIntervalMs > 0) catalog.start(config.pollIntervalMs);
  // Another instance wrote or was notified: re-read what it names.
  caching.cache?.onRemoteInvalidate((tags) => catalog.invalidateTags(tags));
  await afterWaiting();
  const link = caching.redis;
  const shared = link && { cmd: link.cmd, up: link.up, prefix: config.redisPrefix };
  const deps: Deps = {
    mapping,
    wp,
    site,
    indexes,
    callers: new CallerResolver(wp, undefined, authThrottle(config, shared)),
    terms: new TermCache(wp),
    catalog,
    log,
    images: new RemoteImages({
      allowPrivateHosts: config.imageAllowPrivateHosts,
      maxBytes: Math.round(config.imageMaxMb * 1024 * 1024),
      timeoutMs: config.upstreamTimeoutMs,
    }),
    now: opts.now ?? (() => new Date()),
    cache: caching.cache,
    // Subscribers ask again as often as a cached answer stays fresh.
    feed: { maxEvents: config.feedMaxEvents, refreshSeconds: config.cacheTtlSeconds },
  };
  // A purge of everything (an operator's, or one a change of the site's settings made, here or in another instance):
  // the site's name and time zone are read again, and a change purges once more (src/site/refresh.ts).
  caching.cache?.onInvalidate((tags) => {
    if (tags === null)
      refreshSite(deps).catch((err: unknown) => log.warn({ err }, 'reading the site settings again failed'));
  });
  if (caching.cache) {
    const records = new RecordCache(config.cacheTtlSeconds * 1000);
    caching.cache.onInvalidate((tags) => records.drop(tags));
    deps.records = records;
  }
  deps.idempotency = new IdempotencyStore(shared);
  deps.undo = new UndoJournal(shared);
  deps.seriesLocks = new SeriesLocks(shared);
  deps.replay = new ReplayGuard(NOTIFY_WINDOW_SECONDS, shared);
  deps.passwordGuesses = new PasswordGuesses(
    {
      perRecord: config.passwordGuessesPerRecord,
      perClient: config.passwordGuessesPerClient,
      windowMs: config.passwordGuessWindowSeconds * 1000,
    },
    shared,
  );
  deps.updateSemantics = config.updateSemantics;
  deps.recurrenceMaxCount = config.recurrenceMaxCount;
  deps.changes = changes;
  recorder = new ChangeRecorder({
    changes,
    wp,
    mapping,
    indexes,
    warn: (o, m) => log.warn(o, m),
  });
  deps.recorder = recorder;
  await afterWaiting();
  const metrics = new Metrics({ indexes, cache: caching.cache, purger: caching.purger });
  deps.metrics = metrics;
  wp.observer = (c) => metrics.upstream(c.method, c.as, c.outcome, c.ms);
  // Outbound webhooks (src/webhooks/): subscriptions and queue in Redis when configured, else this process's memory.
  deps.webhooks = new Webhooks({
    redis: shared,
    changes,
    log,
    allowPrivate: config.webhookAllowPrivateTargets,
    retryScale: config.webhookRetryScale,
    leaseMs: config.webhookLeaseSeconds * 1000,
    concurrency: config.webhookConcurrency,
  });
  await afterWaiting();
  registerWebhookMetrics(metrics.registry, deps.webhooks);
  caching.freshness?.attach(indexes);
  starting.reasons = [NOT_BUILT];
  try {
    await indexes.forLanguage(mapping.language.default);
  } catch (err) {
    // A retry starts from scratch: nothing of this attempt (timers, Redis connections) may outlive it.
    indexes.stop();
    catalog.stop();
    await changes.close();
    await caching.close();
    throw err;
  }
  // What changed or went while no gateway ran is logged once the index is built (not waited for: the port answers).
  deps.changesReconciled = recorder.reconcileAtStart(log);
  if (config.pollIntervalMs > 0) recorder.start(config.pollIntervalMs, config.reconcileIntervalMs, log);
  const allowOrigin = originRule(config.corsOrigins);
  const { app, steps } = appSteps(deps, {
    allowOrigin,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    secondaryLanguage: config.secondaryLanguage,
    webhookSecret: config.webhookSecret,
    metricsToken: config.metricsToken,
    jsonp: config.jsonpEnabled,
    changesWaitsPerClient: config.changesWaitsPerClient,
    demo: opts.demo,
  });
  for (const step of steps) {
    await afterWaiting();
    step();
  }
  return { deps, app, caching, allowOrigin };
}
