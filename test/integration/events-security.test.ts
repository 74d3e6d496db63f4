// Anonymous callers never see non-public events or protected fields: lists, by id, by slug, embedded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { type EventRecord, editUpstream, Fixtures, idsOf, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2031, 9);
const MONTH = `start_date=2031-09-01&end_date=2031-09-30&search=${tok}`;
let t: Target;
let fx: Fixtures;
let open: EventRecord;
let locked: EventRecord;
const hidden: Record<string, EventRecord> = {};
/** Every fixture by id: lists them without a search (which never matches a protected event for logged-out callers). */
const ALL = () => `include=${[open, locked, ...Object.values(hidden)].map((e) => e.id).join(',')}`;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  open = await fx.event({ title: `Open ${tok}`, start_date: day(1), end_date: day(1, '12:00:00') });
  let d = 2;
  for (const status of ['draft', 'pending', 'private']) {
    hidden[status] = await fx.event({
      title: `Secret ${status} ${tok}`,
      description: `Confidential ${status} ${tok}`,
      start_date: day(d),
      end_date: day(d++, '12:00:00'),
      status,
    });
  }
  // A future publication date makes WordPress store the post as `future` (scheduled).
  hidden.future = await fx.event({
    title: `Secret future ${tok}`,
    start_date: day(6),
    end_date: day(6, '12:00:00'),
    date: '2030-01-01 10:00:00',
  });
  locked = await fx.event({
    title: `Locked ${tok}`,
    description: `Hidden words ${tok}`,
    excerpt: `Hidden excerpt ${tok}`,
    start_date: day(8),
    end_date: day(8, '12:00:00'),
    cost: '30',
    website: 'https://example.org/locked',
    featured: true,
    categories: [`Seccat ${tok}`],
    venue: { venue: `Secret hall ${tok}`, city: 'Berlin' },
  });
  await editUpstream(t, locked.id, { password: 'hunter2' });
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

describe('non-public events', () => {
  it('creates the fixtures with the intended statuses', () => {
    expect(Object.fromEntries(Object.entries(hidden).map(([k, v]) => [k, v.status]))).toEqual({
      draft: 'draft',
      pending: 'pending',
      private: 'private',
      future: 'future',
    });
  });

  it('never lists them for anonymous callers, and leaks none of their text', async () => {
    for (const q of [
      MONTH,
      `include=${Object.values(hidden)
        .map((e) => e.id)
        .join(',')}`,
      `${MONTH}&per_page=50`,
    ]) {
      const res = await call(t, 'GET', `/events?${q}`);
      expect(res.status).toBe(200);
      expect(idsOf(res)).not.toEqual(
        expect.arrayContaining([expect.toSatisfy((id) => Object.values(hidden).some((e) => e.id === id))]),
      );
      expect(JSON.stringify(res.body)).not.toContain('Secret ');
      expect(JSON.stringify(res.body)).not.toContain('Confidential');
    }
    expect(idsOf(await call(t, 'GET', `/events?${ALL()}`))).toEqual([open.id, locked.id]);
  });

  it('never lets an anonymous search find a password-protected event, as WordPress does', async () => {
    const anonymous = await call(t, 'GET', `/events?${MONTH}`);
    expect(idsOf(anonymous)).toEqual([open.id]);
    expect(anonymous.headers.get('x-tec-total')).toBe('1');
    const words = await call(
      t,
      'GET',
      `/events?start_date=2031-09-01&end_date=2031-09-30&search=${encodeURIComponent(`Hidden words ${tok}`)}`,
    );
    expect(idsOf(words)).toEqual([]);
    // A signed-in caller's search includes it (WordPress adds `post_password = ''` only for logged-out users).
    expect(idsOf(await call(t, 'GET', `/events?${MONTH}`, { as: 'subscriber' }))).toEqual([
      open.id,
      locked.id,
    ]);
  });

  it("never lets a signed-in caller's search match a protected event's description or excerpt, only its title", async () => {
    const search = (text: string, as?: 'subscriber' | 'editor' | 'admin') =>
      call(t, 'GET', `/events?start_date=2031-09-01&end_date=2031-09-30&search=${encodeURIComponent(text)}`, {
        as,
      });
    for (const as of ['subscriber', 'editor', 'admin'] as const) {
      expect(idsOf(await search(`Locked ${tok}`, as)), as).toEqual([locked.id]);
      expect(idsOf(await search(`Hidden words ${tok}`, as)), as).toEqual([]);
      expect(idsOf(await search(`Hidden excerpt ${tok}`, as)), as).toEqual([]);
      // An exclusion must not tell the blanked text either: excluding a word of it keeps the event.
      expect(idsOf(await search(`Locked ${tok} -Hidden`, as)), as).toEqual([locked.id]);
    }
  });

  it('refuses them by id and by slug with a body that carries none of their fields', async () => {
    for (const ev of Object.values(hidden)) {
      const byId = await call(t, 'GET', `/events/${ev.id}`);
      expect(byId.status, ev.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(byId.body)).not.toContain('Secret');
      const bySlug = await call(t, 'GET', `/events/by-slug/${ev.slug}`);
      expect(bySlug.status, ev.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(bySlug.body)).not.toContain('Secret');
    }
  });

  it('refuses them to a subscriber as well', async () => {
    const res = await call(t, 'GET', `/events?${MONTH}`, { as: 'subscriber' });
    expect(idsOf(res)).toEqual([open.id, locked.id]);
    expect((await call(t, 'GET', `/events/${hidden.draft?.id}`, { as: 'subscriber' })).status).toBe(403);
  });

  it('shows drafts to an editor, and an anonymous list right after still hides them', async () => {
    const editor = await call(t, 'GET', `/events?${MONTH}`, { as: 'editor' });
    expect(idsOf(editor)).toEqual(
      expect.arrayContaining([hidden.draft?.id, hidden.pending?.id, hidden.private?.id]),
    );
    const anonymous = await call(t, 'GET', `/events?${ALL()}`);
    expect(idsOf(anonymous)).toEqual([open.id, locked.id]);
    expect(anonymous.headers.get('x-tec-total')).toBe('2');
  });
});

describe('password-protected events', () => {
  it('blanks the protected fields in anonymous lists but keeps title and dates', async () => {
    const res = await call(t, 'GET', `/events?${ALL()}`);
    const item = (res.body.events as Json[]).find((e) => e.id === locked.id) as Json;
    expect(item.title).toBe(`Locked ${tok}`);
    expect(item.start_date).toBe(day(8));
    expect(item.description).toBe('');
    expect(item.excerpt).toBe('');
    expect(item.cost).toBe('');
    expect(item.website).toBe('');
    expect(item.image).toBe(false);
    expect(item.featured).toBeNull();
    expect(item.categories).toEqual([]);
    expect(item.venue).toEqual([]);
    expect(item.organizer).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain('Hidden words');
    expect(JSON.stringify(res.body)).not.toContain('Secret hall');
  });

  it('shows the fields in a list to a caller with the right password', async () => {
    const res = await call(t, 'GET', `/events?${ALL()}&password=hunter2`);
    const item = (res.body.events as Json[]).find((e) => e.id === locked.id) as Json;
    expect(item.description).toContain(`Hidden words ${tok}`);
    expect((item.venue as Json).venue).toBe(`Secret hall ${tok}`);
  });

  it('refuses the single record without the password', async () => {
    const res = await call(t, 'GET', `/events/${locked.id}`);
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('Hidden words');
  });
});
