// Faults injected into real processes (issue 10): the local WordPress crashing in the middle of a write burst, a
// slow WordPress, Redis restarting under load, the gateway killed mid-write, concurrent edits through two instances
// and the admin. Each case counts what was sent, acknowledged, refused, lost and left behind.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Server, startChild } from '../../bench/lib.ts';
import { privateRedis } from '../cache/redis-helper.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { type ImageServer, startImageServer } from '../support/image-server.ts';
import { postEvent } from './demo.ts';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const NS = '/wp-json/calendar/events/v1';
const up = inject('upstream');
const stateDir = dirname(up.siteDir);
const admin = { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` };
const editor = `Basic ${Buffer.from(`editor:${up.usersPassword}`).toString('base64')}`;
const tok = `fault${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGKILL to php -S and its workers at once (one process group: wp.sh starts it with setsid), as a crash. */
function crashPhp() {
  const pid = Number(readFileSync(join(stateDir, 'php.pid'), 'utf8'));
  process.kill(-pid, 'SIGKILL');
}

const wpSh = (cmd: string) =>
  promisify(execFile)('bash', [join(root, 'wordpress/wp.sh'), cmd], {
    env: { ...process.env, WP_STATE_DIR: stateDir },
  });

/** A gateway on the e2e site with its own Redis prefix. */
const startGateway = (env: Record<string, string> = {}): Promise<Server> =>
  startChild(['src/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: up.url,
    UPSTREAM_AUTH: up.auth,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `cgfault${process.pid}:`,
    LOG_LEVEL: process.env.FAULT_DEBUG ?? 'silent',
    POLL_INTERVAL_MS: '1000',
    ...env,
  });

/** The files below `dir` whose name starts with `stem`, relative to `dir`. */
function filesUnder(dir: string, stem: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => basename(f).startsWith(stem))
    .map((f) => f.replace(/\\/g, '/'));
}

/** Every record of `restBase` in WordPress whose title (or name) holds `needle`, in any status. */
async function wpFind(restBase: string, needle: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page++) {
    const terms = restBase === 'tags' || restBase === 'tribe_events_cat';
    // Attachments take no `status=any` (400: their statuses are inherit, private, trash): their default lists them.
    const scope = terms ? '&hide_empty=false' : restBase === 'media' ? '' : '&status=any';
    const res = await fetch(
      `${up.url}/wp/v2/${restBase}?search=${needle}&per_page=100&page=${page}&context=edit${scope}`,
      { headers: admin },
    );
    // A refusal would make every count below vacuous.
    expect(res.status, `${restBase}: ${await res.clone().text()}`).toBe(200);
    const rows = (await res.json()) as Array<Record<string, unknown>>;
    out.push(...rows);
    if (rows.length < 100) break;
  }
  return out;
}

async function wpDelete(restBase: string, id: unknown) {
  await fetch(`${up.url}/wp/v2/${restBase}/${id}?force=true`, { method: 'DELETE', headers: admin }).catch(
    () => undefined,
  );
}

const titleOf = (r: Record<string, unknown>) =>
  typeof r.title === 'object' ? String((r.title as { raw?: string }).raw) : String(r.name);

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
  it('keeps every acknowledged write and leaves nothing of a refused one', async () => {
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
    for (const until = Date.now() + 5_000; Date.now() < until; await sleep(200)) {
      total = (
        (await (await fetch(list, { headers: { Authorization: editor } })).json()) as { total: number }
      ).total;
      if (total === ok.length) break;
    }
    expect(total).toBe(ok.length);
  }, 120_000);
});

describe('the gateway killed in the middle of a write', () => {
  it('leaves a knowable state, and a retry under the same Idempotency-Key makes one event and one venue', async () => {
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
  }, 120_000);
});

describe('WordPress failing an upload on its side', () => {
  it('answers 502, not a refusal of the image, and leaves nothing of the write', async () => {
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
  }, 60_000);
});

describe('a slow WordPress', () => {
  it('bounds the calls WordPress runs, refuses the overflow with Retry-After, answers within the timeout, keeps cached reads fast', async () => {
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
  }, 180_000);
});

