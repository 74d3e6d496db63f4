// Prometheus metrics of one gateway (prom-client, a registry of its own): requests, upstream calls, index, cache.
import client from 'prom-client';
import type { ResponseCache } from '../cache/response-cache.ts';
import type { CdnPurger } from '../cdn/purger.ts';
import type { IndexRegistry } from '../index/registry.ts';

/** Where an answer came from: the pre-express fast path, a cache tier, WordPress, or nowhere shared (signed in). */
export type AnswerSource = 'fast' | 'memory' | 'redis' | 'stale' | 'wordpress' | 'private' | 'none';

export interface MetricsSources {
  indexes: IndexRegistry;
  cache?: ResponseCache;
  /** The CDN purger, when `CDN_PURGE` is set. */
  purger?: CdnPurger;
}

const seconds = (ms: number) => ms / 1000;

/**
 * The interval of the timer behind prom-client's `nodejs_eventloop_lag_*` (perf_hooks' monitorEventLoopDelay). Each
 * sample is the time between two of its firings, not the timer's lateness: an idle loop reads about this interval
 * (their mean is never below it), and a block of the loop T long reads between T and T plus this.
 */
export const LOOP_DELAY_RESOLUTION_MS = 10;

export class Metrics {
  readonly registry = new client.Registry();
  readonly #requests: client.Counter<'route' | 'method' | 'status' | 'source'>;
  readonly #upstream: client.Histogram<'method' | 'as' | 'outcome'>;
  readonly #notifications: client.Counter;
  readonly #lastNotification: client.Gauge;
  /**
   * Fast-path hits per route, counted with a plain add (no label hashing on the hot path), exported at scrape. One
   * counter cell per route: a hit finds it with one lookup of a string whose hash is already known (src/cache/aliases.ts).
   */
  readonly #fastHits = new Map<string, { n: number }>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    client.collectDefaultMetrics({
      register: this.registry,
      eventLoopMonitoringPrecision: LOOP_DELAY_RESOLUTION_MS,
    });
    this.#requests = new client.Counter({
      name: 'calendar_gateway_requests_total',
      help: 'Requests answered by express, by contract route, method, status and where the answer came from.',
      labelNames: ['route', 'method', 'status', 'source'],
      registers,
    });
    const fastHits = this.#fastHits;
    new client.Counter({
      name: 'calendar_gateway_fast_path_hits_total',
      help: 'Anonymous GET/HEAD requests answered from memory before express, by contract route.',
      labelNames: ['route'],
      registers,
      collect() {
        this.reset();
        for (const [route, c] of fastHits) this.inc({ route }, c.n);
      },
    });
    this.#upstream = new client.Histogram({
      name: 'calendar_gateway_upstream_request_duration_seconds',
      help: 'WordPress calls by method, credential (service = index, caller, anonymous) and outcome.',
      labelNames: ['method', 'as', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#notifications = new client.Counter({
      name: 'calendar_gateway_notifications_total',
      help: 'Signed change notifications accepted from the companion plugin.',
      registers,
    });
    this.#lastNotification = new client.Gauge({
      name: 'calendar_gateway_last_notification_timestamp_seconds',
      help: 'When the last change notification was accepted (Unix time).',
      registers,
    });
    const indexGauge = (
      name: string,
      help: string,
      value: (i: ReturnType<IndexRegistry['all']>[number]) => number | null,
    ) =>
      new client.Gauge({
        name,
        help,
        labelNames: ['language'],
        registers,
        collect() {
          this.reset();
          for (const i of sources.indexes.all()) {
            const v = value(i);
            if (v !== null) this.set({ language: i.language }, v);
          }
        },
      });
    indexGauge('calendar_gateway_index_events', 'Events in the event index.', (i) => i.size);
    indexGauge(
      'calendar_gateway_index_last_refresh_age_seconds',
      'Seconds since the index last caught up with WordPress.',
      (i) => (i.lastRefreshAt ? seconds(Date.now() - i.lastRefreshAt.getTime()) : null),
    );
    indexGauge(
      'calendar_gateway_index_refresh_failing',
      '1 when the last modified_after refresh failed.',
      (i) => (i.failing.refresh ? 1 : 0),
    );
    indexGauge(
      'calendar_gateway_index_build_duration_seconds',
      'How long the last full crawl of WordPress took.',
      (i) => (i.buildMs === null ? null : seconds(i.buildMs)),
    );
    const cache = sources.cache;
    new client.Gauge({
      name: 'calendar_gateway_cache_entries',
      help: 'Answers held by the in-process tier.',
      registers,
      collect() {
        this.set(cache?.size.entries ?? 0);
      },
    });
    new client.Gauge({
      name: 'calendar_gateway_cache_soft_stale_entries',
      help: 'Answers of the in-process tier a write softly invalidated: served while they refill (CACHE_SOFT_STALE_MS, up to 10 s while the refill is slow).',
      registers,
      collect() {
        this.set(cache?.size.softStale ?? 0);
      },
    });
    new client.Counter({
      name: 'calendar_gateway_cache_soft_answers_total',
      help: 'Previous answers served while a soft invalidation refilled: `window` inside CACHE_SOFT_STALE_MS, `late` past it (up to 10 s) because the refill was slow or waited its turn.',
      labelNames: ['when'],
      registers,
      collect() {
        this.reset();
        if (!cache) return;
        const { soft, softLate } = cache.stats;
        this.inc({ when: 'window' }, soft - softLate);
        this.inc({ when: 'late' }, softLate);
      },
    });
    new client.Gauge({
      name: 'calendar_gateway_cache_bytes',
      help: 'Bytes held by the in-process tier.',
      registers,
      collect() {
        this.set(cache?.size.bytes ?? 0);
      },
    });
    new client.Counter({
      name: 'calendar_gateway_cache_answers_total',
      help: 'Anonymous answers by tier: memory, redis, stale (stale-if-error) and wordpress (a miss).',
      labelNames: ['tier'],
      registers,
      collect() {
        this.reset();
        if (!cache) return;
        const { l1, l2, stale, upstream } = cache.stats;
        this.inc({ tier: 'memory' }, l1);
        this.inc({ tier: 'redis' }, l2);
        this.inc({ tier: 'stale' }, stale);
        this.inc({ tier: 'wordpress' }, upstream);
      },
    });
    new client.Gauge({
      name: 'calendar_gateway_cache_hit_ratio',
      help: 'Share of anonymous answers not fetched from WordPress since start-up.',
      registers,
      collect() {
        if (!cache) return;
        const { l1, l2, stale, upstream } = cache.stats;
        const total = l1 + l2 + stale + upstream;
        this.set(total ? (total - upstream) / total : 0);
      },
    });
    const purger = sources.purger;
    if (purger) {
      const cdn = purger.backend.name;
      new client.Counter({
        name: 'calendar_gateway_cdn_purge_calls_total',
        help: 'Purge calls to the CDN by outcome: ok, retried (tried again after a 5xx, 429 or no answer), failed (given up).',
        labelNames: ['cdn', 'outcome'],
        registers,
        collect() {
          this.reset();
          for (const [outcome, n] of Object.entries(purger.stats.calls)) this.inc({ cdn, outcome }, n);
        },
      });
      new client.Counter({
        name: 'calendar_gateway_cdn_purged_tags_total',
        help: 'Cache tags the CDN purged (a purge of everything counts in calendar_gateway_cdn_purge_all_total).',
        labelNames: ['cdn'],
        registers,
        collect() {
          this.reset();
          this.inc({ cdn }, purger.stats.tags);
        },
      });
      new client.Counter({
        name: 'calendar_gateway_cdn_purge_all_total',
        help: "Purges of everything the CDN holds (the operators' purge).",
        labelNames: ['cdn'],
        registers,
        collect() {
          this.reset();
          this.inc({ cdn }, purger.stats.all);
        },
      });
      new client.Gauge({
        name: 'calendar_gateway_cdn_purge_pending',
        help: 'Tags waiting for the next purge call.',
        labelNames: ['cdn'],
        registers,
        collect() {
          this.set({ cdn }, purger.pending);
        },
      });
    }
    new client.Gauge({
      name: 'calendar_gateway_redis_up',
      help: '1 when Redis answers, 0 when it is configured but down (absent without REDIS_URL).',
      registers,
      collect() {
        this.reset();
        const state = cache?.redis ?? 'off';
        if (state !== 'off') this.set(state === 'up' ? 1 : 0);
      },
    });
  }

  request(route: string, method: string, status: number, source: AnswerSource): void {
    this.#requests.inc({ route, method, status: String(status), source });
  }

  fastHit(route: string): void {
    const c = this.#fastHits.get(route);
    if (c) c.n++;
    else this.#fastHits.set(route, { n: 1 });
  }

  upstream(method: string, as: string, outcome: string, ms: number): void {
    this.#upstream.observe({ method, as, outcome }, seconds(ms));
  }

  notification(): void {
    this.#notifications.inc();
    this.#lastNotification.set(Date.now() / 1000);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
