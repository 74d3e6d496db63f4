// The in-process tier's byte budget counts what its entries keep beside their bodies: gzip copies and shaped forms.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gzipOf } from '../http/answer.ts';
import { shaped } from '../stages/shape.ts';
import { type CacheEntry, makeEntry } from './entry.ts';
import { ResponseCache } from './response-cache.ts';

const policy = { ttlSeconds: 60, staleWhileRevalidateSeconds: 5, staleIfErrorSeconds: 60 };

/** A JSON list of 20 KB that gzip halves (hex text: 4 bits of entropy a byte), so copies weigh. */
const body = () => JSON.stringify({ events: [{ id: 1, text: randomBytes(10_000).toString('hex') }] });

/** What lru-cache counts for one entry's body (src/cache/response-cache.ts's sizeCalculation). */
const bodyCost = (key: string, e: CacheEntry) => e.body.length + key.length + 256;

async function gzipped(e: CacheEntry): Promise<number> {
  for (;;) {
    // A stored answer's gzip is made off the event loop on its first demand: null until it is ready.
    const gz = gzipOf(e, true);
    if (gz) return gz.body.length;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function filled(cache: ResponseCache, n: number): Promise<Array<[string, CacheEntry]>> {
  const out: Array<[string, CacheEntry]> = [];
  for (let i = 0; i < n; i++) {
    const key = `events.list|en|anonymous|x|page=${i}`;
    const entry = makeEntry(body(), { tags: ['list:event'] });
    await cache.get(key, async () => ({ entry, store: true }));
    out.push([key, entry]);
  }
  return out;
}

describe('the byte budget of the in-process cache', () => {
  it('counts the gzip copy of each entry in its bytes', async () => {
    const cache = new ResponseCache({ policy, maxBytes: 8 * 1024 * 1024 });
    const entries = await filled(cache, 3);
    const plain = entries.reduce((n, [k, e]) => n + bodyCost(k, e), 0);
    expect(cache.size.bytes).toBe(plain);
    let gz = 0;
    for (const [, e] of entries) gz += await gzipped(e);
    expect(gz).toBeGreaterThan(0);
    expect(cache.size.bytes).toBe(plain + gz);
    // An entry dropped takes its copy's bytes with it.
    await cache.invalidate(['list:event']);
    expect(cache.size).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('evicts the least recently used entries once bodies and their gzip copies pass the budget', async () => {
    // Room for 8 bodies of ~20 KB, not for 8 bodies and their ~10 KB gzips.
    const max = 200 * 1024;
    const cache = new ResponseCache({ policy, maxBytes: max });
    const entries = await filled(cache, 8);
    expect(entries.every(([k]) => cache.peek(k) !== undefined)).toBe(true);
    const gz = new Map<string, number>();
    for (const [k, e] of entries) gz.set(k, await gzipped(e));
    // What is still held, counted with its copy, fits; the oldest went first.
    const held = entries.filter(([k]) => cache.peek(k) !== undefined);
    expect(held.length).toBeLessThan(8);
    expect(cache.peek(entries[0]![0])).toBeUndefined();
    expect(cache.peek(entries[7]![0])).toBeDefined();
    const real = held.reduce((n, [k, e]) => n + bodyCost(k, e) + (gz.get(k) ?? 0), 0);
    expect(real).toBeLessThanOrEqual(max);
    expect(cache.size.bytes).toBe(real);
  });

  it("counts an entry's shaped forms and their gzip copies, and forgets them with the entry", async () => {
    const cache = new ResponseCache({ policy, maxBytes: 8 * 1024 * 1024 });
    const [[key, entry]] = (await filled(cache, 1)) as [[string, CacheEntry]];
    const before = cache.size.bytes;
    const enveloped = shaped(entry, { envelope: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.size.bytes).toBe(before + enveloped.body.length);
    const gz = gzipOf(enveloped);
    expect(gz).not.toBeNull();
    expect(cache.size.bytes).toBe(before + enveloped.body.length + (gz?.body.length ?? 0));
    cache.dropLocal(['list:event']);
    expect(cache.peek(key)).toBeUndefined();
    expect(cache.size.bytes).toBe(0);
  });

  it('keeps counting a stale entry served while its refresh runs, then counts the new one alone', async () => {
    const clock = { t: 1_000_000 };
    const cache = new ResponseCache({ policy, maxBytes: 8 * 1024 * 1024, now: () => clock.t });
    const key = 'events.list|en|anonymous|x|page=1';
    const old = makeEntry(body(), { tags: ['list:event'], now: clock.t });
    await cache.get(key, async () => ({ entry: old, store: true }));
    const gz = await gzipped(old);
    expect(cache.size.bytes).toBe(bodyCost(key, old) + gz);
    // Past its TTL, inside stale-while-revalidate: the old entry is answered while the refresh runs.
    clock.t += (policy.ttlSeconds + 1) * 1000;
    let finish = () => {};
    const fresh = makeEntry(body(), { tags: ['list:event'], now: clock.t });
    const got = await cache.get(
      key,
      () => new Promise((r) => (finish = () => r({ entry: fresh, store: true }))),
    );
    expect(got.entry).toBe(old);
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.size.bytes).toBe(bodyCost(key, old) + gz);
    finish();
    await new Promise((r) => setTimeout(r, 10));
    expect(cache.peek(key)).toBe(fresh);
    expect(cache.size.bytes).toBe(bodyCost(key, fresh));
  });

  it('counts only the shaped forms an entry still keeps (16 at most), not those it let go', async () => {
    const cache = new ResponseCache({ policy, maxBytes: 8 * 1024 * 1024 });
    const [[key, entry]] = (await filled(cache, 1)) as [[string, CacheEntry]];
    const forms = Array.from({ length: 20 }, (_, i) => shaped(entry, { envelope: true, jsonp: `cb${i}` }));
    await new Promise((r) => setTimeout(r, 0));
    const kept = forms.slice(-16).reduce((n, f) => n + f.body.length, 0);
    expect(cache.size.bytes).toBe(bodyCost(key, entry) + kept);
  });
});
