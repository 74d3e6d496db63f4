// A demo gateway as `npm start` runs it (no UPSTREAM_URL, no Redis), on a free loopback port.
import { type Server, startChild } from '../../bench/lib.ts';

export type { Server };

export const startDemo = (env: Record<string, string> = {}): Promise<Server> =>
  startChild(['src/main.ts'], { PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', LOG_LEVEL: 'silent', ...env });

/** POST /events on a gateway (`base`: its URL) as `authorization`, with a JSON body and any extra headers. */
export const postEvent = (
  base: string,
  authorization: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> =>
  fetch(`${base}/wp-json/calendar/events/v1/events`, {
    method: 'POST',
    headers: { Authorization: authorization, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
