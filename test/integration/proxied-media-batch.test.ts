// Writes beside the calendar API, through the gateway's proxy: media edits and deletes, and wp/v2 writes sent in a
// `/wp-json/batch/v1`, show in the calendar API's cached answers within a second, as single post writes do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.ts';
import type { WpClient } from '../../src/wp/client.ts';
import { call, eventually, openTarget, type Target } from '../harness.ts';
import { type ImageServer, startImageServer } from '../support/image-server.ts';
import { configureWebhook, get, notify, peer, within } from './cache-support.ts';
import { type EventRecord, Fixtures, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2033, 7);
const month = 'start_date=2033-07-01&end_date=2033-07-31&per_page=50';
let t: Target;
let fx: Fixtures;
let srv: ImageServer;
/** Attachment reads the gateway sent WordPress (`/wp/v2/media`). */
let mediaReads = 0;

beforeAll(async () => {
  [t, srv] = await Promise.all([openTarget(), startImageServer()]);
  fx = new Fixtures(t);
  const wp = t.gateway.deps.wp as WpClient & { list: WpClient['list'] };
  const list = wp.list.bind(wp);
  wp.list = ((o: Parameters<WpClient['list']>[0]) => {
    if (o.path === '/wp/v2/media') mediaReads++;
    return list(o);
  }) as WpClient['list'];
});

