// Answers to a post `password`: never kept by a browser or CDN, and wrong guesses throttled per client and record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, openTarget, type Target } from '../harness.ts';
import {
  type EventRecord,
  editUpstream,
  expectError,
  Fixtures,
  idsOf,
  type Json,
  monthOf,
  token,
} from './fixtures.ts';

const tok = token();
const day = monthOf(2032, 3);
let t: Target;
let fx: Fixtures;
/** Three protected events (password `right-<n>`) and one without a password. */
const locked: EventRecord[] = [];
let plain: EventRecord;
let venue: Json;
/** Venues created here, removed for good after the file. */
const venues: number[] = [];

/** Each test is its own client: this gateway trusts X-Forwarded-For from loopback, as behind a local proxy. */
let clients = 0;
const client = () => `198.51.100.${++clients}`;
const get = (path: string, from: string): Promise<CallResult> =>
  call(t, 'GET', path, { headers: { 'X-Forwarded-For': from } });

beforeAll(async () => {
  t = await openTarget({ trustProxy: 'loopback' });
  fx = new Fixtures(t);
  for (let n = 0; n < 3; n++) {
    const ev = await fx.event({
      title: `Locked ${n} ${tok}`,
      description: `Inner words ${n} ${tok}`,
      start_date: day(n + 1),
      end_date: day(n + 1, '12:00:00'),
    });
    await editUpstream(t, ev.id, { password: `right-${n}` });
    locked.push(ev);
  }
  plain = await fx.event({ title: `Plain ${tok}`, start_date: day(9), end_date: day(9, '12:00:00') });
  const made = await call<Json>(t, 'POST', '/venues', {
    as: 'admin',
    // With a description: a protected record whose content is empty reads blanked even with its password (own issue).
    body: { venue: `Guarded ${tok}`, description: 'Behind the door.', city: `Innercity ${tok}` },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  venue = made.body;
  venues.push(Number(venue.id));
  const res = await fetch(`${t.upstream}/wp/v2/${t.mapping.venue.restBase}/${venue.id}`, {
    method: 'POST',
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ password: 'venue-pass' }),
  });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await fx?.cleanup();
  await Promise.all(
    venues.map((id) =>
      fetch(`${t.upstream}/wp/v2/${t.mapping.venue.restBase}/${id}?force=true`, {
        method: 'DELETE',
        headers: { Authorization: t.auth.admin },
      }).catch(() => undefined),
    ),
  );
  await t?.close();
});

const ev = (n: number) => locked[n] as EventRecord;
const includeAll = () => `include=${[...locked.map((e) => e.id), plain.id].join(',')}`;

describe('Cache-Control of answers to a password', () => {
  it('is private, no-store on an event unlocked by its password, and on the 403 for a wrong one', async () => {
    const from = client();
    const right = await get(`/events/${ev(0).id}?password=right-0`, from);
    expect(right.status).toBe(200);
    expect(right.body.description).toContain(`Inner words 0 ${tok}`);
    expect(right.headers.get('cache-control')).toBe('private, no-store');
    const wrong = await get(`/events/${ev(0).id}?password=nope`, from);
    expectError(wrong, 403, 'event-password-protected');
    expect(wrong.headers.get('cache-control')).toBe('private, no-store');
  });

  it('is private, no-store on a list and a venue read with a password', async () => {
    const from = client();
    const list = await get(`/events?${includeAll()}&password=right-1`, from);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(`Inner words 1 ${tok}`);
    expect(list.headers.get('cache-control')).toBe('private, no-store');
    const one = await get(`/venues/${venue.id}?password=venue-pass`, from);
    expect(one.status).toBe(200);
    expect(one.body.city).toBe(`Innercity ${tok}`);
    expect(one.headers.get('cache-control')).toBe('private, no-store');
    const slug = await get(`/events/by-slug/${ev(1).slug}?password=right-1`, from);
    expect(slug.headers.get('cache-control')).toBe('private, no-store');
  });

  it('stays shareable without a password', async () => {
    const res = await get(`/events?${includeAll()}`, client());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public/);
  });
});

describe('wrong password guesses', () => {
  it('answers 403 up to the limit, then 429 with Retry-After, even to the right password', async () => {
    const from = client();
    for (let i = 0; i < 5; i++)
      expectError(
        await get(`/events/${ev(0).id}?password=guess-${i}`, from),
        403,
        'event-password-protected',
      );
    const over = await get(`/events/${ev(0).id}?password=guess-5`, from);
    expectError(over, 429, 'too_many_password_attempts');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(over.headers.get('cache-control')).toBe('private, no-store');
    expect(JSON.stringify(over.body)).not.toContain('Inner words');
    // Throttled means no answer about the password at all, the right one included.
    expectError(await get(`/events/${ev(0).id}?password=right-0`, from), 429, 'too_many_password_attempts');
  });

  it('blocks neither another record for that client nor that record for another client', async () => {
    const from = client();
    for (let i = 0; i < 6; i++) await get(`/events/${ev(0).id}?password=guess-${i}`, from);
    expectError(await get(`/events/${ev(1).id}?password=nope`, from), 403, 'event-password-protected');
    const other = await get(`/events/${ev(0).id}?password=right-0`, client());
    expect(other.status).toBe(200);
    expect(other.body.description).toContain(`Inner words 0 ${tok}`);
  });

  it('never counts the right password: a caller who knows it is not throttled', async () => {
    const from = client();
    for (let i = 0; i < 8; i++)
      expect((await get(`/events/${ev(2).id}?password=right-2`, from)).status).toBe(200);
    expect((await get(`/events/${ev(2).id}?password=nope`, from)).status).toBe(403);
  });

  it('counts a list with include= as one guess at every protected event it tried', async () => {
    const from = client();
    const list = await get(`/events?${includeAll()}&password=nope`, from);
    expect(list.status).toBe(200);
    expect(idsOf(list).sort()).toEqual([...locked.map((e) => e.id), plain.id].sort());
    expect(JSON.stringify(list.body)).not.toContain('Inner words');
    // One guess at each of the three is spent: four more single guesses at any of them, then 429.
    for (let i = 0; i < 4; i++)
      expectError(await get(`/events/${ev(1).id}?password=g${i}`, from), 403, 'event-password-protected');
    expectError(await get(`/events/${ev(1).id}?password=g4`, from), 429, 'too_many_password_attempts');
    // Lists too: one more list would try ev(1) again.
    for (let i = 0; i < 3; i++)
      expect((await get(`/events?include=${ev(2).id}&password=l${i}`, from)).status).toBe(200);
    expectError(await get(`/events?${includeAll()}&password=l9`, from), 429, 'too_many_password_attempts');
    expect((await get(`/events?${includeAll()}`, from)).status).toBe(200);
  });

  it('does not count the events a list unlocked, nor those without a password', async () => {
    const from = client();
    for (let i = 0; i < 8; i++) {
      const res = await get(`/events?include=${ev(0).id},${plain.id}&password=right-0`, from);
      expect(res.status).toBe(200);
    }
  });

  it('throttles guesses at a protected venue the same way', async () => {
    const from = client();
    for (let i = 0; i < 5; i++) {
      const res = await get(`/venues/${venue.id}?password=guess-${i}`, from);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain('Innercity');
    }
    expectError(
      await get(`/venues/${venue.id}?password=venue-pass`, from),
      429,
      'too_many_password_attempts',
    );
    expect((await get(`/venues/${venue.id}?password=venue-pass`, client())).body.city).toBe(
      `Innercity ${tok}`,
    );
  });
});
