// The benchmarks that need Redis, at toy sizes on the shared Redis, so that a change to what they drive cannot
// break them unseen (bench/benches.test.ts does the same for those that need only Node). Their figures are not
// checked: each run must end well and print every part.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { guard } from '../slack.ts';
import { SHARED_REDIS } from './redis-helper.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

async function bench(script: string, env: Record<string, string>): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [`bench/${script}`], {
    cwd: root,
    env: { ...process.env, REDIS_URL: SHARED_REDIS, BENCH_REDIS_URL: SHARED_REDIS, ...env },
    timeout: guard(90_000),
    maxBuffer: 8 * 1024 * 1024,
  });
  return stdout + stderr;
}

describe('benchmarks on Redis at toy sizes', { timeout: guard(120_000) }, () => {
  it('bench:webhooks measures latency through a gateway and the log, and throughput by one and two instances', async () => {
    const out = await bench('webhooks.ts', {
      BENCH_WEBHOOK_WRITES: '10',
      BENCH_WEBHOOK_SINGLE: '20',
      BENCH_WEBHOOK_CHANGES: '50',
    });
    expect(out).toMatch(/10 writes one at a time:\n {2}p50 [\d.]+ ms {3}p99 [\d.]+ ms {3}max [\d.]+ ms/);
    expect(out).toMatch(/20 changes one at a time, 1 endpoint:\n {2}p50 [\d.]+ ms/);
    // Every delivery made, by each fleet.
    for (const fleet of ['1 instance', '2 instances'])
      expect(out).toMatch(
        new RegExp(`50 changes to 10 endpoints \\(500 deliveries\\), ${fleet}: [\\d.]+ deliveries/s, all in`),
      );
  });

  it('bench:redis-tier measures a hit, an invalidation and a fill', async () => {
    const out = await bench('redis-tier.ts', { BENCH_KEYS: '50', BENCH_ROUNDS: '1' });
    expect(out).toMatch(/^this\s+[\d.]+\s+[\d.]+\s+[\d.]+$/m);
  });
});
