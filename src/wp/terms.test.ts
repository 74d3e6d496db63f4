// The term cache: an invalidation while a load runs gives its waiters the new state, not an error.
import { describe, expect, it } from 'vitest';
import type { WpClient } from './client.ts';
import { TermCache } from './terms.ts';
import type { WpTerm } from './types.ts';

const tags = { taxonomy: 'post_tag', restBase: 'tags', hierarchical: false };

describe('TermCache', () => {
  it('answers a caller waiting on a load that an invalidation cut short with a fresh load', async () => {
    const stored: WpTerm[][] = [[{ id: 1, name: 'old', slug: 'old' } as WpTerm]];
    let loads = 0;
    const wp = {
      all: async () => {
        loads++;
        await new Promise((r) => setTimeout(r, 10));
        return stored.at(-1);
      },
    } as unknown as WpClient;
    const cache = new TermCache(wp);
    const waiting = cache.all(tags, 'en');
    // Another write creates a term while the load runs, and drops the cache.
    stored.push([...stored[0]!, { id: 2, name: 'new', slug: 'new' } as WpTerm]);
    cache.invalidate();
    expect((await waiting).map((t) => t.slug)).toEqual(['old', 'new']);
    expect(loads).toBe(2);
  });
});
