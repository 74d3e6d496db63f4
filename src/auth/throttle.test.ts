import { describe, expect, it, vi } from 'vitest';
import { fail, succeed } from '../../test/support/auth-attempts.ts';
import { type AuthLimits, AuthThrottle, claimedUser } from './throttle.ts';

const limits: AuthLimits = {
  perAddress: 8,
  perUserAddress: 3,
  perUser: 6,
  windowMs: 60_000,
  knownMs: 3_600_000,
};

describe('failed sign-ins in memory', () => {
  it('lets one address fail as one user up to the limit, then answers 429 with the time left', async () => {
    const g = new AuthThrottle(limits);
    for (let i = 0; i < 3; i++) expect(await fail(g, 'a', 'admin')).toBe('ok');
    const err = await g.attempt('a', 'admin').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'too_many_auth_attempts', status: 429 });
    const after = (err as { data: { retry_after: number } }).data.retry_after;
    expect(after).toBeGreaterThan(55);
    expect(after).toBeLessThanOrEqual(60);
  });

  it('does not block the same user from another address, or another user from the address', async () => {
    const g = new AuthThrottle(limits);
    for (let i = 0; i < 3; i++) await fail(g, 'a', 'admin');
    expect(await fail(g, 'a', 'admin')).toBe(429);
    expect(await succeed(g, 'b', 'admin')).toBe('ok');
    expect(await fail(g, 'a', 'editor')).toBe('ok');
  });

  it('limits one address across user names', async () => {
    const g = new AuthThrottle(limits);
    for (let i = 0; i < 8; i++) expect(await fail(g, 'a', `user${i}`)).toBe('ok');
    expect(await fail(g, 'a', 'someone-else')).toBe(429);
  });

  it('never counts an accepted sign-in, nor one WordPress did not decide', async () => {
    const g = new AuthThrottle(limits);
    for (let i = 0; i < 10; i++) expect(await succeed(g, 'a', 'admin')).toBe('ok');
    for (let i = 0; i < 10; i++) await (await g.attempt('a', 'admin')).undecided();
    for (let i = 0; i < 3; i++) expect(await fail(g, 'a', 'admin')).toBe('ok');
    expect(await fail(g, 'a', 'admin')).toBe(429);
  });

  it('lets no more than the limit through when failures arrive at once', async () => {
    const g = new AuthThrottle(limits);
    const results = await Promise.all(Array.from({ length: 20 }, () => fail(g, 'a', 'admin')));
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
  });

  it('counts a name that does not exist exactly as one that does', async () => {
    const g = new AuthThrottle(limits);
    const known: Array<'ok' | number> = [];
    const unknown: Array<'ok' | number> = [];
    for (let i = 0; i < 5; i++) known.push(await fail(g, 'a', 'admin'));
    for (let i = 0; i < 5; i++) unknown.push(await fail(g, 'b', 'no-such-user'));
    expect(unknown).toEqual(known);
  });

  it('under attack, slows fresh addresses to one try each, never locking the user out', async () => {
    const g = new AuthThrottle(limits);
    expect(await succeed(g, 'home', 'admin')).toBe('ok');
    // Six addresses fail once each: the name is under attack.
    for (let i = 0; i < 6; i++) expect(await fail(g, `bot${i}`, 'admin')).toBe('ok');
    // A fresh address: one try per window.
    expect(await fail(g, 'bot-new', 'admin')).toBe('ok');
    expect(await fail(g, 'bot-new', 'admin')).toBe(429);
    // The real user from a fresh address, with the right password at the first try, gets in.
    expect(await succeed(g, 'hotel', 'admin')).toBe('ok');
    // From the address it signed in from before, the full allowance still holds (a typo is not a lockout).
    for (let i = 0; i < 3; i++) expect(await fail(g, 'home', 'admin')).toBe('ok');
    expect(await succeed(g, 'hotel', 'admin')).toBe('ok');
    // Another user name is not under attack.
    for (let i = 0; i < 3; i++) expect(await fail(g, 'bot-new', 'editor')).toBe('ok');
  });

  it('opens again when the window ends', async () => {
    vi.useFakeTimers();
    try {
      const g = new AuthThrottle(limits);
      for (let i = 0; i < 3; i++) await fail(g, 'a', 'admin');
      expect(await fail(g, 'a', 'admin')).toBe(429);
      vi.advanceTimersByTime(60_001);
      expect(await fail(g, 'a', 'admin')).toBe('ok');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('claimedUser', () => {
  it("reads Basic's user name and a logged-in cookie's login, lower-cased", () => {
    expect(claimedUser({ kind: 'basic', header: 'Basic x', user: 'Admin' })).toBe('admin');
    const long = claimedUser({ kind: 'basic', header: 'Basic x', user: 'A'.repeat(5000) });
    expect(long).toMatch(/^#[0-9a-f]{64}$/);
    expect(claimedUser({ kind: 'basic', header: 'Basic x', user: 'a'.repeat(5000) })).toBe(long);
    const cookie = 'a=b; wordpress_logged_in_0123abcd=Editor%7C1999999999%7Ctok%7Chmac; c=d';
    expect(claimedUser({ kind: 'cookie', cookie, nonce: 'n' })).toBe('editor');
    expect(claimedUser({ kind: 'cookie', cookie: 'wordpress_logged_in_x=%E0%A4%A|1', nonce: 'n' })).toBe(
      '%e0%a4%a',
    );
  });
});
