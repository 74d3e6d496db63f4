// Faults injected into real processes (issue 10): the local WordPress crashing in the middle of a write burst, a
// slow WordPress, the gateway killed mid-write (Redis restarting and concurrent edits: faults-redis.test.ts). Each
// case counts what was sent, acknowledged, refused, lost and left behind.
import { execFile } from 'node:child_process';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../bench/lib.ts';
import { guard } from '../slack.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { type ImageServer, startImageServer } from '../support/image-server.ts';
import { postEvent } from './demo.ts';
import {
  crashPhp,
  editor,
  filesUnder,
  NS,
  root,
  sleep,
  startGateway,
  titleOf,
  tok,
  up,
  wpDelete,
  wpFind,
  wpSh,
} from './fault-kit.ts';

let images: ImageServer;
const gateways: Server[] = [];

beforeAll(async () => {
  images = await startImageServer();
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await images?.close();
  // WordPress must be serving again whatever a case left (a failed case may have left php -S down).
  await wpSh('start-php').catch(() => undefined);
  for (const rb of ['tribe_events', 'tribe_venue', 'tribe_organizer', 'media', 'tags']) {
    for (const r of await wpFind(rb, tok)) await wpDelete(rb, r.id);
  }
});

describe('WordPress crashing in the middle of a write burst', () => {
  it('keeps every acknowledged write and leaves nothing of a refused one', {
    timeout: guard(120_000),
  }, async () => {
    const g = await startGateway({ IMAGE_ALLOW_PRIVATE_HOSTS: 'true' });
    gateways.push(g);
    // One upload first: on a fresh site, concurrent first uploads of a month race on creating its uploads folder
    // (WordPress's wp_mkdir_p), which refuses some of them with a 400 that has nothing to do with the crash.
    const warm = await postEvent(g.url, editor, {
      title: `Warmup ${tok}`,
      // Outside the window the list below counts.
      start_date: '2031-12-01 19:00:00',
      end_date: '2031-12-01 21:00:00',
      image: `${images.url}/img/2x2/warmimg-${tok}.png`,
    });
    expect(warm.status).toBe(201);
    const n = 24;
    let acked = 0;
    const sent = Array.from({ length: n }, async (_, i) => {
      // Spread over a second: the crash finds writes at every step, and later ones find WordPress gone.
      await sleep(i * 50);
      const res = await postEvent(g.url, editor, {
        title: `Burst ${tok} ${i}`,
        start_date: '2032-02-02 19:00:00',
        end_date: '2032-02-02 21:00:00',
        status: 'publish',
        venue: { venue: `Burst venue ${tok} ${i}`, city: 'Lyon' },
        organizer: [{ organizer: `Burst organizer ${tok} ${i}` }],
        tags: [`bursttag-${tok}-${i}`],
        image: `${images.url}/img/2x2/burstimg-${tok}-${i}.png`,
      });
      const body = (await res.json()) as {
        id?: number;
        code?: string;
        message?: string;
        data?: { status?: number };
      };
      // The crash comes once a few writes are through, while the rest are still on their way.
      if (res.ok && ++acked === 2) crashPhp();
      return { i, status: res.status, body };
    });
    const results = await Promise.all(sent);
    if (process.env.FAULT_DEBUG) console.info(g.output());
    await wpSh('start-php');
    const back = Date.now();

    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    console.info(`crash burst: sent ${n}, acknowledged ${ok.length}, refused ${refused.length}`);
    expect(ok.length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect([502, 503, 504], JSON.stringify(r.body)).toContain(r.status);
      expect(r.body).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
        data: { status: r.status },
      });
    }

    // What a refused write created is removed once WordPress is back (the gateway retries its undo steps).
    // The sweep takes failed writes up every 5 s, four at a time, and waits for creates that may still land (the
    // upstream timeout plus 5 s): about 19 s on a quiet machine, more under load.
    const deadline = Date.now() + 60_000;
    let report: Record<string, number> = {};
    for (;;) {
      const events = await wpFind('tribe_events', tok);
      const titles = new Set(events.map(titleOf));
      const lost = ok.filter((r) => !events.some((e) => e.id === r.body.id)).length;
      const phantom = refused.filter((r) => titles.has(`Burst ${tok} ${r.i}`)).length;
      const kept = new Set(ok.map((r) => r.i));
      const orphan = (rows: Array<Record<string, unknown>>) => {
        const left = rows.filter(
          (row) => !kept.has(Number(/ (\d+)$/.exec(titleOf(row).replace(/-/g, ' '))?.[1])),
        );
        if (left.length && process.env.FAULT_DEBUG)
          console.info(left.map((r) => [r.id, titleOf(r), r.modified_gmt]));
        return left.length;
      };
      report = {
        lost,
        phantom,
        venues: orphan(await wpFind('tribe_venue', tok)),
        organizers: orphan(await wpFind('tribe_organizer', tok)),
        tags: orphan(await wpFind('tags', `bursttag-${tok}`)),
        media: orphan(await wpFind('media', `burstimg-${tok}`)),
      };
      if (Object.values(report).every((v) => v === 0) || Date.now() > deadline) break;
      await sleep(500);
    }
    console.info(`crash burst, ${Date.now() - back} ms after WordPress came back: ${JSON.stringify(report)}`);
    expect(report).toEqual({ lost: 0, phantom: 0, venues: 0, organizers: 0, tags: 0, media: 0 });

    // Files too: an upload the crash cut before its attachment row named it is left in uploads until the companion's
    // sweep (hourly, for notes 15 minutes old; run here at once). Then every file is an attachment's.
    const swept = await promisify(execFile)('php', [
      join(root, 'wordpress/php/sweep-uploads.php'),
      up.siteDir,
      '0',
    ]);
    const attached = (await wpFind('media', `burstimg-${tok}`)).map((m) =>
      String((m.media_details as { file?: string } | undefined)?.file ?? '').replace(/\.[^.]+$/, ''),
    );
    const files = filesUnder(join(up.siteDir, 'wp-content/uploads'), `burstimg-${tok}`);
    console.info(`crash burst uploads: ${files.length} files left, the sweep removed ${swept.stdout.trim()}`);
    expect(files.filter((f) => !attached.some((a) => a !== '' && f.startsWith(a)))).toEqual([]);

    // The gateway's list agrees with WordPress after recovery.
    const list = `${g.url}${NS}/events?search=${tok}&start_date=2032-01-01&end_date=2032-12-31&status=publish`;
    let total = -1;
    for (const until = Date.now() + guard(5_000); Date.now() < until; await sleep(200)) {
      total = (
        (await (await fetch(list, { headers: { Authorization: editor } })).json()) as { total: number }
      ).total;
      if (total === ok.length) break;
    }
    expect(total).toBe(ok.length);
  });
});

