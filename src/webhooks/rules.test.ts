// The pure rules of webhooks: the schedule, Retry-After, outcomes, the address ranges refused, signatures, payloads.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { LoggedChange } from '../changes/types.ts';
import { checkedAddresses, refusedAddress, urlProblem } from './guard.ts';
import { actionFor, messageId, payloadOf } from './payload.ts';
import { failedTooLong, nextDelay, outcomeOf, RETRY_SCHEDULE_MS, retryAfterMs } from './schedule.ts';
import { newSecret, signedHeaders } from './signing.ts';
import type { Subscription } from './types.ts';

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up', () => {
    const mid = () => 0.5;
    expect(RETRY_SCHEDULE_MS.map((_, i) => nextDelay(i + 1, 1, mid))).toEqual([
      5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5,
    ]);
    expect(nextDelay(10, 1, mid)).toBeNull();
  });

  it('jitters each wait by at most 10 %, and compresses it by the scale', () => {
    expect(nextDelay(1, 1, () => 0)).toBe(4500);
    expect(nextDelay(1, 1, () => 0.999999)).toBeCloseTo(5500, -1);
    expect(nextDelay(2, 0.001, () => 0.5)).toBe(300);
  });

  it('reads Retry-After as seconds or an HTTP date, bounded to a day', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('999999999', now)).toBe(86_400_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('counts only a 2xx as delivered; a 3xx fails; 410 means gone', () => {
    expect([200, 204, 299, 301, 302, 304, 400, 410, 429, 500].map(outcomeOf)).toEqual([
      'success',
      'success',
      'success',
      'failure',
      'failure',
      'failure',
      'failure',
      'gone',
      'failure',
      'failure',
    ]);
  });

  it('disables an endpoint after 5 days of failures, not before', () => {
    const day = 86_400_000;
    expect(failedTooLong(null, 10 * day, 1)).toBe(false);
    expect(failedTooLong(0, 5 * day - 1, 1)).toBe(false);
    expect(failedTooLong(0, 5 * day, 1)).toBe(true);
  });
});

describe('the address guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    ['2001::1', 'teredo'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddress(address)).toContain(`(${range})`);
  });

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'lets %s through',
    (a) => {
      expect(refusedAddress(a)).toBeNull();
    },
  );

  it('refuses a name if any of its addresses is not public', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    await expect(checkedAddresses('mixed.test', resolve)).rejects.toThrow(
      /10\.0\.0\.1 is in a non-public range/,
    );
    await expect(checkedAddresses('[::1]', resolve)).rejects.toThrow(/loopback/);
  });

  it('takes https only, unless private targets are allowed; never credentials in the URL', () => {
    expect(urlProblem('http://example.com/hook', false)).toMatch(/must be https/);
    expect(urlProblem('http://127.0.0.1:9/hook', true)).toBeNull();
    expect(urlProblem('https://u:p@example.com/', false)).toMatch(/user name or password/);
    expect(urlProblem('ftp://example.com/', true)).toMatch(/http or https/);
    expect(urlProblem('/relative', false)).toMatch(/absolute/);
  });
});

describe('signatures and payloads', () => {
  const change: LoggedChange = {
    cursor: '1700000000000-0',
    kind: 'event',
    id: 42,
    action: 'updated',
    modified_utc: '2026-01-01 10:00:00',
    rest_url: 'http://x.test/wp-json/calendar/events/v1/events/42',
    tags: ['event:42', 'list:event'],
    public: true,
  };
  const sub = (p: boolean) => ({ private: p }) as Subscription;

  it('signs as the standardwebhooks package verifies, with every secret of a rotation', () => {
    const [a, b] = [newSecret(), newSecret()];
    const body = payloadOf(change, 'updated', Date.UTC(2026, 0, 1));
    const ts = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([b, a], 'msg_1', ts, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    // Both the old and the new secret verify during a rotation; a stranger's does not.
    expect(new Webhook(a).verify(body, headers)).toMatchObject({ type: 'event.updated', data: { id: 42 } });
    expect(new Webhook(b).verify(body, headers)).toMatchObject({ type: 'event.updated' });
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(`${body} `, headers)).toThrow();
  });

  it('is thin: type, timestamp, and where the record is', () => {
    expect(JSON.parse(payloadOf(change, 'deleted', Date.UTC(2026, 0, 1)))).toEqual({
      type: 'event.deleted',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: {
        kind: 'event',
        id: 42,
        rest_url: change.rest_url,
        modified_utc: change.modified_utc,
        tags: change.tags,
      },
    });
  });

  it('tells a public subscription only what the public saw, and a record leaving its view as a deletion', () => {
    const hidden = { ...change, public: false };
    expect(actionFor(change, sub(false), false)).toBe('updated');
    expect(actionFor(hidden, sub(false), false)).toBeNull();
    expect(actionFor(hidden, sub(false), true)).toBe('deleted');
    expect(actionFor({ ...change, action: 'deleted', public: false }, sub(false), false)).toBeNull();
    expect(actionFor(hidden, sub(true), false)).toBe('updated');
  });

  it('gives a change the same message id each time it is fanned out to a subscription', () => {
    expect(messageId('wh_1', '1-0')).toBe(messageId('wh_1', '1-0'));
    expect(messageId('wh_1', '1-0')).not.toBe(messageId('wh_2', '1-0'));
    expect(messageId('wh_1', '1-0')).toMatch(/^msg_[\w-]{27}$/);
  });
});
