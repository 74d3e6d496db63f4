// The gateway's logger (pino): JSON lines on stdout, pretty-printed (pino-pretty) when stdout is a terminal; quiet in
// tests unless LOG_LEVEL says otherwise. Start-up lines go through it too, so stdout has one format.
import pino from 'pino';
import pretty from 'pino-pretty';
import { redactLogFields } from './observe/redact.ts';

export type Logger = pino.Logger;

export function createLogger(
  level = process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info'),
  opts: { pretty?: boolean; destination?: pino.DestinationStream } = {},
): Logger {
  // Every line's URL fields lose their secrets here, whichever module logs them (src/observe/redact.ts).
  const options: pino.LoggerOptions = { level, base: undefined, formatters: { log: redactLogFields } };
  if (opts.destination) return pino(options, opts.destination);
  if (opts.pretty ?? process.stdout.isTTY === true) {
    return pino(
      options,
      pretty({ colorize: true, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' }),
    );
  }
  // Written synchronously: pino's default asynchronous stdout can reorder lines on a pipe that is full for a moment
  // (EAGAIN, then a retry), and a line logged just before exit may come after the last one or be lost. Cache hits
  // of the fast path log nothing, so the write per line costs the hot path nothing.
  return pino(options, pino.destination({ dest: 1, sync: true }));
}
