// How many long polls and event streams each client address holds open: bounded, so no client can pin the process.

export class Waits {
  readonly max: number;
  readonly #open = new Map<string, number>();

  constructor(max: number) {
    this.max = max;
  }

  /** Takes a slot for `client`; resolves the release, or undefined when the client holds `max` already. */
  enter(client: string | undefined): (() => void) | undefined {
    const key = client ?? '';
    const n = this.#open.get(key) ?? 0;
    if (n >= this.max) return undefined;
    this.#open.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left > 0) this.#open.set(key, left);
      else this.#open.delete(key);
    };
  }

  /** Slots held now, all clients together (metrics, tests). */
  get open(): number {
    let n = 0;
    for (const v of this.#open.values()) n += v;
    return n;
  }
}

/**
 * Resolves after the next change any instance appends (`follow`), after `ms`, or when `signal` aborts, whichever
 * comes first; never rejects.
 */
export function nextChange(
  follow: (listener: () => void) => () => void,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    let stop = () => {};
    const done = () => {
      clearTimeout(timer);
      stop();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    stop = follow(done);
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done);
  });
}
