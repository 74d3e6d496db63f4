// The in-memory side of the window counters (Redis's is test/cache/auth-throttle.test.ts): bounded by count.
import { describe, expect, it } from 'vitest';
import { WindowCounters } from './counters.ts';

describe('WindowCounters in memory', () => {
  it('keeps at most memoryKeys counters, dropping the least recently used first', async () => {
    const counters = new WindowCounters('t:', undefined, 3);
    for (const key of ['a', 'b', 'c']) await counters.add(key, 1, 60_000);
    await counters.add('a', 1, 60_000);
    // A fourth key drops b, the one used longest ago; a keeps its count.
    await counters.add('d', 1, 60_000);
    expect((await counters.add('a', 0, 60_000)).n).toBe(2);
    expect((await counters.add('d', 0, 60_000)).n).toBe(1);
    expect((await counters.add('b', 0, 60_000)).n).toBe(0);
  });
});
