// The in-process tier: one load per key, stale-while-revalidate, stale-if-error, tags, races with invalidation.
import { describe, expect, it, vi } from 'vitest';
import { makeEntry } from './entry.ts';
import { type Loaded, ResponseCache } from './response-cache.ts';

const policy = { ttlSeconds: 10, staleWhileRevalidateSeconds: 5, staleIfErrorSeconds: 60 };

function setup() {
  const clock = { t: 1_000_000 };
  const cache = new ResponseCache({ policy, now: () => clock.t });
  let loads = 0;
  const loader =
    (body: string, tags: string[] = ['list:event'], store = true) =>
    async (): Promise<Loaded> => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return { entry: makeEntry(body, { tags, now: clock.t }), store };
    };
  return { clock, cache, loader, loads: () => loads };
}

const text = (e: { body: Buffer }) => e.body.toString();

describe('ResponseCache (in-process tier)', () => {
  it("reads a stored answer without arming a timer: lru-cache's clock is read each time, not kept behind one", async () => {
    const { cache, loader } = setup();
    await cache.get('k', loader('a'));
    // Past any time lru-cache kept while loading (its default keeps one for 1 ms, with a timer to forget it).
    await new Promise((r) => setTimeout(r, 5));
    const armed = vi.spyOn(globalThis, 'setTimeout');
    try {
      for (let i = 0; i < 3; i++) expect(cache.peek('k')).toBeDefined();
      // At a steady rate of cached reads, each read armed one, and each woke the event loop 1 ms later to clear it.
      expect(armed).not.toHaveBeenCalled();
    } finally {
      armed.mockRestore();
    }
  });

  it('loads once for many concurrent requests of one key', async () => {
    const { cache, loader, loads } = setup();
    const all = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', loader('a'))));
    expect(loads()).toBe(1);
    expect(all.every((r) => text(r.entry) === 'a')).toBe(true);
  });

  it('runs a load once when the key is dropped while it runs (a purge, or the whole-L1 drop of a stream gap)', async () => {
    const { cache, loader, loads } = setup();
    // A cold key each time: the drop makes lru-cache give up the fetch while its load runs.
    for (const drop of [() => cache.purgeAll(), () => cache.invalidate(['list:event'])]) {
      const pending = cache.get(`cold-${loads()}`, loader('fresh'));
      await new Promise((r) => setTimeout(r, 1));
      await drop();
      const got = await pending;
      expect(text(got.entry)).toBe('fresh');
      expect(got.shared).toBe(false);
    }
    // Each of the two requests ran its load once: before the fix the second call of `load` ran the stages again.
    expect(loads()).toBe(2);
  });

  it('loads a failing cold key once: every caller waiting on it gets that error, no second load', async () => {
    const { cache } = setup();
    let calls = 0;
    const failing = async (): Promise<Loaded> => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('upstream timed out');
    };
    const all = await Promise.allSettled(Array.from({ length: 5 }, () => cache.get('k', failing)));
    expect(all.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect(all.map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(
      Array(5).fill('upstream timed out'),
    );
    expect(calls).toBe(1);
    // A later request tries again.
    await expect(cache.get('k', failing)).rejects.toThrow('upstream timed out');
    expect(calls).toBe(2);
  });

  it('answers a fresh hit synchronously from peek', async () => {
    const { cache, loader } = setup();
    await cache.get('k', loader('a'));
    expect(text(cache.peek('k')!)).toBe('a');
  });

  it('serves the stale copy inside stale-while-revalidate while one refresh runs', async () => {
    const { clock, cache, loader, loads } = setup();
    await cache.get('k', loader('old'));
    clock.t += 12_000;
    expect(cache.peek('k')).toBeUndefined();
    const r = await cache.get('k', loader('new'));
    expect(text(r.entry)).toBe('old');
    await new Promise((r) => setTimeout(r, 20));
    expect(loads()).toBe(2);
    expect(text(cache.peek('k')!)).toBe('new');
  });

  it('waits for the upstream once the stale-while-revalidate window has passed', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    clock.t += 20_000;
    expect(text((await cache.get('k', loader('new'))).entry)).toBe('new');
  });

  it('serves the stale copy inside stale-if-error when the upstream fails', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    clock.t += 30_000;
    const failing = async (): Promise<Loaded> => {
      throw new Error('upstream down');
    };
    expect(text((await cache.get('k', failing)).entry)).toBe('old');
  });

  it('passes the error on once stale-if-error has passed', async () => {
    const { clock, cache, loader } = setup();
    await cache.get('k', loader('old'));
    clock.t += 80_000;
    await expect(
      cache.get('k', async () => {
        throw new Error('upstream down');
      }),
    ).rejects.toThrow('upstream down');
  });

  it('never stores what the loader marks as not shareable', async () => {
    const { cache, loader, loads } = setup();
    const r = await cache.get('k', loader('404', [], false));
    expect(r.shared).toBe(false);
    expect(text(r.entry)).toBe('404');
    expect(cache.peek('k')).toBeUndefined();
    await cache.get('k', loader('404', [], false));
    expect(loads()).toBe(2);
  });

  it('drops exactly the entries carrying an invalidated tag', async () => {
    const { cache, loader } = setup();
    await cache.get('list', loader('l', ['list:event', 'event:1']));
    await cache.get('one', loader('1', ['event:1']));
    await cache.get('two', loader('2', ['event:2']));
    await cache.invalidate(['event:1']);
    expect(cache.peek('list')).toBeUndefined();
    expect(cache.peek('one')).toBeUndefined();
    expect(text(cache.peek('two')!)).toBe('2');
  });

  it('does not store a load that raced an invalidation of one of its tags', async () => {
    const { cache, loader } = setup();
    const pending = cache.get('k', loader('before-write', ['event:1']));
    await cache.invalidate(['event:1']);
    expect(text((await pending).entry)).toBe('before-write');
    expect(cache.peek('k')).toBeUndefined();
  });

  it('does not store a load that raced a purge', async () => {
    const { cache, loader } = setup();
    const pending = cache.get('k', loader('before', ['event:9']));
    await cache.purgeAll();
    await pending;
    expect(cache.peek('k')).toBeUndefined();
  });

  it('stays within its byte budget', async () => {
    const cache = new ResponseCache({ policy, maxBytes: 10_000 });
    for (let i = 0; i < 50; i++) {
      await cache.get(`k${i}`, async () => ({ entry: makeEntry('x'.repeat(1000)), store: true }));
    }
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.size.entries).toBeLessThan(50);
  });

  it('stores nothing with a held tag until released, then drops what L1 had', async () => {
    const { cache, loader } = setup();
    await cache.get('kept', loader('k', ['event:2']));
    const release = cache.hold(['list:event']);
    const r = await cache.get('list', loader('from an old index', ['list:event']));
    expect(text(r.entry)).toBe('from an old index');
    expect(cache.peek('list')).toBeUndefined();
    release();
    await cache.get('list', loader('fresh', ['list:event']));
    expect(text(cache.peek('list')!)).toBe('fresh');
    expect(text(cache.peek('kept')!)).toBe('k');
  });
});
