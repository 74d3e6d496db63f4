// The gateway's logger (pino); quiet in tests unless LOG_LEVEL says otherwise.
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(
  level = process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info'),
): Logger {
  return pino({ level, base: undefined });
}
