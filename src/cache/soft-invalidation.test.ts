// Soft invalidation in the in-process tier: the previous answer for a second while one refill runs (longer, bounded,
// while it is slow), never as fresh.
import { describe, expect, it } from 'vitest';
import { makeEntry } from './entry.ts';
import { isSoft, type Loaded, ResponseCache } from './response-cache.ts';
import { SOFT_REFILLS } from './soft-marks.ts';

const policy = { ttlSeconds: 60, staleWhileRevalidateSeconds: 30, staleIfErrorSeconds: 300 };

function setup(softStaleMs = 1000) {
  const clock = { t: 1_000_000 };
  const cache = new ResponseCache({ policy, now: () => clock.t, softStaleMs });
  let loads = 0;
  const loader =
    (body: string, tags: string[] = ['list:event', 'event:1'], delayMs = 5) =>
    async (): Promise<Loaded> => {
      loads++;
      await new Promise((r) => setTimeout(r, delayMs));
      return { entry: makeEntry(body, { tags, now: clock.t }), store: true };
    };
  return { clock, cache, loader, loads: () => loads };
}

const text = (e: { body: Buffer }) => e.body.toString();
const settle = () => new Promise((r) => setTimeout(r, 30));

describe('soft invalidation', () => {
  it('serves the previous answer, unshared, to every reader inside the window while exactly one refill runs', async () => {
    const { cache, loader, loads } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    // The fast path (peek) never takes it for fresh.
    expect(cache.peek('k')).toBeUndefined();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => cache.get('k', loader('new', undefined, 20))),
    );
    expect(all.map((r) => text(r.entry))).toEqual(Array(20).fill('old'));
    expect(all.every((r) => r.shared === false)).toBe(true);
    await settle();
    expect(loads()).toBe(2);
    expect(text(cache.peek('k')!)).toBe('new');
    expect(cache.stats.soft).toBe(20);
  });

  it('makes readers wait for the refill once the window has passed', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    clock.t += 1000;
    const r = await cache.get('k', loader('new'));
    expect(text(r.entry)).toBe('new');
    expect(r.shared).toBe(true);
  });

  it('never serves the previous answer after a hard invalidation', async () => {
    const { cache, loader } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1']);
    expect(text((await cache.get('k', loader('new'))).entry)).toBe('new');
  });

  it('drops hard when the soft window is 0', async () => {
    const { cache, loader } = setup(0);
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    expect(text((await cache.get('k', loader('new'))).entry)).toBe('new');
  });

  it('is not stretched by a second write inside the window', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    clock.t += 800;
    await cache.invalidate(['list:event'], { soft: true });
    clock.t += 300;
    expect(text((await cache.get('k', loader('new'))).entry)).toBe('new');
  });

  it('keeps a refill that raced a later soft invalidation only as the previous answer, and refills again', async () => {
    const { cache, loader, loads } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    const first = cache.get('k', loader('before the second write', undefined, 30));
    await new Promise((r) => setTimeout(r, 5));
    await cache.invalidate(['list:event'], { soft: true });
    expect(text((await first).entry)).toBe('old');
    await settle();
    // Never fresh, never shared: it does not show the second write.
    expect(cache.peek('k')).toBeUndefined();
    const next = await cache.get('k', loader('after'));
    expect(text(next.entry)).toBe('before the second write');
    expect(next.shared).toBe(false);
    await settle();
    expect(text(cache.peek('k')!)).toBe('after');
    expect(loads()).toBe(3);
  });

  it('serves the previous answer past the window while its refill still runs, counted as late', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    expect(text((await cache.get('k', loader('new', undefined, 100))).entry)).toBe('old');
    clock.t += 1500;
    const late = await cache.get('k', loader('unused'));
    expect(text(late.entry)).toBe('old');
    expect(late.shared).toBe(false);
    expect(cache.stats.softLate).toBe(1);
    await new Promise((r) => setTimeout(r, 150));
    expect(text(cache.peek('k')!)).toBe('new');
  });

  it('keeps serving a key whose refill raced a later write and ended past the window, while the next refill runs', async () => {
    const { clock, cache, loader, loads } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    const first = cache.get('k', loader('before the second write', undefined, 30));
    await new Promise((r) => setTimeout(r, 5));
    await cache.invalidate(['list:event'], { soft: true });
    // The refill is slower than the window: it ends 1.5 s after it started, and no refill runs when the next reader comes.
    clock.t += 1500;
    expect(text((await first).entry)).toBe('old');
    await settle();
    const next = await cache.get('k', loader('after', undefined, 30));
    expect(text(next.entry)).toBe('before the second write');
    expect(next.shared).toBe(false);
    expect(cache.stats.softLate).toBe(1);
    await settle();
    await settle();
    expect(text(cache.peek('k')!)).toBe('after');
    expect(loads()).toBe(3);
  });

  it('keeps serving a key that waited for a refill slot until past the window; the next reader starts its refill', async () => {
    const { clock, cache, loader } = setup();
    const keys = ['a', 'b', 'c'];
    for (const k of keys) await cache.get(k, loader(`old ${k}`));
    await cache.invalidate(['list:event'], { soft: true });
    const running = keys.slice(0, SOFT_REFILLS).map((k) => cache.get(k, loader(`new ${k}`, undefined, 40)));
    expect(text((await cache.get('c', loader('unused'))).entry)).toBe('old c');
    clock.t += 1500;
    await Promise.all(running);
    await new Promise((r) => setTimeout(r, 60));
    // A slot is free now, past the window: the reader gets the previous answer and the refill runs meanwhile.
    const next = await cache.get('c', loader('new c', undefined, 20));
    expect(text(next.entry)).toBe('old c');
    expect(cache.stats.softLate).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(text(cache.peek('c')!)).toBe('new c');
    // A key nobody read during its window still makes its first reader wait (the test above of that name).
  });

  it('makes readers wait for the running refill once the bound (10 s) has passed', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['event:1'], { soft: true });
    await cache.get('k', loader('new', undefined, 60));
    clock.t += 10_000;
    expect(text((await cache.get('k', loader('unused'))).entry)).toBe('new');
  });

  it(`refills at most ${SOFT_REFILLS} softly invalidated keys at once; the others keep their previous answer`, async () => {
    const { cache, loader, loads } = setup();
    const keys = ['a', 'b', 'c', 'd', 'e'];
    for (const k of keys) await cache.get(k, loader(`old ${k}`));
    await cache.invalidate(['list:event'], { soft: true });
    const served = await Promise.all(keys.map((k) => cache.get(k, loader(`new ${k}`, undefined, 40))));
    expect(served.map((r) => text(r.entry))).toEqual(keys.map((k) => `old ${k}`));
    expect(loads()).toBe(keys.length + SOFT_REFILLS);
    await new Promise((r) => setTimeout(r, 80));
    expect(keys.filter((k) => cache.peek(k) !== undefined)).toHaveLength(SOFT_REFILLS);
    // The next readers of the others start their refills, a few at a time.
    for (let i = 0; i < 3; i++) {
      await Promise.all(keys.map((k) => cache.get(k, loader(`new ${k}`, undefined, 10))));
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(keys.map((k) => text(cache.peek(k)!))).toEqual(keys.map((k) => `new ${k}`));
  });

  it('answers synchronously (peekSoft, the fast path) only what get would serve without starting anything', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    expect(cache.peekSoft('k')).toBeUndefined(); // fresh: peek's, not this
    await cache.invalidate(['event:1'], { soft: true });
    // No refill runs yet: the first reader must go through get, which starts it.
    expect(cache.peekSoft('k')).toBeUndefined();
    const first = cache.get('k', loader('new', undefined, 60));
    expect(text(cache.peekSoft('k')!)).toBe('old');
    clock.t += 1500; // past the window, the refill still running: late, still served
    expect(text(cache.peekSoft('k')!)).toBe('old');
    expect(cache.stats).toMatchObject({ soft: 2, softLate: 1 });
    clock.t += 10_000; // past the bound: the reader waits for the refill through get
    expect(cache.peekSoft('k')).toBeUndefined();
    expect(text((await first).entry)).toBe('old');
    await settle();
    await new Promise((r) => setTimeout(r, 60));
    expect(cache.peekSoft('k')).toBeUndefined();
    expect(text(cache.peek('k')!)).toBe('new');
  });

  it('answers synchronously for a key whose refill waits for a slot, never after a hard drop', async () => {
    const { cache, loader } = setup();
    const keys = ['a', 'b', 'c'];
    for (const k of keys) await cache.get(k, loader(`old ${k}`));
    await cache.invalidate(['list:event'], { soft: true });
    const running = keys.slice(0, SOFT_REFILLS).map((k) => cache.get(k, loader(`new ${k}`, undefined, 40)));
    // Every slot is taken: `c` keeps its previous answer, as get would serve it, and starts no refill.
    expect(text(cache.peekSoft('c')!)).toBe('old c');
    await cache.invalidate(['list:event']);
    expect(keys.map((k) => cache.peekSoft(k))).toEqual([undefined, undefined, undefined]);
    await Promise.all(running);
  });

  it('does not store a load that started before the invalidation, even when its tags do not show it', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    // Stale by TTL: a refresh starts, whose answer no longer carries event:1.
    clock.t += 61_000;
    const refresh = cache.get('k', loader('refreshed', ['list:event'], 30));
    await new Promise((r) => setTimeout(r, 5));
    await cache.invalidate(['event:1'], { soft: true });
    await refresh;
    await settle();
    expect(cache.peek('k')).toBeUndefined();
  });

  it('never serves the previous answer once a hard invalidation follows a soft one', async () => {
    const { cache, loader } = setup();
    await cache.get('k', loader('old'));
    await cache.invalidate(['list:event'], { soft: true });
    await cache.invalidate(['event:1']);
    expect(text((await cache.get('k', loader('new'))).entry)).toBe('new');
  });

  it('drops hard when tags merged from a soft and a hard invalidation travel together', () => {
    expect(isSoft(['list:event', '!soft'])).toBe(true);
    expect(isSoft(['list:event', '!soft', '!hard'])).toBe(false);
    expect(isSoft(['list:event'])).toBe(false);
  });
});
