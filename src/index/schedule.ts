// Runs a job on an interval that does not hold the process, logging one line per failure streak, not per failure.
import type { IndexLogger } from './progress.ts';

export class Periodic {
  readonly #name: string;
  readonly #context: object;
  readonly #logger: IndexLogger;
  readonly #job: () => Promise<unknown>;
  #timer: NodeJS.Timeout | undefined;
  #failing = false;

  constructor(name: string, job: () => Promise<unknown>, logger: IndexLogger, context: object = {}) {
    this.#name = name;
    this.#job = job;
    this.#logger = logger;
    this.#context = context;
  }

  /** Whether the last run failed. */
  get failing(): boolean {
    return this.#failing;
  }

  start(intervalMs: number): void {
    this.stop();
    this.#timer = setInterval(() => void this.run(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One run now; never throws. A WordPress that is down for an hour must not flood the log. */
  async run(): Promise<void> {
    try {
      await this.#job();
      if (this.#failing) {
        this.#failing = false;
        this.#logger.info(this.#context, `${this.#name} recovered`);
      }
    } catch (err) {
      if (this.#failing) return;
      this.#failing = true;
      const message = err instanceof Error ? err.message : String(err);
      this.#logger.warn({ ...this.#context, err: message }, `${this.#name} failed`);
    }
  }
}
