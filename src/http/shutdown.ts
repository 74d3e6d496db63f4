// Closing a server gracefully: requests in flight finish (up to a grace), every connection without one closes at once.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often, while closing, connections that have turned idle are looked for. */
const SWEEP_MS = 50;

/**
 * Starts following the server's connections (call it before it accepts any) and returns its close: stop accepting,
 * let requests in flight finish, close each connection as soon as it has none, and after `graceMs` drop what is left.
 *
 * Node's `closeIdleConnections` closes kept-alive connections between requests, but not one that has not sent a
 * byte yet: Node counts a connection as active from its start (so that its headers timeout covers a client that
 * connects and sends nothing). Clients open such connections ahead of need: Node's own fetch (undici) opens a new one
 * when a request on a kept-alive connection is abandoned, and browsers open spare ones. Each held the gateway's close
 * for the whole grace (10 s). Those are closed here with the idle ones: nothing was asked on them, so nothing is cut.
 */
export function gracefulClose(server: Server): (graceMs: number) => Promise<void> {
  const open = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  });
  return async (graceMs) => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const sweep = () => {
      server.closeIdleConnections();
      for (const s of open) if (s.bytesRead === 0) s.destroy();
    };
    sweep();
    const idle = setInterval(sweep, SWEEP_MS);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    try {
      await closed;
    } finally {
      clearInterval(idle);
      clearTimeout(force);
    }
  };
}
