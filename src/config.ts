// The gateway's configuration: the schema (config/schema.ts) and docs (config/settings.ts) read from the environment and flags.
import { parseArgs } from 'node:util';
import { type Config, configSchema } from './config/schema.ts';
import { type SettingDoc, settings } from './config/settings.ts';
import { redactUrl } from './observe/redact.ts';

export { type Config, configSchema, type SettingDoc, settings };

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
