// Failed sign-ins (Basic, through the calendar API and the proxy) throttled per address and user name, before
// WordPress is asked; an unknown user name answered as a wrong password; the real user never locked out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.ts';
import type { WpClient } from '../../src/wp/client.ts';
import { ensureSharedRedis, SHARED_REDIS, testPrefix } from '../cache/redis-helper.ts';
import { type CallResult, call, openTarget, type Target } from '../harness.ts';
import { get, peer } from './cache-support.ts';
import { expectError, type Json, token } from './fixtures.ts';

let t: Target;
/** The application password every test user has (read back from the harness's header). */
let password: string;
/** Credentials checks (`users/me`) the gateway sent WordPress. */
let asked = 0;

const tok = token();
let addresses = 0;
/** Each use is a new client address (this gateway trusts X-Forwarded-For from loopback, as behind a local proxy). */
const address = () => `203.0.113.${++addresses}`;
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

/** A signed-in read of the calendar API from `from`. */
const read = (from: string, authorization: string): Promise<CallResult> =>
  call(t, 'GET', '/events?per_page=1', {
    headers: { 'X-Forwarded-For': from, Authorization: authorization },
  });

beforeAll(async () => {
  t = await openTarget({
    trustProxy: 'loopback',
    authFailures: { perAddress: 8, perUserAddress: 3, perUser: 6 },
  });
  password = Buffer.from(t.auth.admin.replace(/^Basic /, ''), 'base64')
    .toString('utf8')
    .split(':')[1]!;
  const wp = t.gateway.deps.wp as WpClient & { request: WpClient['request'] };
  const request = wp.request.bind(wp);
  wp.request = ((o: Parameters<WpClient['request']>[0]) => {
    if (o.path === '/wp/v2/users/me') asked++;
    return request(o);
  }) as WpClient['request'];
});

afterAll(async () => {
  await t?.close();
});

/** The 429 of the throttle: its code, a Retry-After within the window, and no WordPress request made for it. */
async function expectThrottled(res: Promise<CallResult> | CallResult): Promise<void> {
  const before = asked;
  const r = await res;
  expectError(r, 429, 'too_many_auth_attempts');
  const after = Number(r.headers.get('retry-after'));
  expect(after).toBeGreaterThan(0);
  expect(after).toBeLessThanOrEqual(900);
  expect(asked, 'no credentials check upstream').toBe(before);
}

describe('failed sign-ins', () => {
  it('answer 401 up to the limit, then 429 with Retry-After before WordPress is asked, even to the right password', async () => {
    const from = address();
    const wrong = basic('admin', `wrong-${tok}`);
    const before = asked;
    for (let i = 0; i < 3; i++) expectError(await read(from, wrong), 401, 'incorrect_password');
    expect(asked - before).toBe(3);
    await expectThrottled(read(from, wrong));
    await expectThrottled(read(from, basic('admin', `other-${tok}`)));
    // The right password from this address waits too (not known good here: the cache of callers is cleared).
    t.gateway.deps.callers.clear();
    await expectThrottled(read(from, t.auth.admin));
    // From another address, the real user signs in.
    const ok = await read(address(), t.auth.admin);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("cost WordPress no more than the limit: the finding's 500 wrong passwords in bursts of 5", async () => {
    const from = address();
    const before = asked;
    const statuses = new Map<number, number>();
    for (let burst = 0; burst < 100; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) => read(from, basic('admin', `burst-${burst}-${i}-${tok}`))),
      );
      for (const r of answers) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 3, 429: 497 });
    expect(asked - before).toBe(3);
  });

  it('answer an unknown user name exactly as a wrong password, and throttle it the same', async () => {
    const known: Array<[number, unknown]> = [];
    const unknown: Array<[number, unknown]> = [];
    const a = address();
    const b = address();
    for (let i = 0; i < 4; i++) {
      const r = await read(a, basic('editor', `wrong-${tok}`));
      known.push([
        r.status,
        { ...(r.body as Json), data: { ...((r.body as Json).data as Json), retry_after: 0 } },
      ]);
    }
    for (let i = 0; i < 4; i++) {
      const r = await read(b, basic(`nobody-${tok}`, password));
      unknown.push([
        r.status,
        { ...(r.body as Json), data: { ...((r.body as Json).data as Json), retry_after: 0 } },
      ]);
    }
    expect(unknown).toEqual(known);
    expect(known.map(([s]) => s)).toEqual([401, 401, 401, 429]);
  });

  it('limit one address across user names', async () => {
    const from = address();
    for (let i = 0; i < 8; i++)
      expectError(await read(from, basic(`name${i}-${tok}`, 'x')), 401, 'incorrect_password');
    await expectThrottled(read(from, basic(`name9-${tok}`, 'x')));
  });

  it('through the proxy to wp/v2 are checked and throttled the same, before WordPress is asked', async () => {
    const from = address();
    const get = () =>
      fetch(`${t.gateway.url}/wp-json/wp/v2/users/me`, {
        headers: { 'X-Forwarded-For': from, Authorization: basic('author', `wrong-${tok}`) },
      }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }) as CallResult);
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(401);
    await expectThrottled(get());
    // The right password through the proxy, from elsewhere, reaches WordPress.
    const ok = await fetch(`${t.gateway.url}/wp-json/wp/v2/users/me`, {
      headers: { 'X-Forwarded-For': address(), Authorization: t.auth.author },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Json).slug).toBe('author');
  });

  it('under attack from many addresses, slow fresh addresses to one try, and never lock the real user out', async () => {
    // The user signed in from home before the attack.
    const home = address();
    t.gateway.deps.callers.clear();
    expect((await read(home, t.auth.contributor)).status).toBe(200);
    for (let i = 0; i < 6; i++)
      expectError(await read(address(), basic('contributor', `bot-${i}-${tok}`)), 401, 'incorrect_password');
    // A fresh address now gets one try per window.
    const bot = address();
    expectError(await read(bot, basic('contributor', `bot-x-${tok}`)), 401, 'incorrect_password');
    await expectThrottled(read(bot, basic('contributor', `bot-y-${tok}`)));
    // The real user, from a fresh address, with the right password at the first try.
    t.gateway.deps.callers.clear();
    expect((await read(address(), t.auth.contributor)).status).toBe(200);
    // From home, a typo or two is not a lockout.
    for (let i = 0; i < 2; i++)
      expectError(await read(home, basic('contributor', `typo-${i}-${tok}`)), 401, 'incorrect_password');
    t.gateway.deps.callers.clear();
    expect((await read(home, t.auth.contributor)).status).toBe(200);
  });
});

