// Redis connections for the cache: one Redis, a Redis Cluster or a Sentinel-managed master (ioredis's own support for
// each); fail fast while Redis is away, log an outage once, reconnect (ioredis does).
import { Cluster, type ClusterOptions, Redis, type RedisOptions, ReplyError } from 'ioredis';

/** The part of a logger the cache uses (pino's shape). */
export interface CacheLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** A connection that runs commands: one Redis (standalone, the Sentinel's master) or a whole cluster. */
export type RedisClient = Redis | Cluster;

export type RedisMode = 'standalone' | 'cluster' | 'sentinel';

/** Where Redis is: REDIS_MODE, REDIS_URL (comma-separated for a cluster's seeds or the sentinels), REDIS_SENTINEL_NAME. */
export interface RedisTarget {
  mode: RedisMode;
  url: string;
  sentinelName?: string;
}

export interface RedisLink {
  readonly mode: RedisMode;
  /** Commands: entries, tag sets, locks, snapshots. */
  readonly cmd: RedisClient;
  /** A connection of its own for the blocking read of the invalidation stream (XREAD BLOCK holds its connection). */
  readonly reader: RedisClient;
  /** The masters, for what walks every key (a purge's SCAN): the cluster's masters, else `cmd` itself. */
  masters(): Redis[];
  /** Whether `cmd` is connected and ready now; when false, callers skip Redis instead of waiting. */
  readonly up: () => boolean;
  /** Resolves true once connected (at start-up), false after `ms` without a connection. */
  waitUp(ms: number): Promise<boolean>;
  /** Called after every reconnection that ended an outage (callers replay what they could not send). */
  onRecover(fn: () => void): void;
  close(): Promise<void>;
}

/** `redis://[user:password@]host:port[/db]` as ioredis's node options (TLS for rediss://). */
export function nodeOf(url: string): { host: string; port: number } & RedisOptions {
  const u = new URL(url);
  const db = Number(u.pathname.replace(/^\//, '') || 0);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: Number(u.port || 6379),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db ? { db } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** ioredis's words for a server it cannot reach, is still reaching, or stopped waiting for (FAIL_FAST below). */
const UNREACHED =
  /^(?:Command timed out|Connection is closed|Stream isn't writeable|Cluster (?:is disconnected|is disconnecting|isn't ready)|None of startup nodes is available|No master node is available|Reached the max retries per request limit|Failed to refresh slots cache|connect ETIMEDOUT)/;
/** Redis's own refusals that pass by themselves: a long script, a load from disk, memory, a failover. */
const PASSING = /^(?:BUSY|LOADING|OOM|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|READONLY|NOREPLICAS|MISCONF)\b/;

/**
 * Whether `err` is Redis not answering now (down, reconnecting, a command past its 500 ms, busy, failing over), as
 * against a command it refused for good (WRONGTYPE, a script's error: a bug, which stays a 500).
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof ReplyError) return PASSING.test(err.message);
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    err.name === 'ClusterAllFailedError' ||
    UNREACHED.test(err.message)
  );
}

// A request must never wait for Redis: no offline queue, one retry, short timeouts.
const FAIL_FAST = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 500,
  connectTimeout: 1_000,
  retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
  lazyConnect: false,
} satisfies RedisOptions;

/** The stream reader blocks up to 2 s per XREAD: no command timeout, a client-side guard on the block instead. */
const READER = { commandTimeout: undefined, blockingTimeout: 5_000 } satisfies RedisOptions;

function clientOf(target: RedisTarget, extra: RedisOptions): RedisClient {
  const urls = target.url.split(',').map((u) => u.trim());
  if (target.mode === 'cluster') {
    const seeds = urls.map(nodeOf);
    const { host: _h, port: _p, ...auth } = seeds[0]!;
    const options: ClusterOptions = {
      // Reads go to masters: a replica may lag behind an invalidation that already reached its master.
      scaleReads: 'master',
      enableOfflineQueue: false,
      maxRedirections: 4,
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      slotsRefreshTimeout: 1_000,
      clusterRetryStrategy: FAIL_FAST.retryStrategy,
      redisOptions: { ...FAIL_FAST, ...auth, ...extra },
    };
    return new Cluster(
      seeds.map(({ host, port }) => ({ host, port })),
      options,
    );
  }
  if (target.mode === 'sentinel') {
    const sentinels = urls.map(nodeOf);
    const { host: _h, port: _p, ...auth } = sentinels[0]!;
    return new Redis({
      ...FAIL_FAST,
      ...extra,
      sentinels: sentinels.map(({ host, port }) => ({ host, port })),
      name: target.sentinelName,
      // The credentials in the URLs are the master's and the sentinels' alike.
      ...auth,
      sentinelUsername: auth.username,
      sentinelPassword: auth.password,
      ...(auth.tls ? { enableTLSForSentinelMode: true, sentinelTLS: auth.tls } : {}),
      sentinelRetryStrategy: FAIL_FAST.retryStrategy,
    });
  }
  return new Redis(urls[0]!, { ...FAIL_FAST, ...extra });
}

export function connectRedis(where: string | RedisTarget, log: CacheLogger): RedisLink {
  const target: RedisTarget = typeof where === 'string' ? { mode: 'standalone', url: where } : where;
  const cmd = clientOf(target, {});
  const reader = clientOf(target, READER);
  let ready = false;
  let down = false;
  const recover: Array<() => void> = [];
  const lost = (err?: Error) => {
    ready = false;
    if (down) return;
    down = true;
    log.warn(
      { err: err?.message },
      'Redis is unavailable: serving from the in-process cache and the upstream until it is back',
    );
  };
  cmd.on('ready', () => {
    ready = true;
    if (down) {
      down = false;
      log.info({}, 'Redis is back');
      for (const fn of recover) fn();
    }
  });
  cmd.on('error', (err: Error) => lost(err));
  cmd.on('close', () => lost());
  cmd.on('end', () => lost());
  // Errors of the reader (and of a cluster's single nodes) are the same outage; listeners keep them handled.
  reader.on('error', () => {});
  cmd.on('node error', () => {});
  reader.on('node error', () => {});
  return {
    mode: target.mode,
    cmd,
    reader,
    masters: () => (cmd instanceof Cluster ? cmd.nodes('master') : [cmd]),
    up: () => ready && cmd.status === 'ready',
    waitUp: (ms) =>
      ready
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const done = (ok: boolean) => {
              clearTimeout(timer);
              cmd.off('ready', onReady);
              resolve(ok);
            };
            const onReady = () => done(true);
            const timer = setTimeout(() => done(false), ms);
            cmd.once('ready', onReady);
          }),
    onRecover: (fn) => {
      recover.push(fn);
    },
    close: async () => {
      recover.length = 0;
      cmd.removeAllListeners('close');
      cmd.removeAllListeners('end');
      cmd.disconnect();
      reader.disconnect();
    },
  };
}
