// The webhooks' Prometheus metrics, on the gateway's registry: attempts by outcome, queue depth, oldest message's age.
import client from 'prom-client';
import type { Webhooks } from './service.ts';
import type { Outcome } from './types.ts';

export function registerWebhookMetrics(registry: client.Registry, webhooks: Webhooks, now = Date.now): void {
  const registers = [registry];
  new client.Counter({
    name: 'calendar_gateway_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this instance, by outcome: success (2xx), failure, timeout, refused (a non-public address), gone (410).',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(webhooks.deliverer.attempts) as Array<[Outcome, number]>)
        this.inc({ outcome }, n);
    },
  });
  // Both read the shared queue once per scrape (every instance reports the same figures with Redis).
  let stats: Promise<{ depth: number; oldestMs: number | null } | null> | undefined;
  const read = () => {
    stats ??= webhooks.queue.stats().catch(() => null);
    const p = stats;
    setTimeout(() => {
      stats = undefined;
    }, 100).unref();
    return p;
  };
  new client.Gauge({
    name: 'calendar_gateway_webhook_queue_depth',
    help: 'Webhook messages not yet delivered nor given up.',
    registers,
    async collect() {
      const s = await read();
      if (s) this.set(s.depth);
    },
  });
  new client.Gauge({
    name: 'calendar_gateway_webhook_oldest_undelivered_age_seconds',
    help: 'Age of the oldest webhook message not yet delivered nor given up (0 when none).',
    registers,
    async collect() {
      const s = await read();
      if (s) this.set(s.oldestMs === null ? 0 : (now() - s.oldestMs) / 1000);
    },
  });
}
