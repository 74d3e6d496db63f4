// What a start runs once so that no request pays for it: V8 compiling code and patterns at their first use, Intl
// loading its data, modules read on first use. Each is one task of 8–26 ms cold (issue 33's start probe,
// `npm run bench:start`), and while a task runs the port answers nothing, /live and /ready included.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { warmParser } from './dates/parse.ts';
import { zoneWarmUps } from './dates/zones.ts';
import { warmBodyDecoders } from './http/warm-bodies.ts';
import type { Logger } from './log.ts';
import { afterWaiting } from './pace/turns.ts';
import { warmRenderer } from './render/ical.ts';

/** A zone with daylight saving time, for the warm-ups that do not need the site's. */
const ANY_ZONE = 'Europe/Paris';

/**
 * The warm-ups that need nothing of the site, before the port opens, when nobody can be waiting: the body decoders,
 * Intl's first zone (26 ms), the date parser's 47 token patterns (20 ms), the feed renderer (23 ms) and Node's fetch.
 */
export async function warmBeforeListening(log: Logger): Promise<void> {
  await warmFetch().catch((err: Error) => log.warn(`fetch warm-up failed: ${err.message}`));
  warmBodyDecoders();
  for (const step of zoneWarmUps(ANY_ZONE, new Date())) step();
  warmParser(ANY_ZONE, new Date());
  await warmForFeeds(ANY_ZONE, log);
}

/**
 * The same for the site's zone once WordPress has named it (cheap now: the code is compiled and Intl's data loaded),
 * each step in a turn of its own (`afterWaiting`).
 */
export async function warmForSite(zone: string, log: Logger): Promise<void> {
  for (const step of zoneWarmUps(zone, new Date())) {
    step();
    await afterWaiting();
  }
  warmParser(zone, new Date());
  await afterWaiting();
  await warmForFeeds(zone, log);
  await afterWaiting();
}

/** A warm-up never stops a start: a feed's own request says what is wrong. */
const warmForFeeds = (zone: string, log: Logger) =>
  warmRenderer(zone).catch((err: Error) => log.warn(`Feed renderer warm-up failed: ${err.message}`));

/**
 * One GET through Node's fetch to a server of its own on loopback, closed after. A process's first fetch runs undici's
 * code for the first time and makes its first connection: 30–43 ms against 4–6 for the next new connection (a script
 * timing both), and it was the REST root's read, the longest task of a start after the port opened (12 ms).
 */
export async function warmFetch(): Promise<void> {
  const server = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { Accept: 'application/json' } });
    await res.text();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
