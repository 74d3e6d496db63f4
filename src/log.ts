// The gateway's logger (pino): JSON lines on stdout, pretty-printed (pino-pretty) when stdout is a terminal; quiet in
// tests unless LOG_LEVEL says otherwise. Start-up lines go through it too, so stdout has one format.
import pino from 'pino';
import pretty from 'pino-pretty';

export type Logger = pino.Logger;

export function createLogger(
  level = process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info'),
  opts: { pretty?: boolean } = {},
): Logger {
  const options = { level, base: undefined };
  if (opts.pretty ?? process.stdout.isTTY === true) {
    return pino(
      options,
      pretty({ colorize: true, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' }),
    );
  }
  return pino(options);
}
