import { describe, expect, it } from 'vitest';
import type { Deps } from '../deps.ts';
import { createLogger } from '../log.ts';
import type { SiteFacts } from '../wp/probe.ts';
import { refreshSite } from './refresh.ts';

/** A site whose REST index answers `root`, and a cache that counts its purges. */
function fixture(root: Record<string, unknown>) {
  const purges: number[] = [];
  const site = { name: 'Old', timezone: 'Europe/Madrid' } as SiteFacts;
  const deps = {
    wp: { request: async () => ({ body: root }) },
    site,
    cache: { purgeAll: async () => void purges.push(1) },
    log: createLogger('silent'),
  } as unknown as Pick<Deps, 'wp' | 'site' | 'cache' | 'log'>;
  return { deps, site, purges };
}

describe('refreshSite', () => {
  it('takes a new name and time zone and purges every cached answer', async () => {
    const f = fixture({ name: 'New', timezone_string: 'Asia/Tokyo' });
    expect(await refreshSite(f.deps)).toBe(true);
    expect([f.site.name, f.site.timezone, f.purges.length]).toEqual(['New', 'Asia/Tokyo', 1]);
  });

  it('reads an offset-only zone as WordPress gives it', async () => {
    const f = fixture({ name: 'Old', timezone_string: '', gmt_offset: 5.5 });
    expect(await refreshSite(f.deps)).toBe(true);
    expect(f.site.timezone).toBe('UTC+5:30');
  });

  it('purges nothing when nothing changed', async () => {
    const f = fixture({ name: 'Old', timezone_string: 'Europe/Madrid' });
    expect(await refreshSite(f.deps)).toBe(false);
    expect(f.purges).toEqual([]);
  });
});
