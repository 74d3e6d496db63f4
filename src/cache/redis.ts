// Redis connections for the cache: fail fast while Redis is away, log an outage once, reconnect (ioredis does).
import { Redis } from 'ioredis';

/** The part of a logger the cache uses (pino's shape). */
export interface CacheLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RedisLink {
  /** Commands: entries, tag sets, locks, snapshots. */
  readonly cmd: Redis;
  /** Subscriber connection (a subscribed connection can run no other command). */
  readonly sub: Redis;
  /** Whether `cmd` is connected and ready now; when false, callers skip Redis instead of waiting. */
  readonly up: () => boolean;
  /** Resolves true once connected (at start-up), false after `ms` without a connection. */
  waitUp(ms: number): Promise<boolean>;
  /** Called after every reconnection that ended an outage (callers replay what they could not send). */
  onRecover(fn: () => void): void;
  close(): Promise<void>;
}

export function connectRedis(url: string, log: CacheLogger): RedisLink {
  const options = {
    // A request must never wait for Redis: no offline queue, one retry, short timeouts.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 1_000,
    retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
    lazyConnect: false,
  };
  const cmd = new Redis(url, options);
  // The subscriber queues its SUBSCRIBE until connected and re-subscribes after reconnecting.
  const sub = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
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
  // Errors of the subscriber are the same outage; the listener keeps them from being unhandled.
  sub.on('error', () => {});
  return {
    cmd,
    sub,
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
      sub.disconnect();
    },
  };
}
