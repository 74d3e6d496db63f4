// A graceful close waits for requests in flight only: a connection on which nothing was asked never holds it.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { Agent, fetch } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gracefulClose } from './shutdown.ts';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

/** A server whose `/hang` never answers, and whose other paths answer at once, with its graceful close. */
async function serve(): Promise<{
  url: string;
  server: Server;
  close: (graceMs: number) => Promise<void>;
  /** Resolves once the server has read a request for `path` (a fixed wait raced the request on a loaded machine). */
  received: (path: string) => Promise<void>;
}> {
  const server = createServer((req, res) => {
    if (req.url === '/slow') setTimeout(() => res.end('done'), 300);
    else if (req.url !== '/hang') res.end('ok');
  });
  const received = (path: string) =>
    new Promise<void>((resolve) => {
      const seen = (req: { url?: string }) => {
        if (req.url !== path) return;
        server.off('request', seen);
        resolve();
      };
      server.on('request', seen);
    });
  servers.push(server);
  const close = gracefulClose(server);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, close, received };
}

/** Closes with a grace of 20 s, and says whether it had to force the connections left (it never should here). */
async function closesWithoutForce(s: { server: Server; close: (graceMs: number) => Promise<void> }) {
  const forced = vi.spyOn(s.server, 'closeAllConnections');
  await s.close(20_000);
  return forced.mock.calls.length === 0;
}

describe('gracefulClose', () => {
  it('closes at once after a fetch client (undici) abandoned a request on a kept-alive connection', async () => {
    const s = await serve();
    // A client that keeps idle connections as long as the gateway says it may (65 s), as browsers and proxies do;
    // Node's default fetch lets its own go after 4 s, which only shortened the wait.
    const client = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
    try {
      // One answered request leaves a kept-alive connection in the pool; abandoning the next one makes the client
      // open another connection, on which it sends nothing. Before the fix that one held the close for the grace.
      expect(await (await fetch(`${s.url}/a`, { dispatcher: client })).text()).toBe('ok');
      const gaveUp = await fetch(`${s.url}/hang`, {
        dispatcher: client,
        signal: AbortSignal.timeout(200),
      }).catch((e: Error) => e);
      expect(gaveUp).toBeInstanceOf(Error);
      await new Promise((r) => setTimeout(r, 100));
      expect(await closesWithoutForce(s)).toBe(true);
    } finally {
      await client.destroy();
    }
  });

  it('closes a connection that never sent a byte, and lets a request in flight finish first', async () => {
    const s = await serve();
    const silent: Socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise((r) => silent.once('connect', r));
    const gone = new Promise((r) => silent.once('close', r));
    const inFlight = s.received('/slow');
    const slow = fetch(`${s.url}/slow`);
    await inFlight;
    const closing = closesWithoutForce(s);
    await gone;
    // The request in flight is answered whole, then the server is closed.
    expect(await (await slow).text()).toBe('done');
    expect(await closing).toBe(true);
  });

  it('forces what is still busy when the grace is over', async () => {
    const s = await serve();
    // Closed only once the server has read the request: a connection that has sent nothing yet is closed at once,
    // without force, which is what the test above wants and not this one.
    const inFlight = s.received('/hang');
    const hung = fetch(`${s.url}/hang`).catch((e: Error) => e);
    await inFlight;
    const forced = vi.spyOn(s.server, 'closeAllConnections');
    await s.close(100);
    expect(forced).toHaveBeenCalled();
    expect(await hung).toBeInstanceOf(Error);
  });
});
