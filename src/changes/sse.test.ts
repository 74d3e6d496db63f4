import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { Deps } from '../deps.ts';
import { MemoryChangeLog } from './memory-log.ts';
import { changesStream } from './sse.ts';
import { Waits } from './waits.ts';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

/** A gateway's Deps as far as the stream reads them: an anonymous caller, a change log of `n` public events. */
async function serve(n: number, o: { heartbeatMs?: number; waits?: number; pageSize?: number } = {}) {
  const log = new MemoryChangeLog({
    apiRoot: 'http://gw/wp-json/calendar/events/v1',
    taxonomy: { category: 'tribe_events_cat', tag: 'post_tag' },
    retentionMs: 86_400_000,
  });
  const head = await log.head();
  for (let i = 1; i <= n; i++)
    await log.observe({ kind: 'event', id: i, version: 'v', order: '2026-01-01 10:00:00', public: true });
  let reads = 0;
  const read = log.read.bind(log);
  log.read = (c, l) => {
    reads++;
    return read(c, l);
  };
  const deps = {
    changes: log,
    callers: { resolve: async () => null },
    site: { caps: {} },
    log: { warn() {}, error() {}, info() {} },
  } as unknown as Deps;
  const waits = new Waits(o.waits ?? 4);
  const app = express().use(
    '/changes',
    changesStream(deps, waits, {
      apiRoot: () => 'http://gw/wp-json/calendar/events/v1',
      language: 'en',
      heartbeatMs: o.heartbeatMs,
      pageSize: o.pageSize,
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  closers.push(() => server.close());
  closers.push(() => server.closeAllConnections());
  const { port } = server.address() as AddressInfo;
  // Reading from the log's start (as after a sync of nothing): every entry is sent.
  const since = Buffer.from(`${await log.epoch()}.${head}`).toString('base64url');
  return { port, since, waits, reads: () => reads, log };
}

/** Opens the stream; `paused` never reads the body (a slow reader). */
function open(port: number, since: string, paused = false) {
  return new Promise<{ status: number; text: () => string; close: () => void }>((resolve) => {
    const req = request(
      { port, host: '127.0.0.1', path: `/changes?since=${since}`, headers: { Accept: 'text/event-stream' } },
      (res) => {
        let text = '';
        if (paused) res.pause();
        else res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('error', () => {});
        resolve({ status: res.statusCode ?? 0, text: () => text, close: () => req.destroy() });
      },
    );
    req.on('error', () => {});
    req.end();
    closers.push(() => req.destroy());
  });
}

const until = async (ok: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return ok();
};

describe('the changes feed as server-sent events', () => {
  it('sends a heartbeat while nothing changes, then the next change', async () => {
    const s = await serve(1, { heartbeatMs: 150 });
    const c = await open(s.port, s.since);
    expect(c.status).toBe(200);
    expect(await until(() => c.text().includes('"id":1'))).toBe(true);
    expect(await until(() => c.text().includes(': heartbeat'))).toBe(true);
    await s.log.observe({ kind: 'event', id: 2, version: 'v', order: '2026-01-01 10:00:01', public: true });
    expect(await until(() => c.text().includes('"id":2'))).toBe(true);
  });

  it('holds at most CHANGES_WAITS_PER_CLIENT streams per address, and frees a slot when one closes', async () => {
    const s = await serve(0, { waits: 2 });
    const [a, b] = [await open(s.port, s.since), await open(s.port, s.since)];
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await open(s.port, s.since);
    expect(third.status).toBe(429);
    a.close();
    expect(await until(() => s.waits.open === 1)).toBe(true);
    expect((await open(s.port, s.since)).status).toBe(200);
  });

  it('reads no further than the socket takes from a reader that does not read', async () => {
    // 100,000 changes of about 150 bytes: 15 MB, more than the loopback socket's buffers take (a few MB).
    const s = await serve(100_000, { pageSize: 100 });
    const c = await open(s.port, s.since, true);
    expect(c.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    const stalled = s.reads();
    // Stalled: the server waits for the socket to drain, reading nothing more meanwhile.
    await new Promise((r) => setTimeout(r, 500));
    expect(s.reads()).toBe(stalled);
    // Two reads a page (the page, and a look past it): 2000 for everything.
    expect(stalled).toBeLessThan(1000);
  });
});
