import { describe, expect, it, vi } from 'vitest';
import { PasswordGuesses } from './guesses.ts';

const limits = { perRecord: 3, perClient: 5, windowMs: 60_000 };

/** Tries one wrong password of `client` at `records`: 'ok' when it was let through, else the error's status. */
async function guess(g: PasswordGuesses, client: string, ...records: string[]): Promise<'ok' | number> {
  try {
    await g.attempt(client, records);
    return 'ok';
  } catch (err) {
    return (err as { status: number }).status;
  }
}

describe('password guesses in memory', () => {
  it('lets a client try a record up to the limit, then answers 429 with the time left in the window', async () => {
    const g = new PasswordGuesses(limits);
    for (let i = 0; i < 3; i++) expect(await guess(g, 'a', 'event:1')).toBe('ok');
    const err = await g.attempt('a', ['event:1']).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'too_many_password_attempts', status: 429 });
    expect((err as { data: { retry_after: number } }).data.retry_after).toBeGreaterThan(55);
    expect((err as { data: { retry_after: number } }).data.retry_after).toBeLessThanOrEqual(60);
  });

  it('does not block another record or another client', async () => {
    const g = new PasswordGuesses(limits);
    for (let i = 0; i < 3; i++) await guess(g, 'a', 'event:1');
    expect(await guess(g, 'a', 'event:1')).toBe(429);
    expect(await guess(g, 'a', 'event:2')).toBe('ok');
    expect(await guess(g, 'b', 'event:1')).toBe('ok');
  });

  it('counts one guess per record tried at once against the client budget', async () => {
    const g = new PasswordGuesses(limits);
    expect(await guess(g, 'a', 'event:1', 'event:2', 'event:3')).toBe('ok');
    expect(await guess(g, 'a', 'event:4', 'event:5')).toBe('ok');
    // Five records tried: the budget is spent, whichever record comes next.
    expect(await guess(g, 'a', 'venue:9')).toBe(429);
    expect(await guess(g, 'b', 'venue:9')).toBe('ok');
  });

  it('refuses a batch that would pass the budget and keeps nothing of it', async () => {
    const g = new PasswordGuesses(limits);
    expect(await guess(g, 'a', 'event:1', 'event:2', 'event:3', 'event:4', 'event:5', 'event:6')).toBe(429);
    expect(await guess(g, 'a', 'event:1', 'event:2', 'event:3', 'event:4', 'event:5')).toBe('ok');
  });

  it('never counts a record given back: a caller who knows the password is never throttled', async () => {
    const g = new PasswordGuesses(limits);
    for (let i = 0; i < 10; i++) {
      const a = await g.attempt('a', ['event:1']);
      await a.refund(['event:1']);
    }
    for (let i = 0; i < 3; i++) expect(await guess(g, 'a', 'event:1')).toBe('ok');
    expect(await guess(g, 'a', 'event:1')).toBe(429);
  });

  it('lets no more than the limit through when guesses arrive at once', async () => {
    const g = new PasswordGuesses(limits);
    const results = await Promise.all(Array.from({ length: 20 }, () => guess(g, 'a', 'event:1')));
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
  });

  it('opens again when the window ends', async () => {
    vi.useFakeTimers();
    try {
      const g = new PasswordGuesses(limits);
      for (let i = 0; i < 3; i++) await guess(g, 'a', 'event:1');
      expect(await guess(g, 'a', 'event:1')).toBe(429);
      vi.advanceTimersByTime(60_001);
      expect(await guess(g, 'a', 'event:1')).toBe('ok');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps at most the given number of counters', async () => {
    const g = new PasswordGuesses(limits, undefined, 10);
    for (let i = 0; i < 3; i++) await guess(g, 'a', 'event:1');
    for (let c = 0; c < 20; c++) await guess(g, `flood-${c}`, 'event:2');
    // Evicted: the oldest counters go first, memory stays bounded.
    expect(await guess(g, 'a', 'event:1')).toBe('ok');
  });
});
