// `Idempotency-Key` on POST: a retried create returns the first answer and writes nothing twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { type EventRecord, expectError, Fixtures, idsOf, type Json, monthOf, token } from './fixtures.ts';

const day = monthOf(2034, 2);
let t: Target;
let fx: Fixtures;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
});
afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

const create = (body: Json, key: string, as: 'editor' | 'author' = 'editor') =>
  call<EventRecord & Json>(t, 'POST', '/events', { as, body, headers: { 'Idempotency-Key': key } });

/** A create sent with `headers` as they are (no caller, or credentials spelt the caller's way). */
const createWith = (body: Json, key: string, headers: Record<string, string>, query = '') =>
  call<EventRecord & Json>(t, 'POST', `/events${query}`, {
    body,
    headers: { 'Idempotency-Key': key, ...headers },
  });

describe('Idempotency-Key', () => {
  it('answers a retried create with the first answer, and creates one event and one venue', async () => {
    const tok = token();
    const key = `create-${tok}`;
    const body = {
      title: `Once ${tok}`,
      start_date: day(3),
      end_date: day(3, '12:00:00'),
      venue: { venue: `Hall ${tok}`, city: 'Lyon' },
    };
    const first = await create(body, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    fx.ids.push(first.body.id);
    const again = await create(body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const listed = await call(t, 'GET', `/events?start_date=2034-02-01&end_date=2034-02-28&search=${tok}`, {
      as: 'editor',
    });
    expect(idsOf(listed)).toEqual([first.body.id]);
    const venues = await call<Json>(t, 'GET', `/venues?search=${tok}`, { as: 'editor' });
    expect((venues.body.venues as Json[]).length).toBe(1);
  });

  it('refuses the same key with a different request (422), and keeps keys apart per caller', async () => {
    const tok = token();
    const key = `reuse-${tok}`;
    const first = await create(
      { title: `First ${tok}`, start_date: day(4), end_date: day(4, '12:00:00') },
      key,
    );
    expect(first.status).toBe(201);
    fx.ids.push(first.body.id);
    const other = await create(
      { title: `Other ${tok}`, start_date: day(4), end_date: day(4, '12:00:00') },
      key,
    );
    expectError(other, 422, 'idempotency_key_reused');
    const author = await create(
      { title: `First ${tok}`, start_date: day(4), end_date: day(4, '12:00:00') },
      key,
      'author',
    );
    expect(author.status).toBe(201);
    expect(author.headers.get('idempotent-replayed')).toBeNull();
    expect(author.body.id).not.toBe(first.body.id);
    fx.ids.push(author.body.id);
  });

  it('replays a refusal too, and names a malformed key as the failing parameter', async () => {
    const tok = token();
    const bad = await create({ title: `No dates ${tok}` }, `bad-${tok}`);
    expect(bad.status).toBe(400);
    const again = await create({ title: `No dates ${tok}` }, `bad-${tok}`);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const malformed = await create({ title: `x ${tok}` }, 'k'.repeat(300));
    expectError(malformed, 400, 'rest_invalid_param');
    expect(Object.keys((malformed.body.data as { params: Json }).params)).toEqual(['Idempotency-Key']);
  });

  it('keeps nothing for an anonymous caller: a retry is refused afresh, never replayed', async () => {
    const tok = token();
    const body = { title: `Anonymous ${tok}`, start_date: day(5), end_date: day(5, '12:00:00') };
    for (let i = 0; i < 2; i++) {
      const res = await createWith(body, `anon-${tok}`, {});
      expectError(res, 401, 'rest_forbidden');
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
  });

  it('keeps no refusal of a caller as a writer: a subscriber or a wrong password is refused afresh', async () => {
    const tok = token();
    const body = { title: `Refused ${tok}`, start_date: day(6), end_date: day(6, '12:00:00') };
    const wrong = `Basic ${Buffer.from('editor:not-the-password').toString('base64')}`;
    for (let i = 0; i < 2; i++) {
      const subscriber = await createWith(body, `sub-${tok}`, { Authorization: t.auth.subscriber });
      expectError(subscriber, 403, 'rest_forbidden');
      expect(subscriber.headers.get('idempotent-replayed')).toBeNull();
      const rejected = await createWith(body, `wrong-${tok}`, { Authorization: wrong });
      expectError(rejected, 401, 'incorrect_password');
      expect(rejected.headers.get('idempotent-replayed')).toBeNull();
    }
  });

  it('refuses the same key with other write arguments in the query (422) instead of replaying', async () => {
    const tok = token();
    const body = { title: `Query ${tok}`, start_date: day(7), end_date: day(7, '12:00:00') };
    const first = await createWith(body, `query-${tok}`, { Authorization: t.auth.editor });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    fx.ids.push(first.body.id);
    const other = await createWith(body, `query-${tok}`, { Authorization: t.auth.editor }, '?status=draft');
    expectError(other, 422, 'idempotency_key_reused');
  });

  it("takes 'basic' for 'Basic': the same user's retry is replayed, not written twice", async () => {
    const tok = token();
    const body = { title: `Scheme ${tok}`, start_date: day(8), end_date: day(8, '12:00:00') };
    const first = await createWith(body, `scheme-${tok}`, { Authorization: t.auth.editor });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    fx.ids.push(first.body.id);
    const lower = t.auth.editor.replace(/^Basic/, 'basic');
    const again = await createWith(body, `scheme-${tok}`, { Authorization: lower });
    if (again.status === 201 && again.body.id !== first.body.id) fx.ids.push(again.body.id);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });
});
