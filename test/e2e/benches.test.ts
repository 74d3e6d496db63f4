// The benchmarks over a real WordPress at toy sizes, on this project's site: a change to what they drive (the
// gateway's start, its metrics, the stall and task meters, wp.sh) must not break them unseen, as bench:fast-path and
// bench:instances broke for days. Their figures are not checked (toy sizes on a shared machine say nothing); a run
// must end well, report every part and leave the site as it found it: no event of its own left, bench:busy's pinning
// undone (the site's processes on cores 0 and 1).
import { execFile, execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { pidsNaming } from '../../bench/busy/site.ts';
import { freePort } from '../../bench/lib.ts';
import { guard, upstreamDeadlineMs } from '../slack.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** The cores a process may run on, as taskset lists them (`0,1`, `0-1`), normalised to a sorted list. */
function coresOf(pid: number): string {
  const out = execFileSync('taskset', ['-cp', String(pid)], { encoding: 'utf8' });
  const list = out.split(':').pop()?.trim() ?? '';
  const cores = list.split(',').flatMap((part) => {
    const [a, b = a] = part.split('-').map(Number);
    return Array.from({ length: b! - a! + 1 }, (_, i) => a! + i);
  });
  return cores.sort((x, y) => x - y).join(',');
}

/**
 * Runs a bench script of this checkout with `env` added, for at most `ms` (× the lanes' slack). The gateways it starts
 * get the lanes' WordPress deadline, as every gateway a test starts does (test/slack.ts): at `npm test`'s load one
 * PHP call can take seconds, and a write of several calls would pass the production 10 s and answer 504.
 */
const bench = (script: string, ms: number, env: Record<string, string>) =>
  run(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, UPSTREAM_TIMEOUT_MS: String(upstreamDeadlineMs), ...env },
    timeout: guard(ms),
    maxBuffer: 16 * 1024 * 1024,
  });

