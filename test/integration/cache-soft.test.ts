// Reads under writes: after a write that hides nothing, anonymous readers get the previous answer (never stored
// downstream) for at most CACHE_SOFT_STALE_MS while one refill runs; the writer and every signed-in caller read the
// write at once; a write that takes an event out of public view is never answered from the old copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.ts';
import { openTarget, requestsDuring, type Target } from '../harness.ts';
import { guard } from '../slack.ts';
import { adminWrite, get, type Made, peer, removeMade, within } from './cache-support.ts';
import { monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2035, 3);
const window = `start_date=${encodeURIComponent(day(1, '00:00:00'))}&end_date=${encodeURIComponent(day(28, '23:59:59'))}`;
const LIST = `/events?${window}&per_page=50`;

let t: Target;
let g: Gateway;
const created: Made = [];

beforeAll(async () => {
  t = await openTarget();
  g = await peer(t);
});

afterAll(async () => {
  if (g) await removeMade(g, t, created);
  await g?.close();
  await t?.close();
});

const write = (method: string, path: string, body?: unknown) => adminWrite(g, t, created, method, path, body);

/** A wp/v2 write through the gateway's proxy, as the block editor makes it. */
async function wpWrite(id: number, body: unknown): Promise<void> {
  const res = await fetch(`${g.url}/wp-json/wp/v2/${t.mapping.event.restBase}/${id}`, {
    method: 'POST',
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.text()).toBe(200);
}

const create = (title: string, d: number) =>
  write('POST', '/events', {
    title,
    start_date: day(d, '10:00:00'),
    end_date: day(d, '11:00:00'),
    status: 'publish',
  });

const ids = (json: Record<string, unknown>) =>
  ((json.events as Array<{ id: number }>) ?? []).map((e) => e.id);

/** The list, anonymously, once it is stored (a fill racing the fixtures' own writes is sent unstored). */
async function cached(path: string): Promise<number[]> {
  await within(
    3000,
    async () => (await get(g.url, path)).headers.get('cache-control')?.startsWith('public') === true,
  );
  return ids((await get(g.url, path)).json);
}

describe('reads under writes', () => {
  it('the writer reads its write at once; anonymous readers get the previous answer, unshared, then the new one within 1 s', async () => {
    const first = await create(`Soft first ${tok}`, 3);
    const before = await cached(LIST);
    expect(before).toContain(first.id);
    const made = await create(`Soft second ${tok}`, 4);
    const id = made.id as number;
    // Signed in: never the shared cache.
    const own = await get(g.url, LIST, { Authorization: t.auth.admin });
    expect(ids(own.json)).toContain(id);
    // Anonymous, right after the write: the previous answer, which no browser or CDN may keep.
    const soon = await get(g.url, LIST);
    expect(ids(soon.json)).toEqual(before);
    expect(soon.headers.get('cache-control')).toBe('no-store');
    expect(soon.headers.get('etag')).toBeNull();
    const waited = await within(guard(1500), async () => ids((await get(g.url, LIST)).json).includes(id));
    expect(waited).toBeLessThan(guard(1500));
  });

  it('N concurrent anonymous readers after a write cause one refill upstream', async () => {
    await cached(LIST);
    await create(`Soft burst ${tok}`, 5);
    // Without held events (src/events/held.ts) the refill reads the page's events: once, however many readers wait.
    g.deps.records?.drop(null);
    const calls = await requestsDuring(g, async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => get(g.url, LIST)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      await within(
        2000,
        async () => (await get(g.url, LIST)).headers.get('cache-control')?.startsWith('public') === true,
      );
    });
    const reads = calls.filter(
      (req) => req.path === `/wp/v2/${t.mapping.event.restBase}` && req.query?.include,
    );
    expect(reads.length).toBe(1);
  });

  it.each([
    ['trashed', (id: number) => write('DELETE', `/events/${id}`)],
    ['unpublished', (id: number) => write('POST', `/events/${id}`, { status: 'draft' })],
    ['made private', (id: number) => write('POST', `/events/${id}`, { status: 'private' })],
    // The calendar API sets no password (its `password` reads one): an editor's wp/v2 write through the gateway does.
    ['given a password', (id: number) => wpWrite(id, { password: 'secret-pass' })],
    ['hidden from listings', (id: number) => write('POST', `/events/${id}`, { hide_from_listings: true })],
  ])('an event %s never shows in the next anonymous read of a list or its page', async (name, hide) => {
    const secret = `Hidden words ${name.replaceAll(' ', '-')} ${tok}`;
    const ev = await write('POST', '/events', {
      title: `Soft hide ${tok}`,
      description: secret,
      start_date: day(6, '10:00:00'),
      end_date: day(6, '11:00:00'),
      status: 'publish',
    });
    const id = ev.id as number;
    expect(await cached(LIST)).toContain(id);
    const page = `/events/${id}`;
    await within(
      3000,
      async () => (await get(g.url, page)).headers.get('cache-control')?.startsWith('public') === true,
    );
    expect((await get(g.url, page)).text).toContain(secret);
    await hide(id);
    const list = await get(g.url, LIST);
    const after = await get(g.url, page);
    // A protected event stays listed, as in WordPress, without its content; its page asks for the password.
    expect(list.text).not.toContain(secret);
    if (name !== 'hidden from listings') expect(after.text).not.toContain(secret);
    if (name === 'hidden from listings') {
      expect(ids(list.json)).not.toContain(id);
      expect(after.json.hide_from_listings).toBe(true);
    } else if (name !== 'given a password') {
      expect(ids(list.json)).not.toContain(id);
      expect(after.status).not.toBe(200);
    }
  });
});