describe('the gateway killed in the middle of a write', () => {
  it('leaves a knowable state, and a retry under the same Idempotency-Key makes one event and one venue', {
    timeout: guard(120_000),
  }, async () => {
    const proxy = await startFaultProxy(up.url.replace(/\/wp-json$/, ''));
    const env = { UPSTREAM_URL: `${proxy.url}/wp-json`, REDIS_PREFIX: `cgkill${process.pid}:` };
    try {
      const first = await startGateway(env);
      const held = proxy.hold(
        (req) => req.method === 'POST' && /\/wp\/v2\/tribe_events(\?|$)/.test(req.url ?? ''),
      );
      const body = {
        title: `Killed ${tok}`,
        start_date: '2032-03-03 19:00:00',
        end_date: '2032-03-03 21:00:00',
        venue: { venue: `Killedvenue ${tok}`, city: 'Nantes' },
      };
      const post = (g: Server) => postEvent(g.url, editor, body, { 'Idempotency-Key': `kill-${tok}` });
      const answer = post(first).catch((err: unknown) => err);
      await held.arrived;
      // The nested venue is made and the event's call is on its way: the process dies now.
      expect(await wpFind('tribe_venue', `Killedvenue ${tok}`)).toHaveLength(1);
      const exited = new Promise((r) => first.child.once('exit', r));
      first.child.kill('SIGKILL');
      await exited;
      held.cut();
      expect(await answer).toBeInstanceOf(Error);

      const second = await startGateway(env);
      gateways.push(second);
      // The retry is told the first write is still settling (409, Retry-After) until its key is free, then runs once.
      const t0 = Date.now();
      let res = await post(second);
      const waits: number[] = [];
      while (res.status === 409 && Date.now() - t0 < 60_000) {
        expect(res.headers.get('retry-after')).toBe('1');
        waits.push(Date.now() - t0);
        await sleep(1_000);
        res = await post(second);
      }
      console.info(
        `killed mid-write: retry answered ${res.status} after ${Date.now() - t0} ms (${waits.length} × 409)`,
      );
      expect(res.status).toBe(201);
      const created = (await res.json()) as { id: number; venue: { id: number } };
      const replay = await post(second);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { id: number }).id).toBe(created.id);
      // One event and one venue in WordPress, the event linked to it: the dead write's venue was removed or reused.
      const events = await wpFind('tribe_events', `Killed ${tok}`);
      expect(events.map((e) => e.id)).toEqual([created.id]);
      const venues = await wpFind('tribe_venue', `Killedvenue ${tok}`);
      expect(venues.map((v) => v.id)).toEqual([created.venue.id]);
    } finally {
      await proxy.close();
    }
  });
});

