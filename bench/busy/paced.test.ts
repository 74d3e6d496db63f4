// The paced reads of bench:busy are open loop: a read is timed from when it fell due, so a stall of the server shows in
// every read that fell due during it, not only in the one that was in flight (as with a load generator that sends the
// next read when the last one ends, which hides a stall behind its own slowness).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openPool, pacedReads } from './paced.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A server whose `stallAt`-th read (from 1) is answered `stallMs` late; every other read at once. */
async function serve(stallAt: number, stallMs: number): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    const late = req.url === '/read' && ++n === stallAt;
    setTimeout(() => res.end('{}'), late ? stallMs : 0);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('pacedReads', () => {
  it('makes every read, and times each one from when it fell due', async () => {
    // 200 reads a second for 1 s over one connection; the 20th read (due at 95 ms) is held 300 ms.
    const origin = await serve(20, 300);
    const pool = await openPool(origin, 1, '/open');
    const p = await pacedReads(pool, ['/read'], 200, 1);
    await pool.close();
    expect(p.times).toHaveLength(200);
    expect(p.non2xx + p.failed).toBe(0);
    expect(p.dueMs).toHaveLength(200);
    // The held read itself, and the ~60 due during its 300 ms that waited for the one connection: the later one fell
    // due, the less it waited. A generator that timed from sending would see one slow read. Only lower bounds: a
    // shared machine's own stalls make reads later (CI once held this process ~300 ms near the phase's end), never
    // earlier, so the test stays about the held read whatever else the machine does.
    const held = p.dueMs.findIndex((d) => Math.abs(d - 95) < 0.5);
    expect(held).toBeGreaterThanOrEqual(0);
    expect(p.times[held]!).toBeGreaterThanOrEqual(290);
    // The connection is free no sooner than 95 + 300 ms: a read due at d in between ends no sooner than that.
    const behind = p.dueMs.flatMap((d, i) => (d > 100 && d < 380 ? [{ d, t: p.times[i]! }] : []));
    expect(behind.length).toBeGreaterThanOrEqual(50);
    for (const { d, t } of behind) expect(t).toBeGreaterThanOrEqual(395 - d - 5);
    // All 200 ended (above); the bound only tells a hang from a drained backlog.
    expect(p.tookMs).toBeLessThan(1000 + 300 + 3000);
  });

  it("counts a block of the load generator's own loop in the reads that fell due during it", async () => {
    const origin = await serve(0, 0);
    const pool = await openPool(origin, 4, '/open');
    // This process's loop is held 200 ms from 300 ms on: the ~40 reads due meanwhile go out late, and are as late.
    const t0 = performance.now();
    setTimeout(() => {
      while (performance.now() - t0 < 500);
    }, 300);
    const p = await pacedReads(pool, ['/read'], 200, 1);
    await pool.close();
    expect(p.times).toHaveLength(200);
    expect(p.times.filter((t) => t > 100).length).toBeGreaterThanOrEqual(15);
    expect(p.genLagMs).toBeGreaterThanOrEqual(150);
  });

  it('sends at the rate asked, not faster', async () => {
    const origin = await serve(0, 0);
    const pool = await openPool(origin, 4, '/open');
    const t0 = performance.now();
    const p = await pacedReads(pool, ['/read'], 100, 0.5);
    const took = performance.now() - t0;
    await pool.close();
    expect(p.times).toHaveLength(50);
    // The 50th read falls due at 490 ms.
    expect(took).toBeGreaterThanOrEqual(480);
  });
});
