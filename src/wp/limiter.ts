// Bounds the WordPress calls in flight: a spike of cold URLs queues, then is refused, instead of taking the site down.
import { type ApiError, aborted, upstreamBusy } from '../http/errors.ts';

export interface LimiterOptions {
  /** Calls in flight at most. */
  concurrency: number;
  /** Calls waiting at most; one more is refused at once. */
  queue: number;
  /** Longest wait for a slot before the call is refused. */
  waitMs: number;
}

export interface SlotOptions {
  /** Waits without bounds (the index's crawls). */
  patient?: boolean;
  /** Leaves the queue when it aborts. */
  signal?: AbortSignal;
  /** Waits at most this long (what is left of the request's deadline), if shorter than the limiter's own wait. */
  maxWaitMs?: number;
}

interface Waiter {
  start: () => void;
  fail: (err: ApiError) => void;
}

export class UpstreamLimiter {
  readonly #o: LimiterOptions;
  #active = 0;
  readonly #waiting: Waiter[] = [];

  constructor(o: LimiterOptions) {
    this.#o = o;
  }

  get active(): number {
    return this.#active;
  }
  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Runs `call` once a slot is free, and frees the slot when it settles. `patient` calls (the index's crawls, which
   * nobody waits on) queue without bounds; others are refused when the queue is full or the wait is too long, or
   * dropped when `signal` aborts.
   */
  async run<T>(call: () => Promise<T>, opts: SlotOptions = {}): Promise<T> {
    const release = await this.acquire(opts);
    try {
      return await call();
    } finally {
      release();
    }
  }

  /** A slot, once one is free (the same rules as `run`); the caller frees it by calling what this resolves to. */
  async acquire(opts: SlotOptions = {}): Promise<() => void> {
    if (this.#active >= this.#o.concurrency) await this.#wait(opts);
    else this.#active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next.start();
      else this.#active--;
    };
  }

  #wait(opts: SlotOptions): Promise<void> {
    if (!opts.patient && this.#waiting.length >= this.#o.queue) return Promise.reject(upstreamBusy());
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        const i = this.#waiting.indexOf(waiter);
        if (i >= 0) this.#waiting.splice(i, 1);
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        // The slot of the call that finished passes straight to this one (`#active` stays the same).
        start: () => {
          leave();
          resolve();
        },
        fail: (err) => {
          leave();
          reject(err);
        },
      };
      const onAbort = () => waiter.fail(aborted());
      const waitMs = Math.min(this.#o.waitMs, opts.maxWaitMs ?? Number.POSITIVE_INFINITY);
      if (!opts.patient) timer = setTimeout(() => waiter.fail(upstreamBusy()), Math.max(0, waitMs));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }
}
