// Every setting's environment variable, flag and meaning: `--help` and the table in docs/setup.md come from here.
import type { Config } from './schema.ts';

/** One setting's names and documentation; `--help` and the table in docs/setup.md are generated from these. */
export interface SettingDoc {
  env: string;
  flag: string;
  /** What "no value" means, for settings without a default value. */
  unset?: string;
  meaning: string;
  /** A secret: an error names the setting but never echoes its value. */
  secret?: true;
}

/** Every setting, in the order `--help` and docs/setup.md list them. */
export const settings: Record<keyof Config, SettingDoc> = {
  port: { env: 'PORT', flag: 'port', meaning: 'listening port' },
  host: { env: 'HOST', flag: 'host', meaning: 'listening address' },
  upstreamUrl: {
    env: 'UPSTREAM_URL',
    flag: 'upstream-url',
    unset: '(demo mode)',
    meaning: 'the WordPress REST root, e.g. `https://example.com/wp-json`',
  },
  upstreamAuth: {
    secret: true,
    env: 'UPSTREAM_AUTH',
    flag: 'upstream-auth',
    unset: '—',
    meaning: '`user:application-password` of the service account (an editor); required with `UPSTREAM_URL`',
  },
  mapping: {
    env: 'MAPPING',
    flag: 'mapping',
    meaning:
      'the mapping file: which post type, taxonomy, field or meta key backs each calendar field (`mappings/tec.json` for The Events Calendar, `mappings/custom.json` an example of another layout; docs/setup.md, "Mappings")',
  },
  redisUrl: {
    env: 'REDIS_URL',
    flag: 'redis-url',
    unset: '— (in-process cache)',
    meaning:
      'shared cache, index snapshot and change feed: one `redis://host:port` URL, or with `REDIS_MODE` cluster or sentinel several comma-separated (cluster seed nodes, or the sentinels); a password in the URLs is a secret, never shown',
  },
  redisMode: {
    env: 'REDIS_MODE',
    flag: 'redis-mode',
    meaning:
      '`standalone` (one Redis, or a proxy in front of one), `cluster` (Redis Cluster) or `sentinel` (a master found through Redis Sentinel); docs/deploy.md, "Redis HA"',
  },
  redisSentinelName: {
    env: 'REDIS_SENTINEL_NAME',
    flag: 'redis-sentinel-name',
    unset: '—',
    meaning: "the Sentinel master's name (`sentinel monitor <name> …`); required with `REDIS_MODE=sentinel`",
  },
  redisPrefix: {
    env: 'REDIS_PREFIX',
    flag: 'redis-prefix',
    meaning: 'prefix of every Redis key and of the invalidation stream',
  },
  cacheTtlSeconds: {
    env: 'CACHE_TTL_SECONDS',
    flag: 'cache-ttl-seconds',
    meaning: 'freshness of cached anonymous answers (`max-age`; 0 = no response cache)',
  },
  cacheStaleWhileRevalidateSeconds: {
    env: 'CACHE_SWR_SECONDS',
    flag: 'cache-swr-seconds',
    meaning: '`stale-while-revalidate` window',
  },
  cacheStaleIfErrorSeconds: {
    env: 'CACHE_STALE_IF_ERROR_SECONDS',
    flag: 'cache-stale-if-error-seconds',
    meaning: 'how long a stale answer may stand in for a failing WordPress',
  },
  cacheSoftStaleMs: {
    env: 'CACHE_SOFT_STALE_MS',
    flag: 'cache-soft-stale-ms',
    meaning:
      'after a write, how long anonymous readers may still get the previous answer while one refill runs; past it, up to 10 s while that refill is slow, waits its turn or must run again (0: they wait for it)',
  },
  cacheMaxMb: { env: 'CACHE_MAX_MB', flag: 'cache-max-mb', meaning: 'bytes the in-process tier may hold' },
  feedMaxEvents: {
    env: 'FEED_MAX_EVENTS',
    flag: 'feed-max-events',
    meaning: 'the most events one iCalendar feed (`/events.ics`) holds',
  },
  webhookSecret: {
    secret: true,
    env: 'WEBHOOK_SECRET',
    flag: 'webhook-secret',
    unset: '— (notifications off)',
    meaning: "shared secret of the companion plugin's change notifications (≥ 16 characters)",
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    flag: 'public-url',
    unset: 'from the request',
    meaning: 'base URL used in `rest_url` and links',
  },
  trustProxy: {
    env: 'TRUST_PROXY',
    flag: 'trust-proxy',
    unset: '— (no proxy trusted)',
    meaning:
      'reverse proxies whose `X-Forwarded-*` headers count (comma-separated addresses, ranges, `loopback`, `uniquelocal`); from anyone else they are ignored and not passed to WordPress',
  },
  demoPassword: {
    secret: true,
    env: 'DEMO_PASSWORD',
    flag: 'demo-password',
    unset: 'generated',
    meaning: "the demo users' application password",
  },
  demoEvents: {
    env: 'DEMO_EVENTS',
    flag: 'demo-events',
    meaning: 'how many events the demo calendar has (scale tests and benchmarks)',
  },
  upstreamTimeoutMs: {
    env: 'UPSTREAM_TIMEOUT_MS',
    flag: 'upstream-timeout-ms',
    meaning:
      "a request's deadline for WordPress: every call it makes shares it, from the request's arrival (a call of the index's crawls has it to itself)",
  },
  upstreamSlotGraceMs: {
    env: 'UPSTREAM_SLOT_GRACE_MS',
    flag: 'upstream-slot-grace-ms',
    meaning:
      "how long past its deadline a call the gateway gave up on keeps its `UPSTREAM_CONCURRENCY` slot, waiting for WordPress's answer: PHP goes on with a request whose client has gone (default: PHP's own 30 s `max_execution_time`)",
  },
  upstreamConcurrency: {
    env: 'UPSTREAM_CONCURRENCY',
    flag: 'upstream-concurrency',
    meaning:
      'WordPress calls in flight at most, index crawls included (protects the site from a spike of cold URLs)',
  },
  upstreamQueue: {
    env: 'UPSTREAM_QUEUE',
    flag: 'upstream-queue',
    meaning:
      'calls that may wait for a free slot (at most `UPSTREAM_TIMEOUT_MS`); beyond it a caller gets 503 `upstream_busy` with `Retry-After`',
  },
  pollIntervalMs: {
    env: 'POLL_INTERVAL_MS',
    flag: 'poll-interval-ms',
    meaning: '`modified_after` polling of the event index and the venue/organizer catalog (0 = off)',
  },
  indexCrawlConcurrency: {
    env: 'INDEX_CRAWL_CONCURRENCY',
    flag: 'index-crawl-concurrency',
    meaning:
      'pages of 100 events the index crawl reads from WordPress at once (a failed crawl resumes where it stopped)',
  },
  reconcileIntervalMs: {
    env: 'RECONCILE_INTERVAL_MS',
    flag: 'reconcile-interval-ms',
    meaning: 'id reconciliation (finds hard deletes)',
  },
  secondaryLanguage: {
    env: 'SECONDARY_LANGUAGE',
    flag: 'secondary-language',
    meaning: 'the language root `/{lang}/wp-json/calendar/events/v1`',
  },
  metricsToken: {
    secret: true,
    env: 'METRICS_TOKEN',
    flag: 'metrics-token',
    unset: '— (operators only)',
    meaning:
      'Bearer token that lets a Prometheus scraper read `/calendar-gateway/v1/metrics` (else a WordPress administrator may)',
  },
  corsOrigins: {
    env: 'CORS_ORIGINS',
    flag: 'cors-origins',
    meaning:
      'origins that browser apps may call from (comma-separated); `*` echoes any origin, as WordPress does',
  },
  imageAllowPrivateHosts: {
    env: 'IMAGE_ALLOW_PRIVATE_HOSTS',
    flag: 'image-allow-private-hosts',
    meaning:
      'let `image` URLs on writes point at private, loopback or link-local addresses (off: SSRF guard)',
  },
  imageMaxMb: {
    env: 'IMAGE_MAX_MB',
    flag: 'image-max-mb',
    meaning: 'largest image an `image` URL may serve',
  },
  passwordGuessesPerRecord: {
    env: 'PASSWORD_GUESSES_PER_RECORD',
    flag: 'password-guesses-per-record',
    meaning:
      'wrong `password`s one client (address after `trust proxy`) may try on one protected record per window; then 429 `too_many_password_attempts`',
  },
  passwordGuessesPerClient: {
    env: 'PASSWORD_GUESSES_PER_CLIENT',
    flag: 'password-guesses-per-client',
    meaning:
      'wrong `password`s one client may try across all records per window (a list counts each protected record)',
  },
  passwordGuessWindowSeconds: {
    env: 'PASSWORD_GUESS_WINDOW_SECONDS',
    flag: 'password-guess-window-seconds',
    meaning: 'the window those counts run over (shared through Redis when configured)',
  },
  jsonpEnabled: {
    env: 'JSONP_ENABLED',
    flag: 'jsonp-enabled',
    meaning:
      'answer `_jsonp=callback` as JavaScript, as WordPress does unless a plugin turns its `rest_jsonp_enabled` filter off (then set false: 400 `rest_callback_disabled`)',
  },
  updateSemantics: {
    env: 'UPDATE_SEMANTICS',
    flag: 'update-semantics',
    meaning:
      "`merge`: an update changes only the fields sent; `replace`: as TEC's, every omitted flag, `cost`, `website`, `image`, `timezone`, `status` and `organizer` goes back to TEC's default (docs/differences.md)",
  },
  cdnPurge: {
    env: 'CDN_PURGE',
    flag: 'cdn-purge',
    unset: '— (no purges)',
    meaning:
      'the shared cache in front that writes purge by tag: `varnish` (deploy/varnish.vcl), `fastly` or `cloudflare` (docs/deploy.md)',
  },
  cdnPurgeUrl: {
    env: 'CDN_PURGE_URL',
    flag: 'cdn-purge-url',
    unset: "the CDN's API",
    meaning:
      "Varnish's address (comma-separated, one per Varnish; required for `varnish`), or another API base",
  },
  cdnPurgeToken: {
    env: 'CDN_PURGE_TOKEN',
    flag: 'cdn-purge-token',
    unset: '—',
    meaning:
      "Fastly's API token (purge_select and purge_all scopes), Cloudflare's API token (Cache Purge), or Varnish's `X-Purge-Token`",
    secret: true,
  },
  cdnServiceId: {
    env: 'CDN_SERVICE_ID',
    flag: 'cdn-service-id',
    unset: '—',
    meaning: "Fastly's service id (with `CDN_PURGE=fastly`)",
  },
  cdnZoneId: {
    env: 'CDN_ZONE_ID',
    flag: 'cdn-zone-id',
    unset: '—',
    meaning: "Cloudflare's zone id (with `CDN_PURGE=cloudflare`)",
  },
  cdnTagHeaders: {
    env: 'CDN_TAG_HEADERS',
    flag: 'cdn-tag-headers',
    unset: "the purger's own",
    meaning:
      "headers that carry an anonymous answer's cache tags: `surrogate-key` (Fastly), `cache-tag` (Cloudflare), `xkey` (Varnish), comma-separated, or `none`",
  },
  cdnMaxAgeSeconds: {
    env: 'CDN_MAX_AGE_SECONDS',
    flag: 'cdn-max-age-seconds',
    meaning:
      '`s-maxage` of anonymous answers while `CDN_PURGE` is set: how long the shared cache keeps them between purges',
  },
  logLevel: { env: 'LOG_LEVEL', flag: 'log-level', meaning: 'pino level' },
  // Recurring events (recur-write).
  recurrenceMaxCount: {
    env: 'RECURRENCE_MAX_COUNT',
    flag: 'recurrence-max-count',
    meaning:
      "the largest `COUNT` a series' rule may have, and the most `RDATE` or `EXDATE` dates it may list (more is 400 `rest_invalid_param`)",
  },
  recurrenceWindowMonths: {
    env: 'RECURRENCE_WINDOW_MONTHS',
    flag: 'recurrence-window-months',
    meaning:
      "how far a list of events with no `end_date` lists a series' occurrences after its `start_date`, in months; the event index keeps each series expanded from a year back to this far ahead",
  },
  // Failed sign-ins (src/auth/throttle.ts).
  authFailuresPerAddress: {
    env: 'AUTH_FAILURES_PER_ADDRESS',
    flag: 'auth-failures-per-address',
    meaning:
      'failed Basic or cookie sign-ins one client address (after `trust proxy`) may make per window, whatever the user names; then 429 `too_many_auth_attempts` before WordPress is asked',
  },
  authFailuresPerUserAddress: {
    env: 'AUTH_FAILURES_PER_USER_ADDRESS',
    flag: 'auth-failures-per-user-address',
    meaning: 'failed sign-ins one address may make per window for one user name',
  },
  authFailuresPerUser: {
    env: 'AUTH_FAILURES_PER_USER',
    flag: 'auth-failures-per-user',
    meaning:
      'failed sign-ins for one user name from all addresses per window; past it, an address that has not signed in as that user in the last 30 days gets one try per window (never a lockout)',
  },
  authFailureWindowSeconds: {
    env: 'AUTH_FAILURE_WINDOW_SECONDS',
    flag: 'auth-failure-window-seconds',
    meaning: 'the window those counts run over (shared through Redis when configured)',
  },
  // The changes feed (src/changes/).
  changesRetentionDays: {
    env: 'CHANGES_RETENTION_DAYS',
    flag: 'changes-retention-days',
    meaning:
      'how long the changes feed keeps its entries, deletions included: an older cursor answers 410 and the reader syncs again',
  },
  changesWaitsPerClient: {
    env: 'CHANGES_WAITS_PER_CLIENT',
    flag: 'changes-waits-per-client',
    meaning:
      'long polls and event streams of the changes feed one client address may hold open at once (more answer 429)',
  },
  // ---- outbound webhooks (src/webhooks/) ----
  webhookAllowPrivateTargets: {
    env: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    flag: 'webhook-allow-private-targets',
    meaning:
      "let webhook subscriptions reach `http://` URLs and loopback, private, link-local and other non-public addresses (local development only: the demo and the docs' receiver use it)",
  },
  webhookRetryScale: {
    env: 'WEBHOOK_RETRY_SCALE',
    flag: 'webhook-retry-scale',
    meaning:
      'multiplies the webhook retry schedule (5 s … 24 h) and the 5 days after which a failing endpoint is disabled; less than 1 only for tests and demos',
  },
  webhookLeaseSeconds: {
    env: 'WEBHOOK_LEASE_SECONDS',
    flag: 'webhook-lease-seconds',
    meaning:
      'how long an instance holds a webhook message it is delivering; a message held by an instance that died is taken by another after this. An attempt waits at most half of it (15 s by default)',
  },
  webhookConcurrency: {
    env: 'WEBHOOK_CONCURRENCY',
    flag: 'webhook-concurrency',
    meaning: 'webhook deliveries one instance makes at the same time',
  },
};
