// What an operator needs to see at a glance: upstream reachability, each event index, the cache tiers.
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';

export interface StatusOptions {
  startedAt: number;
  notifications: boolean;
  version: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Asks WordPress's REST index (anonymously, two seconds at most) whether it answers, and how fast. */
async function probe(deps: Deps): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  try {
    await deps.wp.request({
      path: '/',
      query: { _fields: 'name' },
      as: 'anonymous',
      signal: AbortSignal.timeout(2000),
    });
    return { reachable: true, latency_ms: Math.round(performance.now() - t0) };
  } catch (err) {
    const code = err instanceof ApiError ? err.code : 'upstream_unavailable';
    return { reachable: false, error: code };
  }
}

/** The tiers, and where the anonymous answers since start-up came from (`hit_ratio`: not from WordPress). */
function cacheStatus(cache: NonNullable<Deps['cache']>): Record<string, unknown> {
  const { l1, l2, stale, upstream } = cache.stats;
  const total = l1 + l2 + stale + upstream;
  return {
    enabled: true,
    ...cache.size,
    redis: cache.redis,
    answered: { memory: l1, redis: l2, stale, wordpress: upstream },
    hit_ratio: total ? Math.round(((total - upstream) / total) * 1000) / 1000 : null,
  };
}

export async function gatewayStatus(deps: Deps, o: StatusOptions): Promise<Record<string, unknown>> {
  const now = deps.now().getTime();
  return {
    version: o.version,
    uptime_seconds: Math.round((now - o.startedAt) / 1000),
    upstream: { url: deps.wp.options.baseUrl, ...(await probe(deps)) },
    indexes: deps.indexes.all().map((i) => ({
      language: i.language,
      events: i.size,
      built_at: iso(i.builtAt),
      last_refresh_at: iso(i.lastRefreshAt),
      refresh_failing: i.failing.refresh,
      reconcile_failing: i.failing.reconcile,
    })),
    cache: deps.cache ? cacheStatus(deps.cache) : { enabled: false, entries: 0, bytes: 0, redis: 'off' },
    notifications: { enabled: o.notifications },
  };
}
