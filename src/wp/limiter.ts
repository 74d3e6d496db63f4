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
   * Runs `call` once a slot is free. `patient` calls (the index's crawls, which nobody waits on) queue without
   * bounds; others are refused when the queue is full or the wait is too long, or dropped when `signal` aborts.
   */
  async run<T>(call: () => Promise<T>, opts: { patient?: boolean; signal?: AbortSignal } = {}): Promise<T> {
    if (this.#active >= this.#o.concurrency) await this.#wait(opts);
    else this.#active++;
    try {
      return await call();
    } finally {
      const next = this.#waiting.shift();
      if (next) next.start();
      else this.#active--;
    }
  }

  #wait(opts: { patient?: boolean; signal?: AbortSignal }): Promise<void> {
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
      if (!opts.patient) timer = setTimeout(() => waiter.fail(upstreamBusy()), this.#o.waitMs);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }
}