/** The events of this project's site in any status, as its editor counts them (those matching `search`, if given). */
async function eventsOnSite(search?: string): Promise<number> {
  const up = inject('upstream');
  const q = new URLSearchParams({ status: 'any', per_page: '1', ...(search ? { search } : {}) });
  const res = await fetch(`${up.url}/wp/v2/tribe_events?${q}`, {
    headers: { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` },
  });
  return Number(res.headers.get('x-wp-total'));
}

describe('bench:busy at toy size', { timeout: guard(240_000) }, () => {
  it('measures both modes over the real WordPress, deletes its events and unpins the site', async () => {
    const up = inject('upstream');
    const state = dirname(up.siteDir);
    const before = await eventsOnSite('Busy bench');

    const { stdout, stderr } = await bench('bench/busy-wordpress.ts', 200_000, {
      BENCH_BUSY_WP_STATE: state,
      BENCH_BUSY_WP_PORT: new URL(up.url).port,
      BENCH_BUSY_REDIS_PORT: String(await freePort()),
      BENCH_BUSY_RATE: '100',
      BENCH_BUSY_SECONDS: '2',
      BENCH_BUSY_ROUNDS: '1',
      BENCH_BUSY_WARMUP_ROUNDS: '1',
      BENCH_BUSY_WRITES: '2',
      BENCH_BUSY_TASKS: '1',
      BENCH_BUSY_STALLS: '1',
    });

    for (const mode of ['pinned', 'unpinned']) {
      expect(stdout).toMatch(
        new RegExp(`^warm-up round 1 of .+, ${mode}, not counted: without writes max`, 'm'),
      );
      const part = stdout.slice(stdout.indexOf(`\n${mode}, gateway `));
      // One counted round: every read answered 2xx, creates made while they ran, the reads held.
      const roundLine =
        /^ {2}round 1: p50 .+, non-2xx (\d+), creates (\d+), with writes (\d+) fast-path hits/m.exec(part);
      expect(roundLine, `${mode} round line in:\n${stdout}`).not.toBeNull();
      expect(Number(roundLine![1])).toBe(0);
      expect(Number(roundLine![2])).toBeGreaterThan(0);
      expect(Number(roundLine![3])).toBeGreaterThan(0);
      expect(part).toMatch(/^ {2}medians: p50 [\d.]+ → [\d.]+ ms, p99 [\d.]+ → [\d.]+ ms, ratio [\d.]+×/m);
      expect(part).toMatch(
        /^ {2}with writes: max \d+ ms, .+, held \d+ of \d+ asked, loop lag max [\d.]+ ms/m,
      );
      // Paced reads: every read of the phase was made (100 a second for 2 s).
      expect(part).toMatch(/^ {2}round 1: .+, held 200 → 200 of 200 \(in [\d.]+ → [\d.]+ s\)/m);
      // Where the cores' time went in each phase: each core with the VM's host's share of it, and the gateway's and
      // the load generator's shares.
      for (const phase of ['without writes', 'with writes']) {
        const core = `core \\d+ \\d+ % \\(the host's \\d+ %\\)`;
        const cpu = new RegExp(
          `^ {4}CPU ${phase}: +${core.replace('\\d+', '0')}(?:, ${core})*; of a core: (.*)$`,
          'm',
        ).exec(part);
        expect(cpu, `${mode} ${phase} CPU line in:\n${part}`).not.toBeNull();
        for (const who of ['gateway', 'load generator', 'Redis', 'WordPress'])
          expect(cpu![1]).toMatch(new RegExp(`(?:^|, )${who} \\d+ %`));
      }
    }
    // The stall meter's and the profile's parts.
    expect(stdout).toMatch(/^ {2}GC pauses over 1 ms during the writes: \d+/m);
    expect(stdout).toMatch(/^profile of gateway .+ \(every mode's write phases\):/m);
    expect(stdout).toMatch(
      /^ {2}main-thread CPU with writes: [\d.]+ ms a second; by the project's innermost frame:/m,
    );

    const deleted = /Deleted (\d+) created events/.exec(stderr);
    expect(deleted, stderr).not.toBeNull();
    const creates = [...stdout.matchAll(/creates (\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
    // Warm-up rounds create events too, not counted in the rounds' lines.
    expect(Number(deleted![1])).toBeGreaterThanOrEqual(creates);
    expect(await eventsOnSite('Busy bench')).toBe(before);
    // The pinned mode moved the site's processes to core 1; the run gives them back cores 0 and 1 (its unpinned).
    const pids = pidsNaming(state);
    expect(pids.length).toBeGreaterThan(0);
    if (availableParallelism() >= 2) expect(new Set(pids.map(coresOf))).toEqual(new Set(['0,1']));
  });
});

describe('bench:feed-wordpress at toy size', { timeout: guard(180_000) }, () => {
  it('times a cold feed and the same events read straight from wp/v2, then deletes its events', async () => {
    const up = inject('upstream');
    const before = await eventsOnSite();
    const { stdout, stderr } = await bench('bench/feed-wordpress.ts', 150_000, {
      BENCH_WP_SITE: up.siteDir,
      BENCH_WP_URL: up.url,
      BENCH_WP_AUTH: up.auth,
      BENCH_FEED_COUNT: '40',
      BENCH_FEED_ROUNDS: '1',
    });
    const out = stdout + stderr;
    expect(out).toMatch(/^Inserted 40 events$/m);
    expect(out).toMatch(/^gateway: answered in \d+ ms; \d+ upstream calls, \d+ ms of upstream time in all$/m);
    expect(out).toMatch(/^upstream time \/ the reads' time = [\d.]+$/m);
    expect(await eventsOnSite()).toBe(before);
  });
});

describe('bench:soak at toy size', { timeout: guard(180_000) }, () => {
  it('runs two gateways under mixed load, prints its windows and slope, and deletes its events', async () => {
    const up = inject('upstream');
    const before = await eventsOnSite();
    const { stdout, stderr } = await bench('bench/soak.ts', 150_000, {
      BENCH_WP_URL: up.url,
      BENCH_WP_AUTH: up.auth,
      SOAK_SECONDS: '12',
      SOAK_SAMPLE_SECONDS: '4',
      SOAK_TABLE_SECONDS: '8',
      SOAK_SNAPSHOT_SECONDS: '0',
      SOAK_END_SNAPSHOT: '0',
      SOAK_CONNECTIONS: '4',
    });
    const out = stdout + stderr;
    // A window line a sample: t, RSS of both instances, … 5xx, failed, load.
    const windows = [...out.matchAll(/^ +(\d+) \| \d+ \/ \d+ \| .+ \| (\d+) \| (\d+) \| [\d.]+$/gm)];
    expect(windows.length, out).toBeGreaterThanOrEqual(2);
    for (const w of windows) expect([w[2], w[3]]).toEqual(['0', '0']);
    expect(out).toMatch(/^instance a: from [\d.]+ to [\d.]+ min RSS slope -?[\d.]+ MB\/min/m);
    // At `npm test`'s load one PHP call can take seconds, and a window whose four connections were all held by writes
    // and misses has no cached read: the line names such windows instead of a NaN median (CI, 2026-12-02: 'median NaN').
    expect(out).toMatch(
      /cached reads p99 per window after warm-up: median (?:[\d.]+|-) ms(?: \(\d+ windows without a cached read\))?; \d+ reads, 0 5xx/,
    );
    expect(out).not.toMatch(/heap snapshots/);
    expect(await eventsOnSite()).toBe(before);
  });
});
