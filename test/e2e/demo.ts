// A demo gateway as `npm start` runs it (no UPSTREAM_URL, no Redis), on a free loopback port.
import { type Server, startChild } from '../../bench/lib.ts';

export type { Server };

export const startDemo = (env: Record<string, string> = {}): Promise<Server> =>
  startChild(['src/main.ts'], { PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', LOG_LEVEL: 'silent', ...env });
