// A list miss costs one upstream request once the short-lived caches are warm (docs/benchmarks.md: "exactly one").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, freshTermLists, openTarget, type Target } from '../harness.ts';

let t: Target;

beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

describe('upstream cost of a list', () => {
  it('reads only the page of events from WordPress on a cache miss once the caches are warm', async () => {
    const warm = await call(t, 'GET', '/events?per_page=10');
    expect(warm.status).toBe(200);
    // The warm list may have been a cached answer that loaded no terms: a stale term list's refresh is not this
    // list's cost (CI saw a `/wp/v2/tags` refresh here).
    await freshTermLists(t);
    const spy = vi.spyOn(t.gateway.deps.wp, 'request');
    try {
      // Another query string is another cache key: a miss that the index answers, then one `include=` read.
      const miss = await call(t, 'GET', '/events?per_page=10&page=1&featured=0');
      expect(miss.status).toBe(200);
      const paths = spy.mock.calls.map(([req]) => req.path);
      expect(paths).toEqual([`/wp/v2/${t.mapping.event.restBase}`]);
      expect(spy.mock.calls[0]![0].query?.include).toBeDefined();
    } finally {
      spy.mockRestore();
    }
  });

  it('answers a cached list with no upstream request at all', async () => {
    await call(t, 'GET', '/events?per_page=5');
    const spy = vi.spyOn(t.gateway.deps.wp, 'request');
    try {
      expect((await call(t, 'GET', '/events?per_page=5')).status).toBe(200);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
