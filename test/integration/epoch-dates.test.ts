// A date PHP's strtotime reads as the epoch is refused where TEC's `is_time` checks it: strtotime's 0 is falsy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { expectError, type Json } from './fixtures.ts';

let t: Target;

beforeAll(async () => {
  t = await openTarget();
});

afterAll(async () => {
  await t?.close();
});

describe('an epoch date', () => {
  it('is a 400 naming the argument on every list date argument, as TEC answers it', async () => {
    for (const name of [
      'start_date',
      'end_date',
      'starts_before',
      'starts_after',
      'ends_before',
      'ends_after',
    ]) {
      for (const value of ['1970-01-01', '@0', '1970-01-01T01:00:00+01:00']) {
        const res = await call(t, 'GET', `/events?${name}=${encodeURIComponent(value)}`);
        expectError(res, 400, 'rest_invalid_param');
        expect(Object.keys((res.body.data as Json).params as Json)).toEqual([name]);
      }
    }
  });

  it('is accepted as the number 0 and one second later, as TEC accepts them', async () => {
    expect((await call(t, 'GET', '/events?start_date=0&end_date=1')).status).toBe(200);
    expect(
      (await call(t, 'GET', `/events?start_date=${encodeURIComponent('1970-01-01 00:00:01')}`)).status,
    ).toBe(200);
  });

  it('is a 400 on the dates of a write, which writes nothing', async () => {
    const title = `epoch ${Math.random().toString(36).slice(2, 8)}`;
    for (const body of [
      { title, start_date: '1970-01-01', end_date: '2035-01-01 10:00:00' },
      { title, start_date: '2035-01-01 10:00:00', end_date: '1970-01-01 00:00:00' },
      { title, start_date: '2035-01-01 10:00:00', end_date: '2035-01-01 11:00:00', date: '@0' },
      { title, start_date: '2035-01-01 10:00:00', end_date: '2035-01-01 11:00:00', date_utc: '1970-01-01' },
    ]) {
      const res = await call(t, 'POST', '/events', { as: 'admin', body });
      expectError(res, 400, 'rest_invalid_param');
    }
    const venue = await call(t, 'POST', '/venues', {
      as: 'admin',
      body: { venue: title, date: '1970-01-01' },
    });
    expectError(venue, 400, 'rest_invalid_param');
    const found = await call(t, 'GET', `/events?search=${encodeURIComponent(title)}&start_date=2034-01-01`);
    expect(found.body.events).toEqual([]);
  });
});
