// The delivery loop of one instance: claims due messages with a lease, sends each once, and writes the outcome back
// (delivered, due again on the schedule or as Retry-After asks, given up), and what it means for the endpoint.
import type { Dispatcher } from 'undici';
import type { Logger } from '../log.ts';
import type { Claimed, DeliveryQueue } from './queue.ts';
import { failedTooLong, honoursRetryAfter, nextDelay, outcomeOf, retryAfterMs } from './schedule.ts';
import { send } from './send.ts';
import { signedHeaders } from './signing.ts';
import type { SubscriptionStore } from './subscriptions.ts';
import type { Outcome, Subscription } from './types.ts';

/** The longest an attempt may take: the spec's 15 s. */
export const ATTEMPT_TIMEOUT_MS = 15_000;

export interface DelivererOptions {
  queue: DeliveryQueue;
  subs: SubscriptionStore;
  dispatcher: Dispatcher;
  log: Logger;
  retryScale: number;
  leaseMs: number;
  concurrency: number;
  pollMs: number;
  now: () => number;
  random: () => number;
}

export class Deliverer {
  readonly #o: DelivererOptions;
  /** Attempts made by this instance, by outcome (the metrics' counter). */
  readonly attempts: Record<Outcome, number> = { success: 0, failure: 0, timeout: 0, refused: 0, gone: 0 };
  #inFlight = 0;
  #ticking = false;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #unreachable = false;
  readonly #running = new Set<Promise<void>>();

  constructor(o: DelivererOptions) {
    this.#o = o;
  }

  /** An attempt must be over before its lease ends, or another instance would send the message again meanwhile. */
  get timeoutMs(): number {
    return Math.min(ATTEMPT_TIMEOUT_MS, this.#o.leaseMs / 2);
  }

  start(): void {
    this.#stopped = false;
    this.#timer = setInterval(() => this.kick(), this.#o.pollMs);
    this.#timer.unref();
    this.kick();
  }

  /** Stops claiming; lets the attempts in flight finish and write their outcome. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await Promise.allSettled([...this.#running]);
  }

  /** Looks for due messages now (after a fan-out, or when an attempt ends and frees a slot). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    this.#ticking = true;
    this.#tick()
      .then(
        () => {
          if (this.#unreachable) this.#o.log.info('webhook queue reachable again');
          this.#unreachable = false;
        },
        (err: unknown) => {
          // Once per outage: the poll tries again every few hundred milliseconds.
          if (!this.#unreachable)
            this.#o.log.warn({ err: (err as Error)?.message }, 'webhook queue unreachable');
          this.#unreachable = true;
        },
      )
      .finally(() => {
        this.#ticking = false;
      });
  }

  async #tick(): Promise<void> {
    do {
      this.#again = false;
      const free = this.#o.concurrency - this.#inFlight;
      if (free <= 0 || this.#stopped) return;
      const claimed = await this.#o.queue.claim(this.#o.now(), this.#o.leaseMs, free);
      for (const c of claimed) {
        this.#inFlight++;
        const p = this.#deliver(c)
          .catch((err: unknown) =>
            this.#o.log.warn(
              { err: (err as Error)?.message, message: c.message.id },
              'webhook attempt not recorded',
            ),
          )
          .finally(() => {
            this.#inFlight--;
            this.#running.delete(p);
            this.kick();
          });
        this.#running.add(p);
      }
      if (claimed.length === free) this.#again = true;
    } while (this.#again);
  }

  async #deliver(c: Claimed): Promise<void> {
    const o = this.#o;
    const m = c.message;
    const sub = await o.subs.get(m.sub);
    // Deleted or disabled since it was queued: nothing is sent; redelivery can bring it back once re-enabled.
    if (!sub?.enabled) {
      await o.queue.settle(c, { attempts: m.attempts, state: 'failed' }, o.now());
      return;
    }
    const started = o.now();
    const secrets = [sub.secret];
    if (sub.previous_secret && (sub.previous_until ?? 0) > started) secrets.push(sub.previous_secret);
    const headers = signedHeaders(secrets, m.id, Math.floor(started / 1000), m.body);
    const r = await send(o.dispatcher, sub.url, headers, m.body, this.timeoutMs);
    const now = o.now();
    const attempts = m.attempts + 1;
    const outcome: Outcome =
      r.error === 'timeout'
        ? 'timeout'
        : r.error
          ? r.error === 'refused'
            ? 'refused'
            : 'failure'
          : outcomeOf(r.status);
    this.attempts[outcome]++;
    await o.queue.logAttempt(sub.id, {
      message: m.id,
      attempt: attempts,
      time: new Date(started).toISOString(),
      status: r.status,
      duration_ms: r.durationMs,
      outcome,
      response: r.response,
    });
    if (outcome === 'success') {
      await o.queue.settle(c, { attempts, state: 'delivered' }, now);
      if (sub.failing_since !== null) await this.#patch(sub.id, (s) => ({ ...s, failing_since: null }));
      return;
    }
    if (outcome === 'gone') {
      await o.queue.settle(c, { attempts, state: 'failed' }, now);
      await this.#disable(sub.id, `the endpoint answered 410 Gone on ${new Date(now).toISOString()}`);
      return;
    }
    const failingSince = sub.failing_since ?? started;
    if (failedTooLong(failingSince, now, o.retryScale)) {
      await o.queue.settle(c, { attempts, state: 'failed' }, now);
      await this.#disable(
        sub.id,
        `every attempt failed since ${new Date(failingSince).toISOString()} (5 days)`,
      );
      return;
    }
    if (sub.failing_since === null)
      await this.#patch(sub.id, (s) => ({ ...s, failing_since: s.failing_since ?? started }));
    const scheduled = nextDelay(attempts, o.retryScale, o.random);
    if (scheduled === null) {
      await o.queue.settle(c, { attempts, state: 'failed' }, now);
      return;
    }
    const asked = honoursRetryAfter(r.status) ? retryAfterMs(r.retryAfter, now) : null;
    await o.queue.settle(c, { attempts, dueMs: now + (asked ?? scheduled) }, now);
  }

  async #disable(id: string, reason: string): Promise<void> {
    this.#o.log.warn({ subscription: id, reason }, 'webhook subscription disabled');
    await this.#patch(id, (s) => ({ ...s, enabled: false, disabled_reason: reason }));
  }

  /** Changes one subscription as it is now (an administrator's edit meanwhile is kept; a deleted one stays so). */
  async #patch(id: string, change: (s: Subscription) => Subscription): Promise<void> {
    await this.#o.subs.patch(id, change);
  }
}