afterAll(async () => {
  await fx?.cleanup();
  const left = await fetch(`${t.upstream}/wp/v2/media?search=${tok}&per_page=100&_fields=id`, {
    headers: { Authorization: t.auth.admin },
  });
  for (const m of (await left.json()) as Array<{ id: number }>)
    await fetch(`${t.upstream}/wp/v2/media/${m.id}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: t.auth.admin },
    });
  await Promise.all([t?.close(), srv?.close()]);
});

/** A request through the gateway's proxy to the site's REST root, as the admin. */
const proxied = (method: string, path: string, body?: unknown) =>
  fetch(`${t.gateway.url}/wp-json${path}`, {
    method,
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function eventWithImage(name: string, d: number): Promise<{ event: EventRecord; image: number }> {
  const res = await call<EventRecord>(t, 'POST', '/events', {
    as: 'editor',
    body: {
      title: `${name} ${tok}`,
      start_date: day(d),
      end_date: day(d, '12:00:00'),
      image: `${srv.url}/img/4x3/${tok}${name.toLowerCase()}.png`,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  fx.ids.push(res.body.id);
  return { event: res.body, image: (res.body.image as { id: number }).id };
}

/** The attachment id of a record's `image` (undefined without one, or without the record). */
const imageOf = (r: Json | undefined): unknown => {
  const image = r?.image;
  return image && typeof image === 'object' ? (image as Json).id : undefined;
};
const single = (id: number) => call<Json>(t, 'GET', `/events/${id}`);
const listed = async (id: number) =>
  (await call<{ events: Json[] }>(t, 'GET', `/events?${month}`)).body.events.find((e) => e.id === id);

describe('media writes through the proxy', () => {
  it("drop a deleted image from the event's cached single and list answers within a second", async () => {
    const a = await eventWithImage('Deleted', 3);
    const b = await eventWithImage('Kept', 4);
    // Cached, anonymous answers showing both images (the list is refilled after the creates).
    await eventually(
      () => listed(b.event.id),
      (e) => e !== undefined,
    );
    for (let i = 0; i < 2; i++) {
      expect(imageOf((await single(a.event.id)).body)).toBe(a.image);
      expect(imageOf(await listed(a.event.id))).toBe(a.image);
      expect(imageOf(await listed(b.event.id))).toBe(b.image);
    }
    const del = await proxied('DELETE', `/wp/v2/media/${a.image}?force=true`);
    expect(del.status, await del.clone().text()).toBe(200);
    expect(((await del.json()) as Json).deleted).toBe(true);
    const one = await eventually(
      () => single(a.event.id),
      (r) => r.body.image === false,
      1000,
    );
    expect(one.body.image).toBe(false);
    const inList = await eventually(
      () => listed(a.event.id),
      (e) => e?.image === false,
      1000,
    );
    expect(inList?.image).toBe(false);
    expect(imageOf(await listed(b.event.id))).toBe(b.image);
  });

  it('drop exactly the answers showing an edited image: the next read of its event reads the image again', async () => {
    const a = await eventWithImage('Edited', 6);
    const b = await eventWithImage('Other', 7);
    for (let i = 0; i < 2; i++) {
      await single(a.event.id);
      await single(b.event.id);
    }
    const before = mediaReads;
    await single(a.event.id);
    await single(b.event.id);
    expect(mediaReads, 'both answers cached').toBe(before);
    const edited = await proxied('POST', `/wp/v2/media/${a.image}`, {
      alt_text: `Alt ${tok}`,
      title: `New ${tok}`,
    });
    expect(edited.status, await edited.clone().text()).toBe(200);
    await eventually(
      async () => {
        await single(a.event.id);
        return mediaReads;
      },
      (n) => n > before,
      1000,
    );
    expect(mediaReads).toBeGreaterThan(before);
    const after = mediaReads;
    await single(b.event.id);
    expect(mediaReads, 'the other event stays cached').toBe(after);
  });
});

describe('batch/v1 through the proxy', () => {
  const rest = () => t.mapping.event.restBase;

  it('reaches WordPress and applies each write of the batch to the cached answers at once', async () => {
    const a = await fx.event({ title: `Batched ${tok}`, start_date: day(10), end_date: day(10, '12:00:00') });
    const b = await fx.event({
      title: `Unbatched ${tok}`,
      start_date: day(11),
      end_date: day(11, '12:00:00'),
    });
    // Cached as they are.
    for (let i = 0; i < 2; i++) {
      expect((await single(a.id)).body.title).toBe(`Batched ${tok}`);
      expect(
        (
          await eventually(
            () => listed(a.id),
            (e) => e !== undefined,
          )
        )?.title,
      ).toBe(`Batched ${tok}`);
      expect((await single(b.id)).body.title).toBe(`Unbatched ${tok}`);
    }
    const res = await proxied('POST', '/batch/v1', {
      requests: [
        { method: 'POST', path: `/wp/v2/${rest()}/${a.id}`, body: { title: `Renamed ${tok}` } },
        { method: 'PUT', path: `/wp/v2/${rest()}/${b.id}?_locale=user`, body: { status: 'draft' } },
        { method: 'POST', path: `/wp/v2/${rest()}/999999999`, body: { title: 'nothing' } },
      ],
    });
    const body = (await res.json()) as { responses: Array<{ status: number; body: Json }> };
    expect(res.status, JSON.stringify(body)).toBe(207);
    expect(body.responses.map((r) => r.status)).toEqual([200, 200, 404]);
    expect(body.responses[0]?.body.id).toBe(a.id);
    const renamed = await eventually(
      () => single(a.id),
      (r) => r.body.title === `Renamed ${tok}`,
      1000,
    );
    expect(renamed.body.title).toBe(`Renamed ${tok}`);
    const inList = await eventually(
      () => listed(a.id),
      (e) => e?.title === `Renamed ${tok}`,
      1000,
    );
    expect(inList?.title).toBe(`Renamed ${tok}`);
    // The draft is gone from anonymous answers at once (a write that hides something is never served stale).
    expect([401, 403]).toContain((await single(b.id)).status);
    expect(await listed(b.id)).toBeUndefined();
  });

  it('applies nothing of a batch whose validation failed, and answers it as WordPress does', async () => {
    const a = await fx.event({
      title: `Unvalidated ${tok}`,
      start_date: day(14),
      end_date: day(14, '12:00:00'),
    });
    const res = await proxied('POST', '/batch/v1', {
      validation: 'require-all-validate',
      requests: [
        { method: 'POST', path: `/wp/v2/${rest()}/${a.id}`, body: { title: `Never ${tok}` } },
        { method: 'DELETE', path: '/wp/v2/media/1?force=true' },
      ],
    });
    const body = (await res.json()) as { failed?: string; responses: Array<{ body: Json } | null> };
    expect(res.status, JSON.stringify(body)).toBe(207);
    expect(body.failed).toBe('validation');
    expect(body.responses[0]).toBeNull();
    expect(body.responses[1]?.body.code).toBe('rest_batch_not_allowed');
    expect((await single(a.id)).body.title).toBe(`Unvalidated ${tok}`);
  });
});

describe('site settings written through the proxy', () => {
  /** The calendar name of the feed of this file's month (cached after its first read). */
  const feedName = async () => {
    const res = await fetch(`${t.api}/events.ics?${month}`);
    expect(res.status).toBe(200);
    return /\r\nX-WR-CALNAME:([^\r]*)\r\n/.exec(await res.text())?.[1];
  };
  const settings = async (body: Json) => {
    const res = await proxied('POST', '/wp/v2/settings', body);
    const answer = (await res.json()) as Json;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    return answer;
  };

  it("show the site's new title and time zone at once", async () => {
    const before = (await (await fetch(`${t.upstream}/`)).json()) as {
      name: string;
      timezone_string: string;
    };
    const name = await feedName();
    expect(await feedName()).toBe(name);
    try {
      await settings({ title: `Site ${tok}`, timezone: 'Asia/Tokyo' });
      expect(await feedName()).toBe(`Site ${tok}`);
      expect(t.gateway.deps.site.timezone).toBe('Asia/Tokyo');
    } finally {
      await settings({ title: before.name, timezone: before.timezone_string });
    }
    expect(await feedName()).toBe(name);
    expect(t.gateway.deps.site.timezone).toBe(before.timezone_string);
  });
});

describe('media edits made in WordPress', () => {
  const SECRET = `media-secret-${tok}-0123456789`;
  let g: Gateway | undefined;
  afterAll(async () => {
    if (t?.kind === 'wordpress') await configureWebhook(t, '', '').catch(() => {});
    await g?.close();
  });

  it("drop a deleted image from the event's cached answers within 2 s of the companion's notification", async () => {
    g = await peer(t, { webhookSecret: SECRET, pollIntervalMs: 0 });
    const gw = g;
    if (t.kind === 'wordpress') await configureWebhook(t, `${gw.url}/calendar-gateway/v1/notify`, SECRET);
    const a = await eventWithImage('Admin', 20);
    const image = async () => (await get(gw.url, `/events/${a.event.id}`)).json.image;
    expect(imageOf({ image: await image() })).toBe(a.image);
    expect(imageOf({ image: await image() })).toBe(a.image);
    // Deleted in WordPress itself, not through the gateway.
    const res = await fetch(`${t.upstream}/wp/v2/media/${a.image}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: t.auth.admin },
    });
    expect(res.status, await res.text()).toBe(200);
    // The mock runs no PHP: send what the companion plugin sends.
    if (t.kind === 'mock')
      expect(
        await notify(gw.url, SECRET, [{ kind: 'post', id: a.image, type: 'attachment', action: 'delete' }]),
      ).toBe(202);
    await within(2000, async () => (await image()) === false);
  });
});