describe('a read that needs two WordPress calls', () => {
  it('makes both inside one deadline', async () => {
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
  }, 60_000);
});

describe('Redis restarting under mixed load', () => {
  it('fails no read, shows every write on both instances once Redis is back, and lets a new instance start', async () => {
    const redis = await privateRedis();
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'cgrestart:' };
    const started: Server[] = [];
    try {
      const [a, b] = [await startGateway(env), await startGateway(env)];
      started.push(a, b);
      const search = `${NS}/events?search=redis${tok}&start_date=2033-01-01&end_date=2033-12-31`;
      const totalOf = async (g: Server) =>
        ((await (await fetch(`${g.url}${search}`)).json()) as { total: number }).total;
      // Both have the empty answer cached before anything is written.
      expect([await totalOf(a), await totalOf(b)]).toEqual([0, 0]);

      const reads = { sent: 0, failed: 0 };
      // `whileDown`: writes started while Redis was away, the case this test is for.
      const writes = { sent: 0, acknowledged: 0, refused: 0, whileDown: 0 };
      let redisDown = false;
      let running = true;
      const reader = async (g: Server, n: number) => {
        while (running) {
          const url =
            n % 3 === 0
              ? `${g.url}${NS}/events?per_page=5&page=${1 + (reads.sent % 7)}`
              : `${g.url}${search}`;
          reads.sent++;
          const res = await fetch(url).catch(() => undefined);
          if (res?.status !== 200) {
            reads.failed++;
            // What failed, and (with FAULT_DEBUG=error) the gateway's log line of it.
            const body = res ? await res.clone().text() : 'no answer';
            const id = /"request_id":"([^"]+)"/.exec(body)?.[1];
            console.info(`read failed: ${url} ${res?.status} ${body}`);
            if (id)
              console.info(
                g
                  .output()
                  .split('\n')
                  .filter((l) => l.includes(id))
                  .join('\n'),
              );
          }
          await res?.arrayBuffer();
        }
      };
      const writer = async () => {
        while (running) {
          writes.sent++;
          if (redisDown) writes.whileDown++;
          const res = await postEvent(a.url, editor, {
            title: `Restart redis${tok} ${writes.sent}`,
            start_date: '2033-04-04 10:00:00',
            end_date: '2033-04-04 11:00:00',
          });
          if (res.status === 201) writes.acknowledged++;
          else writes.refused++;
          await sleep(400);
        }
      };
      const load = Promise.all([reader(a, 0), reader(a, 1), reader(b, 2), reader(b, 3), writer()]);
      // Each phase lasts its time and at least two writes: on a loaded machine one write can take a second or more.
      const phase = async (ms: number, from: number) => {
        const until = Date.now() + ms;
        while (Date.now() < until || writes.sent < from + 2) await sleep(50);
      };
      await phase(1_500, 0);
      await redis.kill();
      redisDown = true;
      await phase(3_000, writes.sent);
      await redis.start();
      redisDown = false;
      await phase(1_500, writes.sent);
      running = false;
      await load;
      // Once Redis is back, both instances show every acknowledged write (within the 1 s poll).
      let totals: number[] = [];
      const t0 = Date.now();
      while (Date.now() - t0 < 10_000) {
        totals = [await totalOf(a), await totalOf(b)];
        if (totals.every((t) => t === writes.acknowledged)) break;
        await sleep(100);
      }
      console.info(
        `Redis restart: reads sent ${reads.sent}, failed ${reads.failed}; writes sent ${writes.sent}, ` +
          `acknowledged ${writes.acknowledged}, refused ${writes.refused}, started while Redis was down ` +
          `${writes.whileDown}; both instances current ` +
          `${Date.now() - t0} ms after the load`,
      );
      expect(reads.failed).toBe(0);
      expect(writes.refused).toBe(0);
      expect(writes.acknowledged).toBeGreaterThanOrEqual(6);
      expect(writes.whileDown).toBeGreaterThanOrEqual(2);
      expect(totals).toEqual([writes.acknowledged, writes.acknowledged]);
      // A third instance starts against the restarted Redis (no snapshot lock left waiting).
      const t1 = Date.now();
      const c = await startGateway(env);
      started.push(c);
      console.info(`Redis restart: a new instance ready in ${Date.now() - t1} ms`);
      expect(await totalOf(c)).toBe(writes.acknowledged);
    } finally {
      await Promise.all(started.map((g) => g.stop()));
      await redis.dispose();
    }
  }, 120_000);
});

