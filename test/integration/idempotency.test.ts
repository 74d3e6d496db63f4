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
});
