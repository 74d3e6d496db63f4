// Build progress: a bar on an interactive stderr, otherwise one log line at the start and one at the end.
import cliProgress from 'cli-progress';

/** The slice of a pino logger the index uses (pino's `(obj, msg)` call shape). */
export interface IndexLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Logs as one JSON line on stderr when no logger is given. */
export const stderrLogger: IndexLogger = {
  info: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 'info', msg, ...obj })}\n`),
  warn: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg, ...obj })}\n`),
};

export interface BuildProgress {
  start(): void;
  /** Called after each batch of pages with the posts read so far and the collection's total. */
  update(done: number, total: number): void;
  finish(count: number, ms: number): void;
  fail(): void;
}

/** A progress display for one language's build, chosen by whether stderr is a terminal. */
export function buildProgress(
  language: string,
  logger: IndexLogger,
  tty = process.stderr.isTTY === true,
): BuildProgress {
  if (!tty) {
    return {
      start: () => logger.info({ language }, `Indexing events [${language}]`),
      update: () => {},
      finish: (count, ms) =>
        logger.info({ language, count, ms }, `Indexed ${count} events [${language}] in ${ms} ms`),
      fail: () => {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: `Indexing events [${language}] {bar} {value}/{total}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    start: () => {},
    update: (done, total) => {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else bar.update(done);
    },
    finish: (count) => {
      if (started) {
        bar.setTotal(count);
        bar.update(count);
        bar.stop();
      }
    },
    fail: () => {
      if (started) bar.stop();
    },
  };
}