describe('a user deleted through the proxy', () => {
  it('shows their events under the user they were given to, at once', async () => {
    const me = (await (await proxied('GET', '/wp/v2/users/me')).json()) as { id: number };
    const made = await fetch(`${t.upstream}/wp/v2/users`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        username: `leaving${tok}`,
        email: `leaving${tok}@example.test`,
        password: `Pw-${tok}-0123456789`,
        roles: ['author'],
      }),
    });
    const user = (await made.json()) as { id: number };
    expect(made.status, JSON.stringify(user)).toBe(201);
    const ev = await fx.event({
      title: `Handed over ${tok}`,
      start_date: day(24),
      end_date: day(24, '12:00:00'),
    });
    // Given to the user through the proxy (so the gateway's index knows whose it is).
    expect(
      (await proxied('POST', `/wp/v2/${t.mapping.event.restBase}/${ev.id}`, { author: user.id })).status,
    ).toBe(200);
    await eventually(
      () => single(ev.id),
      (r) => r.body.author === String(user.id),
    );
    expect((await single(ev.id)).body.author).toBe(String(user.id));
    const gone = await proxied('DELETE', `/wp/v2/users/${user.id}?force=true&reassign=${me.id}`);
    expect(gone.status, await gone.clone().text()).toBe(200);
    expect((await single(ev.id)).body.author).toBe(String(me.id));
    expect((await listed(ev.id))?.author).toBe(String(me.id));
  });
});

describe('batch/v1 framing', () => {
  it('passes a chunked batch on whole, and refuses one past 4 MB with 413', async () => {
    const a = await fx.event({ title: `Chunked ${tok}`, start_date: day(26), end_date: day(26, '12:00:00') });
    const body = JSON.stringify({
      requests: [
        {
          method: 'POST',
          path: `/wp/v2/${t.mapping.event.restBase}/${a.id}`,
          body: { title: `Rechunked ${tok}` },
        },
      ],
    });
    const stream = new ReadableStream({
      start(c) {
        const bytes = new TextEncoder().encode(body);
        c.enqueue(bytes.slice(0, 10));
        c.enqueue(bytes.slice(10));
        c.close();
      },
    });
    const res = await fetch(`${t.gateway.url}/wp-json/batch/v1`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status, await res.clone().text()).toBe(207);
    expect((await single(a.id)).body.title).toBe(`Rechunked ${tok}`);
    const big = await proxied('POST', '/batch/v1', { requests: [], pad: 'x'.repeat(5 << 20) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as Json).code).toBe('rest_request_too_large');
  });
});
