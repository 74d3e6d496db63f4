// The changes feed over the mock and the real WordPress: what the gateway's own writes, proxied wp/v2 writes and
// edits made in WordPress put in the change log, and what `/changes` answers each caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeAt, createCalendarClient } from '../../packages/client/src/index.ts';
import type { LoggedChange } from '../../src/changes/types.ts';
import type { Gateway } from '../../src/gateway.ts';
import { SAVE_SETTLE_MS } from '../../src/wp/saves.ts';
import { call, eventually, openTarget, type Target } from '../harness.ts';
import { configureWebhook, notify, peer } from './cache-support.ts';
import { editUpstream, Fixtures, monthOf, token } from './fixtures.ts';

let t: Target;
let fx: Fixtures;
const tok = token();
const day = monthOf(2034, 2);

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  await t.gateway.deps.changesReconciled;
});
afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

/** What the log holds after `cursor`, for one record. */
async function logged(cursor: string, kind: string, id: number): Promise<LoggedChange[]> {
  const all = await t.gateway.deps.changes!.read(cursor, 10_000);
  return all.filter((c) => c.kind === kind && c.id === id);
}

describe('the change log hears of every change once', () => {
  it("logs the gateway's own create, update and delete of an event, once each", async () => {
    const from = await t.gateway.deps.changes!.head();
    const ev = await fx.event({ title: `log ${tok}`, start_date: day(3), end_date: day(3, '11:00:00') });
    const up = await call(t, 'POST', `/events/${ev.id}`, { as: 'admin', body: { title: `log2 ${tok}` } });
    expect(up.status).toBe(200);
    // What another instance does on the write's invalidation: read the event again from WordPress. The index must
    // hold the same from the write's answer as from that read (else its version differs: a second 'updated').
    const index = t.gateway.deps.indexes.all()[0]!;
    const held = index.get(ev.id);
    await index.refetch([ev.id]);
    expect(index.get(ev.id)).toEqual(held);
    const del = await call(t, 'DELETE', `/events/${ev.id}`, { as: 'admin' });
    expect(del.status).toBe(200);
    // The plugin's notification (real WordPress) and the index's poll may hear of the same changes: still once.
    await t.gateway.deps.indexes.all()[0]!.refresh();
    const got = await logged(from, 'event', ev.id);
    expect(got.map((c) => c.action)).toEqual(['created', 'updated', 'deleted']);
    expect(got[0]).toMatchObject({ public: true, tags: [`event:${ev.id}`, 'list:event'] });
    expect(got[0]!.rest_url).toMatch(new RegExp(`/wp-json/calendar/events/v1/events/${ev.id}$`));
  });

  it("logs the gateway's writes of venues, organizers, categories and tags", async () => {
    const from = await t.gateway.deps.changes!.head();
    const made: Array<[string, string, number]> = [];
    for (const [kind, path, body] of [
      ['venue', '/venues', { venue: `Hall ${tok}` }],
      ['organizer', '/organizers', { organizer: `Org ${tok}` }],
      ['category', '/categories', { name: `Cat ${tok}` }],
      ['tag', '/tags', { name: `Tag ${tok}` }],
    ] as const) {
      const res = await call<{ id: number }>(t, 'POST', path, { as: 'admin', body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push([kind, path, res.body.id]);
      const del = await call(t, 'DELETE', `${path}/${res.body.id}?force=true`, { as: 'admin' });
      expect(del.status, JSON.stringify(del.body)).toBe(200);
    }
    for (const [kind, , id] of made) {
      expect(
        (await logged(from, kind, id)).map((c) => c.action),
        kind,
      ).toEqual(['created', 'deleted']);
    }
  });

  it('logs an edit made in WordPress once the index polls it', async () => {
    const ev = await fx.event({ title: `wp ${tok}`, start_date: day(4), end_date: day(4, '11:00:00') });
    const from = await t.gateway.deps.changes!.head();
    await editUpstream(t, ev.id, { status: 'draft' });
    // A poll's read of a save of the last seconds is logged once it is read again, SAVE_SETTLE_MS later.
    const got = await eventually(
      () => logged(from, 'event', ev.id),
      (x) => x.length > 0,
      5000 + SAVE_SETTLE_MS,
    );
    expect(got).toMatchObject([{ action: 'updated', public: false, was_public: true }]);
  });
});

interface FeedBody {
  items: Array<{
    kind: string;
    id: number;
    action: string;
    modified_utc: string | null;
    rest_url: string;
    tags: string[];
  }>;
  next: string;
  has_more: boolean;
}

/** Reads the feed from `since` to its end now (an initial sync when `since` is 0), as `as`. */
async function drain(since: string, as?: 'admin' | 'editor' | 'subscriber') {
  const items: FeedBody['items'] = [];
  let cursor = since;
  for (let i = 0; i < 200; i++) {
    const res = await call<FeedBody>(t, 'GET', `/changes?since=${cursor}&limit=50`, { as });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.next;
    if (!res.body.has_more) return { items, next: cursor, headers: res.headers };
  }
  throw new Error('the feed never ended');
}

const mine = (items: FeedBody['items'], id: number) =>
  items.filter((x) => x.kind === 'event' && x.id === id).map((x) => x.action);

describe('GET /changes', () => {
  it('starts with an initial sync of what exists (no deletions), then goes on in commit order', async () => {
    const pub = await fx.event({ title: `sync ${tok}`, start_date: day(5), end_date: day(5, '11:00:00') });
    const draft = await fx.event({
      title: `syncd ${tok}`,
      start_date: day(5),
      end_date: day(5, '11:00:00'),
      status: 'draft',
    });
    const sync = await drain('0');
    expect(sync.headers.get('cache-control')).toBe('no-store');
    expect(mine(sync.items, pub.id)).toEqual(['created']);
    // An anonymous caller never learns of a draft, not even its id.
    expect(mine(sync.items, draft.id)).toEqual([]);
    expect(sync.items.every((x) => x.action === 'created')).toBe(true);
    const item = sync.items.find((x) => x.id === pub.id)!;
    expect(item.rest_url).toBe(`${t.api}/events/${pub.id}`);
    expect(item.tags).toEqual([`event:${pub.id}`, 'list:event']);
    // An editor's initial sync holds the draft.
    expect(mine((await drain('0', 'editor')).items, draft.id)).toEqual(['created']);

    await call(t, 'POST', `/events/${pub.id}`, { as: 'admin', body: { title: `sync2 ${tok}` } });
    await call(t, 'DELETE', `/events/${pub.id}`, { as: 'admin' });
    const after = await drain(sync.next);
    expect(mine(after.items, pub.id)).toEqual(['updated', 'deleted']);
    // Read again from the same cursor: the same answer (a cursor is a place in the log, not a session).
    expect(mine((await drain(sync.next)).items, pub.id)).toEqual(['updated', 'deleted']);
  });

  it('shows a record leaving public view as deleted, and entering it as created, to the public only', async () => {
    const ev = await fx.event({ title: `vis ${tok}`, start_date: day(6), end_date: day(6, '11:00:00') });
    const { next } = await drain('0');
    const edNext = (await drain('0', 'editor')).next;
    const steps: Array<Record<string, unknown>> = [{ status: 'draft' }, { status: 'publish' }];
    for (const body of steps) {
      const r = await call(t, 'POST', `/events/${ev.id}`, { as: 'admin', body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect(mine((await drain(next)).items, ev.id)).toEqual(['deleted', 'created']);
    expect(mine((await drain(next, 'subscriber')).items, ev.id)).toEqual(['deleted', 'created']);
    expect(mine((await drain(edNext, 'editor')).items, ev.id)).toEqual(['updated', 'updated']);
  });

  it('answers on the language root too, with its records under that root', async () => {
    const ev = await fx.event({ title: `es ${tok}`, start_date: day(5), end_date: day(5, '11:00:00') });
    const res = await fetch(`${t.gateway.url}/es/wp-json/calendar/events/v1/changes?limit=500`);
    expect(res.status).toBe(200);
    let body = (await res.json()) as FeedBody;
    const items = [...body.items];
    while (body.has_more) {
      const next = await fetch(
        `${t.gateway.url}/es/wp-json/calendar/events/v1/changes?limit=500&since=${body.next}`,
      );
      body = (await next.json()) as FeedBody;
      items.push(...body.items);
    }
    expect(items.find((x) => x.kind === 'event' && x.id === ev.id)?.rest_url).toBe(
      `${t.gateway.url}/es/wp-json/calendar/events/v1/events/${ev.id}`,
    );
  });

  it('refuses a cursor that is not one of its own, naming the parameter', async () => {
    const res = await call(t, 'GET', '/changes?since=nonsense!');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { since: expect.any(String) } },
    });
  });

  it('answers 410 with the way to resync for a cursor of another log', async () => {
    const other = Buffer.from('otherlog.1-0').toString('base64url');
    const res = await call(t, 'GET', `/changes?since=${other}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({
      code: 'changes_cursor_expired',
      data: { status: 410, resync: 'since=0' },
    });
  });

  it('waits for the next change with feed=longpoll, and answers empty after its timeout', async () => {
    const { next } = await drain('0');
    const t0 = Date.now();
    const empty = await call<FeedBody>(t, 'GET', `/changes?since=${next}&feed=longpoll&timeout=1`);
    expect(empty.body.items).toEqual([]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    const waiting = call<FeedBody>(t, 'GET', `/changes?since=${next}&feed=longpoll&timeout=20`);
    await new Promise((r) => setTimeout(r, 300));
    const ev = await fx.event({ title: `lp ${tok}`, start_date: day(7), end_date: day(7, '11:00:00') });
    const res = await waiting;
    expect(mine(res.body.items, ev.id)).toEqual(['created']);
  });
});

/** Reads server-sent events from the feed until `until` holds (or 10 s), then hangs up. */
async function events(
  headers: Record<string, string>,
  until: (ev: Array<{ id?: string; data: FeedBody['items'][number] }>) => boolean,
) {
  const ac = new AbortController();
  const res = await fetch(`${t.api}/changes`, {
    headers: { Accept: 'text/event-stream', ...headers },
    signal: ac.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const got: Array<{ id?: string; data: FeedBody['items'][number] }> = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  const timer = setTimeout(() => ac.abort(), 10_000);
  try {
    while (!until(got)) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let end = buf.indexOf('\n\n');
      while (end !== -1) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) got.push({ id, data: JSON.parse(data) });
        end = buf.indexOf('\n\n');
      }
    }
  } catch {
    // aborted after 10 s: the assertions below say what was missing
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return got;
}

describe('GET /changes as server-sent events', () => {
  it('streams the sync, then each change as it is made, and resumes after Last-Event-ID', async () => {
    const a = await fx.event({ title: `sse ${tok}`, start_date: day(8), end_date: day(8, '11:00:00') });
    const synced = await events({}, (ev) => ev.some((e) => e.data.id === a.id));
    expect(synced.find((e) => e.data.id === a.id)?.data.action).toBe('created');
    // Live: a change made while the stream is open arrives on it.
    const { next } = await drain('0');
    const streaming = events({ 'Last-Event-ID': next }, (ev) => ev.length > 0);
    await new Promise((r) => setTimeout(r, 300));
    const b2 = await fx.event({ title: `sse2 ${tok}`, start_date: day(8), end_date: day(8, '11:00:00') });
    const live = await streaming;
    expect(live.map((e) => `${e.data.id}:${e.data.action}`)).toEqual([`${b2.id}:created`]);
    const lastId = [...live].reverse().find((e) => e.id)!.id!;
    await call(t, 'POST', `/events/${a.id}`, { as: 'admin', body: { title: `sse3 ${tok}` } });
    const resumed = await events({ 'Last-Event-ID': lastId }, (ev) => ev.some((e) => e.data.id === a.id));
    expect(resumed.map((e) => `${e.data.id}:${e.data.action}`)).toEqual([`${a.id}:updated`]);
  });
});

describe('the typed client', () => {
  it('iterates the initial sync, then the changes after a saved cursor, then follows new ones', async () => {
    const client = createCalendarClient({ baseUrl: t.api });
    const ev = await fx.event({ title: `cl ${tok}`, start_date: day(9), end_date: day(9, '11:00:00') });
    const synced: ChangeAt[] = [];
    for await (const c of client.changes({ limit: 40 })) synced.push(c);
    expect(synced.filter((c) => c.id === ev.id).map((c) => c.action)).toEqual(['created']);
    const saved = synced.at(-1)!.cursor;
    await call(t, 'POST', `/events/${ev.id}`, { as: 'admin', body: { title: `cl2 ${tok}` } });
    const after: ChangeAt[] = [];
    for await (const c of client.changes({ since: saved })) after.push(c);
    expect(after.map((c) => `${c.id}:${c.action}`)).toEqual([`${ev.id}:updated`]);
    // Following: the iterator waits (long polls) and yields the next change when it is made.
    const ac = new AbortController();
    const next = (async () => {
      for await (const c of client.changes({
        since: after.at(-1)!.cursor,
        follow: true,
        timeout: 20,
        signal: ac.signal,
      }))
        return c;
    })();
    await new Promise((r) => setTimeout(r, 300));
    const ev2 = await fx.event({ title: `cl3 ${tok}`, start_date: day(9), end_date: day(9, '11:00:00') });
    expect(await next).toMatchObject({ kind: 'event', id: ev2.id, action: 'created' });
    ac.abort();
  });
});

describe('changes the gateway hears of from WordPress', () => {
  const SECRET = 'changes-feed-test-secret-0123456789';
  let g: Gateway;
  beforeAll(async () => {
    g = await peer(t, { webhookSecret: SECRET, pollIntervalMs: 0 });
    if (t.kind === 'wordpress') await configureWebhook(t, `${g.url}/calendar-gateway/v1/notify`, SECRET);
    await g.deps.changesReconciled;
  });
  afterAll(async () => {
    if (t.kind === 'wordpress') await configureWebhook(t, '', '');
    await g?.close();
  });
  const peerLog = async (from: string, kind: string, id: number) =>
    (await g.deps.changes!.read(from, 10_000))
      .filter((c) => c.kind === kind && c.id === id)
      .map((c) => c.action);
  const upstream = (path: string, body: unknown) =>
    fetch(`${t.upstream}${path}`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("logs what the companion plugin's notifications name: an event and a venue edited in WordPress", async () => {
    const from = await g.deps.changes!.head();
    const ev = await fx.event({ title: `nt ${tok}`, start_date: day(10), end_date: day(10, '11:00:00') });
    const venue = (await (
      await upstream(`/wp/v2/${t.mapping.venue.restBase}`, { title: `V ${tok}`, status: 'publish' })
    ).json()) as { id: number };
    expect(
      (await upstream(`/wp/v2/${t.mapping.event.restBase}/${ev.id}`, { title: `nt2 ${tok}` })).status,
    ).toBe(200);
    expect(
      (await upstream(`/wp/v2/${t.mapping.venue.restBase}/${venue.id}`, { title: `V2 ${tok}` })).status,
    ).toBe(200);
    // The mock runs no PHP: send what the companion plugin sends.
    if (t.kind === 'mock') {
      expect(
        await notify(g.url, SECRET, [
          { kind: 'post', id: ev.id, type: t.mapping.event.postType, action: 'save' },
          { kind: 'post', id: venue.id, type: t.mapping.venue.postType, action: 'save' },
        ]),
      ).toBe(202);
    }
    // This gateway polls nothing: it hears of both from the notifications alone (the real plugin also notifies the
    // creations, so the renames may follow as updates), each change once.
    for (const [kind, id] of [
      ['event', ev.id],
      ['venue', venue.id],
    ] as const) {
      const got = await eventually(
        () => peerLog(from, kind, id),
        (x) => x.length > 0,
        5000,
      );
      expect(got[0], `${kind} ${got.join(',')}`).toBe('created');
      expect(got.length <= 2 && got.slice(1).every((a) => a === 'updated'), `${kind} ${got.join(',')}`).toBe(
        true,
      );
    }
    await fetch(`${t.upstream}/wp/v2/${t.mapping.venue.restBase}/${venue.id}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: t.auth.admin },
    });
  });

  it('logs a wp/v2 write proxied through the gateway, without waiting for a poll', async () => {
    const from = await g.deps.changes!.head();
    const ev = await fx.event({ title: `px ${tok}`, start_date: day(11), end_date: day(11, '11:00:00') });
    const proxied = (body: unknown) =>
      fetch(`${g.url}/wp-json/wp/v2/${t.mapping.event.restBase}/${ev.id}`, {
        method: 'POST',
        headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await proxied({ title: `px2 ${tok}` })).status).toBe(200);
    // The real plugin also notifies this gateway of the creation: then the rename follows as an update.
    const first = await eventually(
      () => peerLog(from, 'event', ev.id),
      (x) => x.length > 0,
      5000,
    );
    expect(first[0]).toBe('created');
    expect((await proxied({ status: 'draft' })).status).toBe(200);
    const log = await eventually(
      () => g.deps.changes!.read(from, 10_000),
      (x) => x.some((c) => c.id === ev.id && !c.public),
      5000,
    );
    const mine = log.filter((c) => c.kind === 'event' && c.id === ev.id);
    expect(mine.at(-1)).toMatchObject({ action: 'updated', public: false, was_public: true });
    expect(mine.filter((c) => !c.public)).toHaveLength(1);
  });
});
