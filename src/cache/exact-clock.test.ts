// The in-process caches with a ttl read the clock on each staleness check (EXACT_CLOCK): lru-cache's default keeps the
// time it read for 1 ms behind a timer, and at a steady rate of reads each read armed one, which woke the event loop
// 1 ms later only to clear it (bench:ceiling-paced; issue 33). ResponseCache's own case is in response-cache.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdempotencyStore } from '../stages/idempotency.ts';
import type { WpClient } from '../wp/client.ts';
import { RecordCache } from '../wp/records.ts';
import { TermCache } from '../wp/terms.ts';
import type { WpPost, WpTerm } from '../wp/types.ts';
import { ReplayGuard } from './notify.ts';

/** Past any time lru-cache kept while filling. */
const pastKeptTime = () => new Promise((r) => setTimeout(r, 5));

let armed: ReturnType<typeof vi.spyOn> | undefined;
const watchTimers = () => {
  armed = vi.spyOn(globalThis, 'setTimeout');
  return armed;
};
afterEach(() => armed?.mockRestore());

describe('in-process caches with a ttl arm no timer to read', () => {
  it('RecordCache (the records a list refill builds from)', async () => {
    const c = new RecordCache(60_000);
    c.set('venue', 'en', { id: 3 } as WpPost);
    await pastKeptTime();
    const timers = watchTimers();
    for (let i = 0; i < 3; i++) expect(c.get('venue', 'en', 3)?.id).toBe(3);
    expect(timers).not.toHaveBeenCalled();
  });

  it('TermCache', async () => {
    const wp = { all: async () => [{ id: 1, name: 'a', slug: 'a' } as WpTerm] } as unknown as WpClient;
    const c = new TermCache(wp);
    const tags = { taxonomy: 'post_tag', restBase: 'tags', hierarchical: false };
    await c.all(tags, 'en');
    await pastKeptTime();
    const timers = watchTimers();
    for (let i = 0; i < 3; i++) expect((await c.all(tags, 'en')).map((t) => t.slug)).toEqual(['a']);
    expect(timers).not.toHaveBeenCalled();
  });

  it('ReplayGuard and IdempotencyStore (in memory, no Redis)', async () => {
    const guard = new ReplayGuard(300);
    expect(await guard.first('sig-1')).toBe(true);
    const store = new IdempotencyStore();
    expect(await store.claim('key-1', 'fp')).toBe('claimed');
    await pastKeptTime();
    const timers = watchTimers();
    // Each answer is read from the memory it was kept in: a read of an entry with a ttl.
    expect(await guard.first('sig-1')).toBe(false);
    expect(await store.claim('key-1', 'fp')).toEqual({ fp: 'fp' });
    expect(timers).not.toHaveBeenCalled();
  });
});
