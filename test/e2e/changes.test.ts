// The changes feed with real processes on a real Redis and the real WordPress: two gateways share one log (order,
// cursors read on either, a long poll on one woken by a write through the other), a restart keeps every cursor, what
// was changed or deleted in WordPress while no gateway ran is logged after the next start, and a cursor older than
// the retention answers 410. A save that polls read half done (WordPress writes a post's row before its meta) is
// logged once.
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Server, startChild } from '../../bench/lib.ts';
import { guard } from '../slack.ts';
import { postEvent } from './demo.ts';

const up = inject('upstream');
const prefix = `cgchanges${process.pid}${Math.random().toString(36).slice(2, 6)}:`;
const admin = `Basic ${Buffer.from(up.auth).toString('base64')}`;
const NS = '/wp-json/calendar/events/v1';
const running: Server[] = [];
const tok = Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 6);

const start = async (env: Record<string, string> = {}): Promise<Server> => {
  const s = await startChild(['src/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: up.url,
    UPSTREAM_AUTH: up.auth,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    POLL_INTERVAL_MS: '1000',
    ...env,
  });
  running.push(s);
  return s;
};
const stop = async (s: Server) => {
  await s.stop();
  running.splice(running.indexOf(s), 1);
};

interface Item {
  kind: string;
  id: number;
  action: string;
}
interface FeedBody {
  items: Item[];
  next: string;
  has_more: boolean;
}

/**
 * A page of the feed, read as a client reads it: a 503 with Retry-After (the shared Redis late: at `npm test`'s load a
 * command can pass its 500 ms, and CI of 2026-12-02 met it, then as a 500) is asked again after it, for a while.
 */
async function page(base: string, query: string): Promise<{ status: number; body: FeedBody }> {
  const end = Date.now() + guard(10_000);
  for (;;) {
    const res = await fetch(`${base}${NS}/changes?${query}`);
    const retry = Number(res.headers.get('retry-after'));
    if (res.status !== 503 || !retry || Date.now() > end)
      return { status: res.status, body: (await res.json()) as FeedBody };
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, retry * 1000));
  }
}

/** Everything after `since` now (an initial sync for 0). */
async function drain(base: string, since: string) {
  const items: Item[] = [];
  let cursor = since;
  for (;;) {
    const { status, body } = await page(base, `since=${cursor}&limit=100`);
    expect(status, JSON.stringify(body)).toBe(200);
    items.push(...body.items);
    cursor = body.next;
    if (!body.has_more) return { items, next: cursor };
  }
}

