// A list miss asks WordPress only for the events it does not hold (src/events/held.ts): none when it holds them all,
// at most one `include=` read of the missing ones otherwise. Cache-busting parameters cost no upstream call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshTermLists, openTarget, requestsDuring, type Target } from '../harness.ts';
import { idsOf } from './fixtures.ts';

let t: Target;

beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

/**
 * The upstream calls `run` makes for requests, path and `include` of each (`requestsDuring`: the background jobs'
 * service-account reads are left out; CI once counted the change log's start-up reconciliation, reading `/wp/v2/tags`
 * late on a loaded machine, as this list's call). The term lists are loaded fresh first: they live 30 s and are
 * refreshed in the background once stale, and such a refresh is not the list's cost.
 */
async function upstreamCalls(run: () => Promise<void>): Promise<Array<{ path: string; include?: unknown }>> {
  await freshTermLists(t);
  const calls = await requestsDuring(t.gateway, run);
  return calls.map((req) => ({ path: req.path, include: req.query?.include }));
}

describe('upstream cost of a list', () => {
  it('reads from WordPress only the events of a miss it does not hold, in one include= read', async () => {
    const warm = await call(t, 'GET', '/events?per_page=12');
    expect(warm.status).toBe(200);
    const ids = idsOf(warm);
    expect(ids.length).toBeGreaterThan(4);
    // Three of them change (as an invalidation of their tags says): only those are read again.
    const changed = ids.slice(1, 4);
    t.gateway.deps.records!.drop(changed.map((id) => `event:${id}`));
    const calls = await upstreamCalls(async () => {
      const miss = await call(t, 'GET', '/events?per_page=11');
      expect(miss.status).toBe(200);
    });
    expect(calls.map((c) => c.path)).toEqual([`/wp/v2/${t.mapping.event.restBase}`]);
    expect([...(calls[0]!.include as number[])].sort()).toEqual([...changed].sort());
  });

  it('makes no upstream call for a list miss whose events are all held', async () => {
    const all = await call(t, 'GET', '/events?per_page=50');
    expect(all.status).toBe(200);
    const calls = await upstreamCalls(async () => {
      // New parameter combinations over the same events: each is a cache miss built from held events.
      for (const [perPage, page] of [
        [5, 2],
        [7, 3],
        [3, 1],
        [10, 4],
      ]) {
        const res = await call(t, 'GET', `/events?per_page=${perPage}&page=${page}`);
        expect(res.status).toBe(200);
        expect(idsOf(res)).toEqual(idsOf(all).slice((page! - 1) * perPage!, page! * perPage!));
      }
    });
    expect(calls).toEqual([]);
  });

  it('makes at most one upstream call for 60 reads of one list with 60 junk parameters', async () => {
    const calls = await upstreamCalls(async () => {
      for (let n = 0; n < 60; n++) {
        const junk = ['utm_source', 'fbclid', 'gclid', `x${n}`][n % 4];
        expect((await call(t, 'GET', `/events?per_page=7&${junk}=${n}`)).status).toBe(200);
      }
    });
    expect(calls.length).toBeLessThanOrEqual(1);
  });

  it('answers a cached list with no upstream request at all', async () => {
    await call(t, 'GET', '/events?per_page=5');
    const calls = await upstreamCalls(async () => {
      expect((await call(t, 'GET', '/events?per_page=5')).status).toBe(200);
    });
    expect(calls).toEqual([]);
  });
});
