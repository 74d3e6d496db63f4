// An HTTP proxy in front of the local WordPress that injects faults: a delay on every call, or a call held until the
// test lets it through or cuts it. It counts the calls in flight (the gateway's upstream bound is measured here).
import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Held {
  /** Resolves when a matching call arrives (it then waits). */
  arrived: Promise<IncomingMessage>;
  /** Sends the held call on to WordPress. */
  release(): void;
  /** Cuts the held call's connection: WordPress never sees it. */
  cut(): void;
}

export interface FaultProxy {
  url: string;
  /** Milliseconds each call waits before it goes on to WordPress. */
  delayMs: number;
  /**
   * As PHP does: a call whose client has gone still runs (its delay, then WordPress), and counts as in flight until
   * WordPress has answered it. Off: a call ends when its client goes.
   */
  keepsRunning: boolean;
  inFlight: number;
  maxInFlight: number;
  /** Calls seen, as `METHOD /path`. */
  seen: string[];
  /** Holds the next call that `match` accepts. */
  hold(match: (req: IncomingMessage) => boolean): Held;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const holds: Array<{ match: (req: IncomingMessage) => boolean; take: (req: IncomingMessage) => void }> = [];
  const proxy: FaultProxy = {
    url: '',
    delayMs: 0,
    keepsRunning: false,
    inFlight: 0,
    maxInFlight: 0,
    seen: [],
    hold(match) {
      let take!: (req: IncomingMessage) => void;
      const arrived = new Promise<IncomingMessage>((r) => {
        take = r;
      });
      let go: (() => void) | undefined;
      let stop: (() => void) | undefined;
      const gate = new Promise<boolean>((r) => {
        go = () => r(true);
        stop = () => r(false);
      });
      holds.push({
        match,
        take: (req) => {
          (req as IncomingMessage & { gate?: Promise<boolean> }).gate = gate;
          take(req);
        },
      });
      return { arrived, release: () => go?.(), cut: () => stop?.() };
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server: Server = createServer(async (req, res) => {
    proxy.seen.push(`${req.method} ${req.url}`);
    // A call the gateway gave up on (its socket closed) may reach this process a few milliseconds after the call
    // that took its slot: count after such closes have arrived.
    await new Promise((r) => setTimeout(r, 25));
    proxy.inFlight++;
    if (process.env.FAULT_DEBUG) console.info(Date.now() % 100000, proxy.inFlight, req.method, req.url);
    proxy.maxInFlight = Math.max(proxy.maxInFlight, proxy.inFlight);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      proxy.inFlight--;
      if (process.env.FAULT_DEBUG) console.info(Date.now() % 100000, proxy.inFlight, 'closed', req.url);
    };
    const keepsRunning = proxy.keepsRunning;
    if (!keepsRunning) res.once('close', finish);
    const i = holds.findIndex((h) => h.match(req));
    if (i >= 0) {
      const [h] = holds.splice(i, 1);
      h!.take(req);
      if (!(await (req as IncomingMessage & { gate?: Promise<boolean> }).gate)) {
        req.socket.destroy();
        return;
      }
    }
    if (proxy.delayMs) await new Promise((r) => setTimeout(r, proxy.delayMs));
    if (res.destroyed && !keepsRunning) return;
    const out = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        answer.once('end', finish);
        answer.once('error', finish);
        if (res.destroyed) return void answer.resume();
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.once('error', () => {
      finish();
      res.destroy();
    });
    // A call whose client has gone was read whole before (no body, or one sent at once): send it as it was.
    if (req.destroyed) out.end();
    else req.pipe(out);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
