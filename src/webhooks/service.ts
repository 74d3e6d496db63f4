// The webhooks of one instance: subscriptions, the fan-out of each change into messages, and the delivery loop.
import { randomUUID } from 'node:crypto';
import type { ChangeLog, LoggedChange } from '../changes/types.ts';
import type { Logger } from '../log.ts';
import type { SharedRedis } from '../shared-redis.ts';
import { Deliverer } from './deliver.ts';
import { GroupReader } from './group.ts';
import { guardedAgent, type Resolver } from './guard.ts';
import { actionFor, messageId, payloadOf, typeOf, wants } from './payload.ts';
import { type DeliveryQueue, MemoryQueue } from './queue.ts';
import { RedisQueue } from './redis-queue.ts';
import { MemorySubscriptions, RedisSubscriptions, type SubscriptionStore } from './subscriptions.ts';
import type { Message, Subscription } from './types.ts';

export interface WebhookOptions {
  /** Shared Redis: subscriptions, queue and fan-out shared by every instance. Without it, all is in memory. */
  redis?: SharedRedis;
  /** The change log: its `follow` feeds the fan-out (in memory) or wakes it (with Redis). */
  changes?: ChangeLog;
  log: Logger;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http and non-public addresses allowed (local development). */
  allowPrivate: boolean;
  retryScale?: number;
  leaseMs?: number;
  concurrency?: number;
  /** How often the queue and the stream are looked at without a wake-up. */
  pollMs?: number;
  /** Host name resolution, for tests that play a rebinding DNS. */
  resolve?: Resolver;
  now?: () => number;
  random?: () => number;
}

export class Webhooks {
  readonly subs: SubscriptionStore;
  readonly queue: DeliveryQueue;
  readonly deliverer: Deliverer;
  readonly options: WebhookOptions;
  readonly #reader: GroupReader | undefined;
  readonly #now: () => number;
  readonly #dispatcher: ReturnType<typeof guardedAgent>;
  #unfollow: (() => void) | undefined;
  #poll: NodeJS.Timeout | undefined;
  #prune: NodeJS.Timeout | undefined;
  /** The fan-out runs one batch at a time, in log order. */
  #chain: Promise<void> = Promise.resolve();
  #pumping = false;
  #pumpAgain = false;
  #failing = false;

  constructor(o: WebhookOptions) {
    this.options = o;
    this.#now = o.now ?? Date.now;
    const leaseMs = o.leaseMs ?? 30_000;
    this.subs = o.redis ? new RedisSubscriptions(o.redis) : new MemorySubscriptions();
    this.queue = o.redis ? new RedisQueue(o.redis) : new MemoryQueue();
    this.#reader = o.redis && new GroupReader(o.redis, `gw-${randomUUID()}`, leaseMs);
    this.#dispatcher = guardedAgent({
      allowPrivate: o.allowPrivate,
      resolve: o.resolve,
      timeoutMs: Math.min(10_000, leaseMs / 2),
    });
    this.deliverer = new Deliverer({
      queue: this.queue,
      subs: this.subs,
      dispatcher: this.#dispatcher,
      log: o.log,
      retryScale: o.retryScale ?? 1,
      leaseMs,
      concurrency: o.concurrency ?? 32,
      pollMs: o.pollMs ?? 250,
      now: this.#now,
      random: o.random ?? Math.random,
    });
  }

  start(): void {
    const o = this.options;
    if (this.#reader) {
      // Each change in the log wakes the group read at once; the poll catches what a missed wake-up left.
      this.#unfollow = o.changes?.follow(() => this.pump());
      this.#poll = setInterval(() => this.pump(), Math.max(o.pollMs ?? 250, 250) * 4);
      this.#poll.unref();
      this.pump();
    } else if (o.changes) {
      this.#unfollow = o.changes.follow((c) => {
        this.#chain = this.#chain
          .then(async () => {
            await this.fanout([c]);
            this.#failing = false;
          })
          .catch((err: unknown) => this.#failed(err));
      });
    }
    this.#prune = setInterval(() => this.queue.prune(this.#now()).catch(() => {}), 3600_000);
    this.#prune.unref();
    this.deliverer.start();
  }

  async stop(): Promise<void> {
    this.#unfollow?.();
    clearInterval(this.#poll);
    clearInterval(this.#prune);
    await this.#chain;
    await this.deliverer.stop();
    await this.#dispatcher.close().catch(() => {});
  }

  /** Reads the stream's new (and abandoned) changes through the consumer group, and fans them out. */
  pump(): void {
    const reader = this.#reader;
    if (!reader) return;
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    this.#chain = (async () => {
      do {
        this.#pumpAgain = false;
        await reader.pump(async (changes) => {
          await this.fanout(changes);
        });
      } while (this.#pumpAgain);
      this.#failing = false;
    })()
      .catch((err: unknown) => this.#failed(err))
      .finally(() => {
        this.#pumping = false;
      });
  }

  #failed(err: unknown): void {
    // Once per outage: the group read comes back to what it could not fan out (unacknowledged) on the next poll.
    if (this.#failing) return;
    this.#failing = true;
    this.options.log.warn(
      { err: (err as Error)?.message },
      'webhook fan-out failed; retried on the next poll',
    );
  }

  /** Turns changes into one message per interested subscription, queued due now; then delivery starts. */
  async fanout(changes: LoggedChange[]): Promise<number> {
    const subs = (await this.subs.all()).filter((s) => s.enabled);
    const now = this.#now();
    const messages: Message[] = [];
    for (const c of changes) {
      // The log says whether the public saw the record before (src/changes/types.ts: absent means as `public`).
      const was = c.was_public ?? c.public;
      for (const s of subs) messages.push(...messageFor(c, s, was, now));
    }
    const added = await this.queue.enqueue(messages, now);
    if (added) this.deliverer.kick();
    return added;
  }
}

function messageFor(c: LoggedChange, s: Subscription, was: boolean, now: number): Message[] {
  const action = actionFor(c, s, was);
  if (!action || !wants(s, typeOf(c.kind, action))) return [];
  return [
    {
      id: messageId(s.id, c.cursor),
      sub: s.id,
      body: payloadOf(c, action, now),
      created_ms: now,
      attempts: 0,
      state: 'pending',
    },
  ];
}
