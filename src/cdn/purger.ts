// Purges a shared cache's copies off the request path: tags coalesced for a moment, batched, retried with backoff.
import { setTimeout as sleep } from 'node:timers/promises';
import { type PurgeBackend, PurgeError } from './backends.ts';

export interface PurgerOptions {
  /** How long tags gather before one purge goes out (ms). Default 100. */
  windowMs?: number;
  /** Tries per batch, the first included. Default 5. */
  attempts?: number;
  /** First retry's wait (ms), doubled each time, with jitter. Default 250. */
  backoffMs?: number;
  /** One call's time limit (ms). Default 10 000. */
  timeoutMs?: number;
  log?: { warn(o: object, m: string): void; error(o: object, m: string): void };
}

export interface PurgeStats {
  /** Calls that succeeded, were retried, or failed for good (their tags are then left to `s-maxage`). */
  calls: { ok: number; retried: number; failed: number };
  /** Tags purged (a purge of everything counts as none). */
  tags: number;
  /** Purges of everything. */
  all: number;
}

/**
 * One purger per instance. It is told only of this instance's own invalidations (a write through it, a
 * notification it accepted, a change its index or catalog found), never of those announced by its peers, so N
 * instances purge a change once, not N times. A purge never throws into its caller and never holds a write up.
 */
export class CdnPurger {
  readonly backend: PurgeBackend;
  readonly stats: PurgeStats = { calls: { ok: 0, retried: 0, failed: 0 }, tags: 0, all: 0 };
  readonly #o: Required<Omit<PurgerOptions, 'log'>> & Pick<PurgerOptions, 'log'>;
  #pending = new Set<string>();
  #all = false;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(backend: PurgeBackend, opts: PurgerOptions = {}) {
    this.backend = backend;
    this.#o = {
      windowMs: opts.windowMs ?? 100,
      attempts: opts.attempts ?? 5,
      backoffMs: opts.backoffMs ?? 250,
      timeoutMs: opts.timeoutMs ?? 10_000,
      log: opts.log,
    };
  }

  /** Tags waiting for the next purge. */
  get pending(): number {
    return this.#pending.size + (this.#all ? 1 : 0);
  }

  /** Queues a purge of these tags (`null`: everything); it goes out within the window, with what else came. */
  purge(tags: readonly string[] | null): void {
    if (tags === null) this.#all = true;
    else for (const t of tags) this.#pending.add(t);
    if (this.#timer || this.pending === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#running.then(() => this.#flush());
    }, this.#o.windowMs);
    this.#timer.unref?.();
  }

  /** Sends what is queued now and waits for every purge under way (tests, shutdown). */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#running = this.#running.then(() => this.#flush());
    }
    await this.#running;
  }

  async #flush(): Promise<void> {
    const all = this.#all;
    const tags = [...this.#pending].sort();
    this.#all = false;
    this.#pending.clear();
    if (all) {
      // Everything goes: the tags queued with it need no call of their own.
      if (await this.#send(null)) this.stats.all++;
      return;
    }
    const size = this.backend.batchSize;
    for (let i = 0; i < tags.length; i += size) {
      const batch = tags.slice(i, i + size);
      if (await this.#send(batch)) this.stats.tags += batch.length;
    }
  }

  /** One batch, tried until it succeeds, fails for good, or runs out of attempts. */
  async #send(tags: string[] | null): Promise<boolean> {
    const { attempts, backoffMs, timeoutMs, log } = this.#o;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.backend.send(tags, AbortSignal.timeout(timeoutMs));
        this.stats.calls.ok++;
        return true;
      } catch (err) {
        const e = err instanceof PurgeError ? err : new PurgeError(String(err), true);
        if (!e.retry || attempt >= attempts) {
          this.stats.calls.failed++;
          log?.error(
            { cdn: this.backend.name, tags: tags?.length ?? 'all', attempts: attempt, err: e.message },
            'CDN purge failed: the shared cache keeps these answers until s-maxage',
          );
          return false;
        }
        this.stats.calls.retried++;
        const wait = e.afterMs ?? backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random());
        log?.warn(
          { cdn: this.backend.name, attempt, err: e.message, waitMs: Math.round(wait) },
          'CDN purge retried',
        );
        await sleep(wait);
      }
    }
  }
}
