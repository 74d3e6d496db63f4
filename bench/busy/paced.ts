// Reads at a steady rate (open loop): read i is due at start + i / rate, whatever became of the reads before it, and
// its time runs from when it was due to its body's last byte, so a read that waited in this process (a late timer, a
// busy loop, every connection taken) is counted as late as it was.
//
// autocannon's `overallRate` is a quota a second: each connection sends its share back to back as each second begins,
// then idles. At 2000 reads/s over 50 connections, every second opens with 50 reads in flight at once on the core the
// gateway shares with the load generator, and a read's time is mostly that burst's queue. A visitor's read meets a site
// that others read evenly; these reads arrive that way.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface PacedPhase {
  /** Each read's ms, from when it was due to its body's end. */
  times: number[];
  /** When each read of `times` was due, ms after the phase began. */
  dueMs: number[];
  non2xx: number;
  /** Reads that failed (connection errors), not in `times`. */
  failed: number;
  /** This process's own loop lag max over the phase (ms). */
  genLagMs: number;
  /** From the first read's due time to the last read's end (ms): above `seconds`, the rate was not held. */
  tookMs: number;
}

/**
 * A pool of `connections` keep-alive connections to `origin`, each already open (one read of `path` on each at once),
 * kept across phases as a CDN or a browser keeps its connections: a phase's reads do not pay for connecting.
 */
export async function openPool(origin: string, connections: number, path: string): Promise<Pool> {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const res = await pool.request({ path, method: 'GET' });
      await res.body.arrayBuffer();
    }),
  );
  return pool;
}

/**
 * Runs this process's reading code for `seconds` at `rate` against a server of its own, so that the first measured
 * phase does not time the load generator's compiling of it.
 */
export async function warmGenerator(rate: number, seconds: number, bytes: number): Promise<void> {
  const body = Buffer.alloc(bytes, 'x');
  const server = createServer((_req, res) => res.end(body));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pool = await openPool(origin, 50, '/');
  await pacedReads(pool, ['/'], rate, seconds);
  await pool.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

export async function pacedReads(
  pool: Pool,
  paths: readonly string[],
  rate: number,
  seconds: number,
): Promise<PacedPhase> {
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const total = Math.round(rate * seconds);
  const times: number[] = [];
  const dueMs: number[] = [];
  let non2xx = 0;
  let failed = 0;
  const start = performance.now() + 2;
  let sent = 0;
  let ended = 0;
  let lastEnd = start;
  const { promise: allDone, resolve } = Promise.withResolvers<void>();
  const one = async (i: number): Promise<void> => {
    const due = start + (i * 1000) / rate;
    try {
      const res = await pool.request({ path: paths[i % paths.length]!, method: 'GET' });
      await res.body.arrayBuffer();
      lastEnd = performance.now();
      times.push(lastEnd - due);
      dueMs.push(due - start);
      if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
    } catch {
      failed++;
    }
    if (++ended === total) resolve();
  };
  // Every millisecond (or as soon as the loop comes back), whatever has fallen due goes out.
  const tick = (): void => {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    while (sent < due) void one(sent++);
    if (sent < total) setTimeout(tick, 1);
  };
  setTimeout(tick, 2);
  await allDone;
  lag.disable();
  return { times, dueMs, non2xx, failed, genLagMs: lag.max / 1e6, tookMs: lastEnd - start };
}
