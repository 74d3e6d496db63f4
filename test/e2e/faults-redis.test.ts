// Faults injected into real processes, second part (the first is faults.test.ts): Redis restarting under mixed load,
// and concurrent edits of one event through two instances and the WordPress admin.
import { afterAll, describe, expect, it } from 'vitest';
import type { Server } from '../../bench/lib.ts';
import { privateRedis } from '../cache/redis-helper.ts';
import { guard } from '../slack.ts';
import { postEvent } from './demo.ts';
import { admin, editor, NS, sleep, startGateway, tok, up, wpDelete, wpFind } from './fault-kit.ts';

const gateways: Server[] = [];

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  for (const rb of ['tribe_events', 'tribe_venue', 'tribe_organizer']) {
    for (const r of await wpFind(rb, tok)) await wpDelete(rb, r.id);
  }
});

describe('Redis restarting under mixed load', () => {
  it('fails no read, shows every write on both instances once Redis is back, and lets a new instance start', {
    timeout: guard(120_000),
  }, async () => {
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
  });
});

describe('concurrent edits of one event', () => {
  it('through two instances and the WordPress admin: WordPress decides, and every instance converges to it', {
    timeout: guard(120_000),
  }, async () => {
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
  });
});
