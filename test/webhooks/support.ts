// What the webhook tests share: real HTTP receivers on loopback, a small in-memory change log, changes written to the
// Redis Stream as src/changes/types.ts describes it, and webhook instances on the shared Redis under a test prefix.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { streamFields } from '../../src/changes/redis-log.ts';
import type { Change, ChangeLog, LoggedChange } from '../../src/changes/types.ts';
import { createLogger } from '../../src/log.ts';
import type { SharedRedis } from '../../src/shared-redis.ts';
import { type WebhookOptions, Webhooks } from '../../src/webhooks/service.ts';
import { SHARED_REDIS } from '../cache/redis-helper.ts';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** TCP connections accepted (a refused target must never get one). */
  connections: number;
  close(): Promise<void>;
}

/**
 * An HTTP endpoint on 127.0.0.1 keeping every request; `answer` decides each reply from the request's number (1…),
 * and may leave it unanswered (the test then closes the receiver).
 */
export async function receiver(
  answer: (n: number, res: ServerResponse, d: Delivery) => void = (_n, res) => res.end('ok'),
): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const r = { connections: 0 } as Receiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const d = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      deliveries.push(d);
      answer(deliveries.length, res, d);
    });
  });
  server.on('connection', () => {
    r.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(r, {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The change log of one process, for tests until the real one is wired (src/changes/). */
export class TestLog implements ChangeLog {
  readonly #entries: LoggedChange[] = [];
  readonly #listeners = new Set<(c: LoggedChange) => void>();
  async append(change: Change): Promise<LoggedChange> {
    const logged = { ...change, cursor: String(this.#entries.length + 1) };
    this.#entries.push(logged);
    for (const l of this.#listeners) l(logged);
    return logged;
  }
  async read(cursor: string, limit: number): Promise<LoggedChange[]> {
    return this.#entries.slice(Number(cursor), Number(cursor) + limit);
  }
  follow(listener: (c: LoggedChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** Appends a change to `<prefix>changes` with the fields as strings, as the Redis change log does. */
export async function appendToStream(
  r: Redis,
  prefix: string,
  c: Change & { was_public?: boolean },
): Promise<string> {
  const id = await r.xadd(`${prefix}changes`, '*', ...streamFields(c));
  return id as string;
}

export const change = (id: number, over: Partial<LoggedChange> = {}): Change & { was_public?: boolean } => ({
  kind: 'event',
  id,
  action: 'updated',
  modified_utc: '2026-01-01 10:00:00',
  rest_url: `http://gateway.test/wp-json/calendar/events/v1/events/${id}`,
  tags: [`event:${id}`, 'list:event'],
  public: true,
  ...over,
});

export function sharedRedis(prefix: string): SharedRedis & { close(): void } {
  const cmd = new Redis(SHARED_REDIS, { maxRetriesPerRequest: 1 });
  return { cmd, up: () => cmd.status === 'ready', prefix, close: () => cmd.disconnect() };
}

/** A webhooks instance as a test runs it: private targets allowed, the schedule compressed 1000 times. */
export function instance(over: Partial<WebhookOptions> = {}): Webhooks {
  const w = new Webhooks({
    log: createLogger('silent'),
    allowPrivate: true,
    retryScale: 0.001,
    leaseMs: 4_000,
    pollMs: 50,
    ...over,
  });
  w.start();
  return w;
}

/** Resolves with the probe's first truthy answer. */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  ms = 20_000,
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v as Exclude<T, false | 0 | '' | null | undefined>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
