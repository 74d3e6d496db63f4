// The gateway's settings as one zod schema over environment variables and flags (their docs: settings.ts).
import { isIP } from 'node:net';
import { z } from 'zod';
import { TAG_HEADERS, type TagHeader } from '../cdn/headers.ts';

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
  // Recurring events (recur-write): how many occurrences a rule may name.
  recurrenceMaxCount: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(1000),
  // Lists of occurrences (src/index/occurrences/): how far an unbounded rule is expanded when a list names no end.
  recurrenceWindowMonths: z.coerce
    .number({ message: 'must be a number of months' })
    .int('must be a whole number of months')
    .min(1, 'must be at least 1 month')
    .max(120, 'must be at most 120 months')
    .default(24),
  // Failed sign-ins (src/auth/throttle.ts).
  authFailuresPerAddress: z.coerce
    .number({ message: 'must be a number of sign-ins' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(20),
  authFailuresPerUserAddress: z.coerce
    .number({ message: 'must be a number of sign-ins' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(5),
  authFailuresPerUser: z.coerce
    .number({ message: 'must be a number of sign-ins' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(50),
  authFailureWindowSeconds: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .default(900),
  // The changes feed (src/changes/).
  changesRetentionDays: z.coerce
    .number({ message: 'must be a number of days' })
    .min(0.00001, 'must be at least 0.00001 days (about a second)')
    .max(3650, 'must be at most 3650 days')
    .default(30),
  changesWaitsPerClient: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(4),
  // ---- outbound webhooks (src/webhooks/) ----
  webhookAllowPrivateTargets: z.stringbool({ error: 'must be true or false' }).default(false),
  webhookRetryScale: z.coerce
    .number({ message: 'must be a number (1 is the real schedule)' })
    .positive('must be more than 0')
    .max(1, 'must be at most 1')
    .default(1),
  webhookLeaseSeconds: z.coerce
    .number({ message: 'must be a number of seconds' })
    .min(1, 'must be at least 1 second')
    .default(30),
  webhookConcurrency: z.coerce
    .number({ message: 'must be a number of deliveries' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(32),
});

export type Config = z.infer<typeof configSchema>;