describe('concurrent edits of one event', () => {
  it('through two instances and the WordPress admin: WordPress decides, and every instance converges to it', async () => {
    const env = { REDIS_PREFIX: `cgedits${process.pid}:` };
    const [a, b] = [await startGateway(env), await startGateway(env)];
    gateways.push(a, b);
    const write = (g: Server, method: string, path: string, body: unknown) =>
      fetch(`${g.url}${NS}${path}`, {
        method,
        headers: { Authorization: editor, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await write(a, 'POST', '/events', {
      title: `Edited ${tok} 0`,
      start_date: '2034-05-05 10:00:00',
      end_date: '2034-05-05 12:00:00',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // Both instances have the event cached before the edits.
    for (const g of [a, b]) expect((await fetch(`${g.url}${NS}/events/${id}`)).status).toBe(200);
    const statuses: number[] = [];
    const failures: string[] = [];
    const rounds = 6;
    await Promise.all(
      Array.from({ length: rounds }, async (_, i) => {
        const hour = String(10 + i).padStart(2, '0');
        const [x, y, direct] = await Promise.all([
          write(a, 'PATCH', `/events/${id}`, {
            title: `Edited ${tok} a${i}`,
            start_date: `2034-05-05 ${hour}:00:00`,
          }),
          write(b, 'PATCH', `/events/${id}`, { title: `Edited ${tok} b${i}` }),
          // The admin saves the post as the block editor does, through wp/v2.
          fetch(`${up.url}/wp/v2/tribe_events/${id}`, {
            method: 'POST',
            headers: { ...admin, 'Content-Type': 'application/json' },
            body: JSON.stringify({ title: `Edited ${tok} w${i}` }),
          }),
        ]);
        statuses.push(x.status, y.status, direct.status);
        for (const r of [x, y, direct]) if (r.status !== 200) failures.push(`${r.status} ${await r.text()}`);
      }),
    );
    expect(
      statuses.every((s) => s === 200),
      `statuses: ${statuses.join(' ')}; ${failures.join('; ')}`,
    ).toBe(true);
    // WordPress's state after the last write it applied…
    const wp = (await (
      await fetch(`${up.url}/wp/v2/tribe_events/${id}?context=edit`, { headers: admin })
    ).json()) as { title: { raw: string }; meta: Record<string, unknown> };
    const title = wp.title.raw;
    const start = String(wp.meta._EventStartDate);
    // …is what both instances answer, single and in lists, within the 1 s poll.
    const t0 = Date.now();
    let seen: string[] = [];
    while (Date.now() - t0 < 10_000) {
      seen = [];
      for (const g of [a, b]) {
        const one = (await (await fetch(`${g.url}${NS}/events/${id}`)).json()) as {
          title: string;
          start_date: string;
        };
        const list = (await (
          await fetch(`${g.url}${NS}/events?search=${tok}&start_date=2034-01-01&end_date=2034-12-31`)
        ).json()) as { events: Array<{ id: number; title: string; start_date: string }> };
        const row = list.events.find((e) => e.id === id);
        seen.push(`${one.title}|${one.start_date}`, `${row?.title}|${row?.start_date}`);
      }
      if (seen.every((x) => x === `${title}|${start}`)) break;
      await sleep(100);
    }
    console.info(
      `concurrent edits: ${statuses.length} writes, all 200; instances agree with WordPress after ${Date.now() - t0} ms`,
    );
    expect(seen).toEqual(Array(4).fill(`${title}|${start}`));
  }, 120_000);
});
