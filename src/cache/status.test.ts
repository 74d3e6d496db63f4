import { describe, expect, it } from 'vitest';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { gatewayStatus } from './status.ts';

const index = {
  language: 'en',
  size: 12,
  builtAt: new Date('2026-11-22T10:00:00Z'),
  lastRefreshAt: new Date('2026-11-22T10:05:00Z'),
  failing: { refresh: true, reconcile: false },
};

const deps = (request: () => Promise<unknown>, cache?: unknown) =>
  ({
    wp: { options: { baseUrl: 'https://wp.test/wp-json' }, request },
    indexes: { all: () => [index] },
    cache,
    now: () => new Date('2026-11-22T10:10:00Z'),
  }) as unknown as Deps;

const opts = { startedAt: Date.parse('2026-11-22T10:00:00Z'), notifications: true, version: '1.2.3' };

describe('gatewayStatus', () => {
  it('reports an unreachable WordPress with the error code, and failing refreshes', async () => {
    const s = await gatewayStatus(
      deps(async () => {
        throw new ApiError('upstream_unavailable', 'WordPress cannot be reached.', 503);
      }),
      opts,
    );
    expect(s).toEqual({
      version: '1.2.3',
      uptime_seconds: 600,
      upstream: { url: 'https://wp.test/wp-json', reachable: false, error: 'upstream_unavailable' },
      indexes: [
        {
          language: 'en',
          events: 12,
          built_at: '2026-11-22T10:00:00.000Z',
          last_refresh_at: '2026-11-22T10:05:00.000Z',
          refresh_failing: true,
          reconcile_failing: false,
        },
      ],
      cache: { enabled: false, entries: 0, bytes: 0, redis: 'off' },
      notifications: { enabled: true },
    });
  });

  it('reports the cache tiers and a reachable WordPress', async () => {
    const cache = {
      size: { entries: 3, bytes: 900 },
      redis: 'down',
      stats: { l1: 6, l2: 1, stale: 1, upstream: 2 },
    };
    const s = await gatewayStatus(
      deps(async () => ({}), cache),
      opts,
    );
    expect(s.cache).toEqual({
      enabled: true,
      entries: 3,
      bytes: 900,
      redis: 'down',
      answered: { memory: 6, redis: 1, stale: 1, wordpress: 2 },
      hit_ratio: 0.8,
    });
    expect(s.upstream).toMatchObject({ reachable: true });
  });
});