describe('failed cookie sign-ins', () => {
  it('are counted against the login the cookie names, as Basic ones are', async () => {
    const from = address();
    const cookie = (n: number) => ({
      'X-Forwarded-For': from,
      Cookie: `wordpress_logged_in_${tok}=editor%7C4102444800%7Cforged${n}%7Cdeadbeef`,
      'X-WP-Nonce': `nonce${n}`,
    });
    for (let i = 0; i < 3; i++) {
      const r = await call(t, 'GET', '/events?per_page=1', { headers: cookie(i) });
      // WordPress refuses a forged cookie with its nonce (403 rest_cookie_invalid_nonce; the mock knows no cookies).
      expect([401, 403], JSON.stringify(r.body)).toContain(r.status);
    }
    await expectThrottled(call(t, 'GET', '/events?per_page=1', { headers: cookie(9) }));
    // The same login by Basic from this address: the same count.
    await expectThrottled(read(from, basic('editor', `wrong-${tok}`)));
  });
});

describe('two gateways on one Redis', () => {
  const run = testPrefix();
  const peers: Gateway[] = [];
  afterAll(async () => {
    await Promise.all(peers.map((g) => g.close()));
    await run.cleanup();
  });

  it('share the count of failed sign-ins', async () => {
    await ensureSharedRedis();
    const opts = { redisUrl: SHARED_REDIS, redisPrefix: run.prefix, trustProxy: 'loopback' };
    peers.push(...(await Promise.all([peer(t, opts), peer(t, opts)])));
    const [a, b] = peers as [Gateway, Gateway];
    const from = address();
    const headers = { 'X-Forwarded-For': from, Authorization: basic('author', `wrong-${tok}`) };
    // The deployment defaults: five failures of one user name from one address, wherever they land.
    for (let i = 0; i < 5; i++)
      expect((await get(i % 2 ? a.url : b.url, '/events?per_page=1', headers)).status).toBe(401);
    for (const g of [a, b]) {
      const r = await get(g.url, '/events?per_page=1', headers);
      expect([r.status, r.json.code]).toEqual([429, 'too_many_auth_attempts']);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The right password from another address, on either.
    for (const g of [a, b])
      expect(
        (
          await get(g.url, '/events?per_page=1', {
            'X-Forwarded-For': address(),
            Authorization: t.auth.author,
          })
        ).status,
      ).toBe(200);
  });
});