describe('WordPress failing an upload on its side', () => {
  it('answers 502, not a refusal of the image, and leaves nothing of the write', {
    timeout: guard(60_000),
  }, async () => {
    // wp_mkdir_p losing on a fresh month's folder: here no folder can be made at all, since `uploads` is a file.
    const uploads = join(up.siteDir, 'wp-content/uploads');
    const aside = `${uploads}.fault-${tok}`;
    const gw = await startGateway({
      REDIS_PREFIX: `cgupload${process.pid}:`,
      IMAGE_ALLOW_PRIVATE_HOSTS: 'true',
    });
    gateways.push(gw);
    const had = existsSync(uploads);
    if (had) renameSync(uploads, aside);
    try {
      writeFileSync(uploads, 'not a folder');
      const res = await postEvent(gw.url, editor, {
        title: `Uploadfail ${tok}`,
        start_date: '2032-04-04 19:00:00',
        end_date: '2032-04-04 21:00:00',
        venue: { venue: `Uploadfailvenue ${tok}` },
        image: `${images.url}/img/2x2/uploadfail-${tok}.png`,
      });
      const body = (await res.json()) as { code: string; message: string; data: Record<string, unknown> };
      expect(res.status, JSON.stringify(body)).toBe(502);
      expect(body).toEqual({
        code: 'upstream_error',
        message: 'WordPress failed with HTTP 500.',
        data: { status: 502, upstream_status: 500, upstream_code: 'rest_upload_sideload_error' },
      });
    } finally {
      rmSync(uploads, { force: true });
      if (had) renameSync(aside, uploads);
    }
    expect(await wpFind('tribe_events', `Uploadfail ${tok}`)).toEqual([]);
    expect(await wpFind('tribe_venue', `Uploadfailvenue ${tok}`)).toEqual([]);
    expect(await wpFind('media', `uploadfail-${tok}`)).toEqual([]);
  });
});

