// The gateway's configuration: one zod schema over environment variables and command-line flags.
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { TAG_HEADERS, type TagHeader } from './cdn/headers.ts';
import { redactUrl } from './observe/redact.ts';

const port = z.coerce
  .number({ message: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');
const ms = (def: number) =>
  z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(0).default(def);

/** A name express's `trust proxy` knows, an address, or an address range (`10.0.0.0/8`). */
const isProxyAddress = (v: string): boolean => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(v)) return true;
  const [addr = '', bits, ...rest] = v.split('/');
  return isIP(addr) !== 0 && rest.length === 0 && (bits === undefined || /^\d{1,3}$/.test(bits));
};

/** A comma-separated setting as its items, blanks dropped. */
const csvList = z.string().transform((v) =>
  v
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean),
);

export const configSchema = z.object({
  port: port.default(3000),
  host: z.string().min(1).default('0.0.0.0'),
  upstreamUrl: z
    .url({ message: 'must be the WordPress REST root, e.g. https://example.com/wp-json' })
    .refine((u) => /^https?:/.test(u), 'must start with http:// or https://')
    .refine(
      (u) => !URL.canParse(u) || !/^[^/?#]*\/\/[^/?#]*@/.test(u),
      'must not hold a user or password (WordPress gets them from UPSTREAM_AUTH, as user:application-password)',
    )
    .optional(),
  upstreamAuth: z
    .string()
    .regex(/^[^:]+:.+$/, 'must be user:application-password')
    .optional(),
  mapping: z.string().min(1).default('mappings/tec.json'),
  redisUrl: csvList
    .refine(
      (list) => list.length > 0 && list.every((u) => /^rediss?:\/\//.test(u)),
      'must be a redis:// or rediss:// URL (or, with REDIS_MODE=cluster or sentinel, several comma-separated)',
    )
    .refine(
      (list) => list.every((u) => URL.canParse(u) && new URL(u).hostname !== ''),
      'must be a valid URL such as redis://127.0.0.1:6379',
    )
    .transform((list) => list.join(','))
    .optional(),
  redisMode: z
    .enum(['standalone', 'cluster', 'sentinel'], { message: 'must be standalone, cluster or sentinel' })
    .default('standalone'),
  redisSentinelName: z
    .string()
    .regex(/^[\w.-]{1,64}$/, "must be the Sentinel master's name (letters, digits, `.`, `_` or `-`)")
    .optional(),
  publicUrl: z.url({ message: 'must be an absolute URL such as https://api.example.com' }).optional(),
  trustProxy: csvList
    .refine(
      (list) => list.every(isProxyAddress),
      'must be a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal',
    )
    .optional(),
  demoPassword: z.string().min(8, 'must be at least 8 characters').optional(),
  demoEvents: z.coerce
    .number({ message: 'must be a number of events' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(100_000, 'must be at most 100000')
    .default(230),
  upstreamTimeoutMs: ms(10_000),
  upstreamSlotGraceMs: ms(30_000),
  upstreamConcurrency: z.coerce
    .number({ message: 'must be a number of calls' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(8),
  upstreamQueue: z.coerce
    .number({ message: 'must be a number of calls' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .default(100),
  pollIntervalMs: ms(5_000),
  reconcileIntervalMs: ms(300_000),
  indexCrawlConcurrency: z.coerce
    .number({ message: 'must be a number of requests' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(16, 'must be at most 16 (more only loads the site)')
    .default(2),
  secondaryLanguage: z
    .string()
    .regex(/^[a-z]{2}$/, 'must be a two-letter language code')
    .default('es'),
  cacheTtlSeconds: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(0, 'must be 0 (no response cache) or more seconds')
    .default(60),
  cacheStaleWhileRevalidateSeconds: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(0)
    .default(30),
  cacheStaleIfErrorSeconds: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(0)
    .default(86_400),
  cacheSoftStaleMs: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(0, 'must be 0 (a write drops cached answers at once) or more milliseconds')
    .max(10_000, 'must be at most 10000 (readers would not see a write for that long)')
    .default(1000),
  feedMaxEvents: z.coerce
    .number({ message: 'must be a number of events' })
    .int('must be a whole number of events')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000 (one answer holds them all)')
    .default(1000),
  cacheMaxMb: z.coerce
    .number({ message: 'must be a number of megabytes' })
    .positive('must be more than 0')
    .default(64),
  redisPrefix: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'must be letters, digits, `:`, `.`, `_` or `-`')
    .default('cg:'),
  webhookSecret: z
    .string()
    .min(16, 'must be at least 16 characters (the companion plugin signs notifications with it)')
    .optional(),
  metricsToken: z
    .string()
    .min(16, 'must be at least 16 characters (scrapers send it as a Bearer token)')
    .optional(),
  corsOrigins: csvList
    .refine(
      (list) => list.every((o) => o === '*' || /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+\/?$/i.test(o)),
      'must be * or a comma-separated list of origins such as https://app.example.com',
    )
    .default(['*']),
  imageAllowPrivateHosts: z.stringbool({ error: 'must be true or false' }).default(false),
  imageMaxMb: z.coerce
    .number({ message: 'must be a number of megabytes' })
    .positive('must be more than 0')
    .default(10),
  passwordGuessesPerRecord: z.coerce
    .number({ message: 'must be a number of guesses' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(5),
  passwordGuessesPerClient: z.coerce
    .number({ message: 'must be a number of guesses' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(50),
  passwordGuessWindowSeconds: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .default(900),
  jsonpEnabled: z.stringbool({ error: 'must be true or false' }).default(true),
  updateSemantics: z.enum(['merge', 'replace'], { error: 'must be merge or replace' }).default('merge'),
  cdnPurge: z
    .enum(['varnish', 'fastly', 'cloudflare'], { message: 'must be varnish, fastly or cloudflare' })
    .optional(),
  cdnPurgeUrl: csvList
    .refine(
      (list) => list.length > 0 && list.every((u) => URL.canParse(u) && /^https?:/.test(u)),
      'must be an http(s) URL, or several comma-separated (one per Varnish)',
    )
    .optional(),
  cdnPurgeToken: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 visible characters (an API token)')
    .optional(),
  cdnServiceId: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, "must be Fastly's service id (letters and digits)")
    .optional(),
  cdnZoneId: z
    .string()
    .regex(/^[a-f0-9]{32}$/, "must be Cloudflare's zone id (32 hexadecimal digits)")
    .optional(),
  cdnTagHeaders: csvList
    .refine(
      (list) =>
        (list.length === 1 && list[0]!.toLowerCase() === 'none') ||
        list.every((h) => (TAG_HEADERS as readonly string[]).includes(h.toLowerCase())),
      `must be a comma-separated list of ${TAG_HEADERS.join(', ')}, or none`,
    )
    .transform((list) => list.map((h) => h.toLowerCase()).filter((h): h is TagHeader => h !== 'none'))
    .optional(),
  cdnMaxAgeSeconds: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .default(600),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof configSchema>;

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
      'after a write, how long anonymous readers may still get the previous answer while one refill runs (0: they wait for it)',
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
};

const sources = settings;

/** Settings whose whole value is a secret: an error about them never shows it. */
/**
 * A value as a configuration error may show it: a secret setting's not at all (only its length, which is what a
 * length rule is about), a URL without the password in its user part (`redis://:pw@host`) nor secret query values.
 */
function shown(key: keyof Config, value: unknown): string {
  const text = String(value);
  if (settings[key].secret) return `a value of ${text.length} characters (not shown: it is a secret)`;
  // Each item of a list (REDIS_URL may name several nodes) loses the password in its user part.
  return JSON.stringify(
    text
      .split(',')
      .map((u) => redactUrl(u.trim()))
      .join(','),
  );
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** What a CDN purger lacks or has too much of, each naming its setting. Pure. */
export function cdnProblems(c: Config): string[] {
  const out: string[] = [];
  const needs: Record<string, Array<keyof Config>> = {
    varnish: ['cdnPurgeUrl'],
    fastly: ['cdnServiceId', 'cdnPurgeToken'],
    cloudflare: ['cdnZoneId', 'cdnPurgeToken'],
  };
  if (c.cdnPurge === undefined) {
    for (const key of ['cdnPurgeUrl', 'cdnPurgeToken', 'cdnServiceId', 'cdnZoneId'] as const)
      if (c[key] !== undefined)
        out.push(`${settings[key].env} is set but CDN_PURGE is not: set CDN_PURGE too.`);
    return out;
  }
  for (const key of needs[c.cdnPurge]!)
    if (c[key] === undefined) out.push(`CDN_PURGE=${c.cdnPurge} needs ${settings[key].env}.`);
  if (c.cdnPurge !== 'fastly' && c.cdnServiceId !== undefined)
    out.push(`CDN_SERVICE_ID is Fastly's: unset it, or set CDN_PURGE=fastly.`);
  if (c.cdnPurge !== 'cloudflare' && c.cdnZoneId !== undefined)
    out.push(`CDN_ZONE_ID is Cloudflare's: unset it, or set CDN_PURGE=cloudflare.`);
  if (c.cacheTtlSeconds === 0)
    out.push('CDN_PURGE needs the response cache, whose tags it purges: set CACHE_TTL_SECONDS above 0.');
  return out;
}

/** What the Redis settings lack or have too much of for `REDIS_MODE`, each naming its settings. Pure. */
export function redisProblems(c: Config): string[] {
  const out: string[] = [];
  const urls = c.redisUrl?.split(',') ?? [];
  if (c.redisMode === 'standalone') {
    if (urls.length > 1)
      out.push(
        `REDIS_URL lists ${urls.length} nodes but REDIS_MODE is standalone: set REDIS_MODE=cluster (the URLs are cluster nodes) or REDIS_MODE=sentinel (the URLs are sentinels), or give one URL.`,
      );
  } else if (urls.length === 0) {
    out.push(
      `REDIS_MODE=${c.redisMode} needs REDIS_URL: the ${c.redisMode === 'cluster' ? 'cluster nodes' : 'sentinels'}, comma-separated redis://host:port URLs.`,
    );
  }
  if (c.redisMode === 'sentinel' && c.redisSentinelName === undefined)
    out.push("REDIS_MODE=sentinel needs REDIS_SENTINEL_NAME: the master's name the sentinels monitor.");
  if (c.redisMode !== 'sentinel' && c.redisSentinelName !== undefined)
    out.push(
      'REDIS_SENTINEL_NAME is set but REDIS_MODE is not sentinel: set REDIS_MODE=sentinel, or unset it.',
    );
  if (c.redisMode === 'cluster' && urls.some((u) => !/^\/?0?$/.test(new URL(u).pathname)))
    out.push(
      'REDIS_URL names a database but REDIS_MODE=cluster: Redis Cluster has database 0 only; drop the /<db>.',
    );
  return out;
}

/** Flags win over environment variables; empty strings count as unset. */
export function loadConfig(argv: string[] = [], env: NodeJS.ProcessEnv = {}): Config {
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.values(sources).map((s) => [s.flag, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new ConfigError(
      `${(err as Error).message}\nKnown flags: ${Object.values(sources)
        .map((s) => `--${s.flag}`)
        .join(', ')}`,
    );
  }
  const raw: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(sources)) {
    const v = flags[s.flag] ?? env[s.env];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0]) as keyof Config;
      const s = sources[key];
      return `  - ${s.env} (--${s.flag}) ${i.message}; got ${shown(key, raw[key])}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (parsed.data.upstreamAuth && !parsed.data.upstreamUrl) {
    throw new ConfigError(
      'Invalid configuration:\n  - UPSTREAM_AUTH is set but UPSTREAM_URL is not: set both, or neither for demo mode.',
    );
  }
  if (parsed.data.upstreamUrl && !parsed.data.upstreamAuth) {
    // The event index reads every status in edit context: without a service account it cannot be built at all.
    throw new ConfigError(
      "Invalid configuration:\n  - UPSTREAM_URL is set but UPSTREAM_AUTH is not: give a service account's application password (user:application-password; an editor is enough), or neither for demo mode.",
    );
  }
  const problems = [...redisProblems(parsed.data), ...cdnProblems(parsed.data)];
  if (problems.length)
    throw new ConfigError(`Invalid configuration:\n${problems.map((l) => `  - ${l}`).join('\n')}`);
  return parsed.data;
}