/** Drains until `ok` holds (WordPress's changes reach the log by polls), for up to `ms`. */
async function drainUntil(base: string, since: string, ok: (items: Item[]) => boolean, ms = guard(20_000)) {
  const end = Date.now() + ms;
  for (;;) {
    const got = await drain(base, since);
    if (ok(got.items) || Date.now() > end) return got;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const of = (items: Item[], ids: number[]) =>
  items.filter((x) => x.kind === 'event' && ids.includes(x.id)).map((x) => `${x.id}:${x.action}`);

const created: number[] = [];
async function createEvent(base: string, title: string): Promise<number> {
  const res = await postEvent(base, admin, {
    title: `${title} ${tok}`,
    start_date: '2035-03-03 10:00:00',
    end_date: '2035-03-03 11:00:00',
  });
  const body = (await res.json()) as { id: number };
  expect(res.status, JSON.stringify(body)).toBe(201);
  created.push(body.id);
  return body.id;
}
const write = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { Authorization: admin, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

let a: Server;
let b: Server;
beforeAll(async () => {
  [a, b] = await Promise.all([start(), start()]);
});
afterAll(async () => {
  for (const s of [...running]) await s.stop();
  for (const id of created)
    await write(up.url, 'DELETE', `/wp/v2/tribe_events/${id}?force=true`).catch(() => {});
  const { Redis } = await import('ioredis');
  const r = new Redis('redis://127.0.0.1:6379');
  const keys = [...(await r.keys(`${prefix}*`)), ...(await r.keys(`{${prefix}*`))];
  if (keys.length) await r.del(...keys);
  r.disconnect();
});

describe('the changes feed across gateways, restarts and downtime', () => {
  let cursor: string;
  beforeAll(async () => {
    cursor = (await drain(a.url, '0')).next;
  });

  // The long poll below reads on from the cursor this test leaves.
  it('logs writes through either gateway once, in commit order, read on from either', async () => {
    cursor = (await drain(a.url, '0')).next;
    const e1 = await createEvent(a.url, 'one');
    expect((await write(b.url, 'POST', `${NS}/events/${e1}`, { title: `one bis ${tok}` })).status).toBe(200);
    const e2 = await createEvent(b.url, 'two');
    expect((await write(a.url, 'DELETE', `${NS}/events/${e1}`)).status).toBe(200);
    const want = [`${e1}:created`, `${e1}:updated`, `${e2}:created`, `${e1}:deleted`];
    expect(of((await drain(b.url, cursor)).items, [e1, e2])).toEqual(want);
    // A page read on one gateway, the next on the other: the same log.
    const first = await page(a.url, `since=${cursor}&limit=2`);
    const rest = await drain(b.url, first.body.next);
    expect(of([...first.body.items, ...rest.items], [e1, e2])).toEqual(want);
    // Each change once, though the other gateway's poll also read it from WordPress.
    await new Promise((r) => setTimeout(r, 2500));
    expect(of((await drain(a.url, cursor)).items, [e1, e2])).toEqual(want);
    cursor = (await drain(a.url, cursor)).next;
  });

  it('logs a write once though both gateways polled its save half done, and reads it whole', async () => {
    // WordPress writes the event's row, then waits 2.5 s before its meta (its dates): both gateways poll every second.
    const mu = join(up.siteDir, 'wp-content/mu-plugins/slow-save.php');
    copyFileSync(new URL('../../wordpress/php/slow-save.php', import.meta.url), mu);
    try {
      const since = (await drain(a.url, cursor)).next;
      const e = await createEvent(a.url, 'slow [slow-save 2500]');
      // A's own polls and b's read it half saved; each read's settle (3 s after it) is over by then.
      await new Promise((r) => setTimeout(r, guard(4000)));
      expect(of((await drain(b.url, since)).items, [e])).toEqual([`${e}:created`]);
      for (const s of [a, b]) {
        const res = await fetch(`${s.url}${NS}/events/${e}`);
        expect(((await res.json()) as { start_date: string }).start_date).toBe('2035-03-03 10:00:00');
      }
      cursor = (await drain(a.url, since)).next;
    } finally {
      rmSync(mu, { force: true });
    }
  });

  it('wakes a long poll on one gateway with a write through the other', async () => {
    const waiting = page(a.url, `since=${cursor}&feed=longpoll&timeout=30`);
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    const e3 = await createEvent(b.url, 'three');
    const { body } = await waiting;
    expect(of(body.items, [e3])).toEqual([`${e3}:created`]);
    expect(Date.now() - t0).toBeLessThan(guard(5000));
    cursor = body.next;
  });

  it('keeps every cursor across a restart, and resumes an event stream after Last-Event-ID', async () => {
    await stop(b);
    const e4 = await createEvent(a.url, 'four');
    b = await start();
    const ac = new AbortController();
    const res = await fetch(`${b.url}${NS}/changes`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': cursor },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const timer = setTimeout(() => ac.abort(), guard(15_000));
    while (!text.includes(`"id":${e4}`)) {
      const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
      if (done) break;
      text += value;
    }
    clearTimeout(timer);
    ac.abort();
    const items = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as Item);
    expect(of(items, [e4])).toEqual([`${e4}:created`]);
    cursor = (await drain(b.url, cursor)).next;
  });

  it('logs what was changed and deleted in WordPress while no gateway ran, after the next start', async () => {
    const kept = await createEvent(a.url, 'kept');
    const gone = await createEvent(a.url, 'gone');
    cursor = (await drain(a.url, cursor)).next;
    await stop(a);
    await stop(b);
    // WordPress's modified date has one-second resolution, and a title edit in the same second as the save before it
    // reads as the same version (docs/changes.md): the editor comes a second later.
    await new Promise((r) => setTimeout(r, 1100));
    // An editor in wp-admin meanwhile: an edit, a hard delete, and a new venue.
    expect(
      (await write(up.url, 'POST', `/wp/v2/tribe_events/${kept}`, { title: `kept bis ${tok}` })).status,
    ).toBe(200);
    expect((await write(up.url, 'DELETE', `/wp/v2/tribe_events/${gone}?force=true`)).status).toBe(200);
    const venue = (await (
      await write(up.url, 'POST', '/wp/v2/tribe_venue', { title: `Hall ${tok}`, status: 'publish' })
    ).json()) as { id: number };
    a = await start();
    const got = await drainUntil(
      a.url,
      cursor,
      (items) =>
        of(items, [kept, gone]).length === 2 && items.some((x) => x.kind === 'venue' && x.id === venue.id),
    );
    expect(of(got.items, [kept, gone]).sort()).toEqual([`${gone}:deleted`, `${kept}:updated`].sort());
    expect(got.items.filter((x) => x.kind === 'venue' && x.id === venue.id).map((x) => x.action)).toEqual([
      'created',
    ]);
    await write(up.url, 'DELETE', `/wp/v2/tribe_venue/${venue.id}?force=true`);
  });

  it('answers 410, saying how to resync, for a cursor older than the retention', async () => {
    // A deployment of its own that keeps changes for 1.7 s.
    const c = await start({ REDIS_PREFIX: `${prefix}short:`, CHANGES_RETENTION_DAYS: '0.00002' });
    const old = (await drain(c.url, '0')).next;
    await createEvent(c.url, 'old');
    await new Promise((r) => setTimeout(r, 2500));
    await createEvent(c.url, 'new');
    const { status, body } = await page(c.url, `since=${old}`);
    expect(status).toBe(410);
    expect(body).toMatchObject({ code: 'changes_cursor_expired', data: { status: 410, resync: 'since=0' } });
    await stop(c);
  });
});