describe('a slow WordPress', () => {
  it('bounds the calls WordPress runs, refuses the overflow with Retry-After, answers within the timeout, keeps cached reads fast', {
    timeout: guard(180_000),
  }, async () => {
    const proxy = await startFaultProxy(up.url.replace(/\/wp-json$/, ''));
    // WordPress goes on with a call the gateway gave up on, as PHP does: the bound must hold on its side.
    proxy.keepsRunning = true;
    const timeoutMs = 3_000;
    try {
      const g = await startGateway({
        UPSTREAM_URL: `${proxy.url}/wp-json`,
        REDIS_PREFIX: `cgslow${process.pid}:`,
        UPSTREAM_TIMEOUT_MS: String(timeoutMs),
        UPSTREAM_CONCURRENCY: '4',
        UPSTREAM_QUEUE: '8',
        POLL_INTERVAL_MS: '60000',
      });
      gateways.push(g);
      const list = `${g.url}${NS}/events?per_page=50&start_date=2000-01-01`;
      const ids: number[] = [];
      for (const page of [1, 2]) {
        const res = await fetch(`${list}&page=${page}`);
        ids.push(...((await res.json()) as { events: Array<{ id: number }> }).events.map((e) => e.id));
      }
      expect(ids.length).toBeGreaterThanOrEqual(60);
      // Warm: a cached answer, and its speed with a healthy WordPress.
      await fetch(list);
      const timed = async (url: string) => {
        const t = performance.now();
        const res = await fetch(url);
        await res.arrayBuffer();
        return { status: res.status, ms: performance.now() - t, res };
      };
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const healthy: number[] = [];
      for (let i = 0; i < 20; i++) healthy.push((await timed(list)).ms);
      const before = median(healthy);

      for (const delayMs of [2_000, 10_000, 30_000]) {
        // The storm before has passed: WordPress has finished what it was running.
        for (let t = Date.now(); proxy.inFlight > 0 && Date.now() - t < 35_000; ) await sleep(200);
        proxy.delayMs = delayMs;
        proxy.maxInFlight = proxy.inFlight;
        // 20 cold single-event reads at once: 4 go upstream, 8 wait, the rest are refused at once.
        const cold = ids.splice(0, 20).map((id) => timed(`${g.url}${NS}/events/${id}`));
        await sleep(300);
        const cached: number[] = [];
        for (let i = 0; i < 20; i++) {
          const r = await timed(list);
          expect(r.status).toBe(200);
          cached.push(r.ms);
        }
        const answers = await Promise.all(cold);
        const count = (s: number) => answers.filter((a) => a.status === s).length;
        const slowest = Math.max(...answers.map((a) => a.ms));
        console.info(
          `slow WordPress ${delayMs} ms: 20 cold reads → 200 ×${count(200)}, 503 ×${count(503)}, 504 ×${count(504)}; ` +
            `upstream in flight at most ${proxy.maxInFlight}; slowest answer ${Math.round(slowest)} ms; ` +
            `cached read median ${median(cached).toFixed(1)} ms (healthy: ${before.toFixed(1)} ms)`,
        );
        expect(proxy.maxInFlight).toBeLessThanOrEqual(4);
        expect(count(503)).toBeGreaterThanOrEqual(8);
        for (const a of answers.filter((x) => x.status === 503)) {
          expect(a.res.headers.get('retry-after')).toBe('1');
        }
        if (delayMs < timeoutMs) expect(count(200)).toBeGreaterThan(0);
        else expect(count(504)).toBeGreaterThan(0);
        expect(count(200) + count(503) + count(504)).toBe(20);
        // One deadline: waiting for a slot and the call itself fit in the timeout together.
        expect(slowest).toBeLessThan(timeoutMs + 1_500);
        // Cached answers never wait for WordPress.
        expect(median(cached)).toBeLessThan(delayMs / 4);
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('a read that needs two WordPress calls', () => {
  it('makes both inside one deadline', { timeout: guard(60_000) }, async () => {
    const proxy = await startFaultProxy(up.url.replace(/\/wp-json$/, ''));
    try {
      const g = await startGateway({
        UPSTREAM_URL: `${proxy.url}/wp-json`,
        REDIS_PREFIX: `cgdeadline${process.pid}:`,
        UPSTREAM_TIMEOUT_MS: '2500',
        POLL_INTERVAL_MS: '60000',
      });
      gateways.push(g);
      const list = (await (await fetch(`${g.url}${NS}/events?per_page=1&start_date=2000-01-01`)).json()) as {
        events: Array<{ id: number }>;
      };
      const id = list.events[0]!.id;
      proxy.delayMs = 1_500;
      proxy.seen.length = 0;
      // A password on an event that has none: WordPress refuses it, and the event is read again without it.
      const t0 = performance.now();
      const res = await fetch(`${g.url}${NS}/events/${id}?password=not-its-password`);
      const ms = performance.now() - t0;
      const calls = proxy.seen.filter((c) => c.includes(`/tribe_events/${id}`));
      console.info(
        `two-call read with 1.5 s per call and a 2.5 s timeout: ${res.status} after ${Math.round(ms)} ms`,
      );
      expect(calls).toHaveLength(2);
      expect(res.status).toBe(504);
      expect(((await res.json()) as { code: string }).code).toBe('upstream_timeout');
      expect(ms).toBeLessThan(2_500 + 700);
    } finally {
      await proxy.close();
    }
  });
});
