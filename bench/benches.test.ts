// The benchmarks that need nothing but Node run here at toy sizes, so that a change to what they drive cannot break
// them unseen: bench:fast-path printed "the fast path wrote no headers" for two days after the fast path began reading
// the raw header lines, which its made-up requests did not carry. The figures are not checked (machines are noisy and
// toy sizes say nothing): each run must end well and print its table.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { guard } from '../test/slack.ts';

const run = promisify(execFile);
const root = new URL('../', import.meta.url).pathname;

async function bench(script: string, env: Record<string, string>): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [`bench/${script}`], {
    cwd: root,
    env: { ...process.env, ...env },
    timeout: guard(60_000),
    maxBuffer: 8 * 1024 * 1024,
  });
  return stdout + stderr;
}

describe('benchmarks at toy sizes', { timeout: guard(90_000) }, () => {
  it('bench:fast-path answers from the fast path and prints each case', async () => {
    const out = await bench('fast-path.ts', { BENCH_ROUNDS: '1', BENCH_HITS: '200' });
    expect(out).toMatch(/raw node:http calls\s+[\d.]+ µs wall/);
    expect(out).toMatch(/raw, gateway's headers\s+[\d.]+ µs wall/);
    // This tree's row, named after its directory.
    expect(out.match(/ µs wall /g)?.length).toBe(3);
  });

  it('bench:ceiling-paced reads both servers at a steady rate and prints their CPU a read', async () => {
    const out = await bench('paced-ceiling.ts', {
      BENCH_RATE: '200',
      BENCH_SECONDS: '0.5',
      BENCH_ROUNDS: '2',
      BENCH_IDLE_SECONDS: '0.2',
    });
    for (const name of ['raw', 'gateway'])
      expect(out).toMatch(new RegExp(`^${name} idle: main [\\d.]+ ms/s`, 'm'));
    for (const name of ['raw node:http, gateway headers', 'gateway, cached'])
      expect(out).toMatch(
        new RegExp(`^${name} +CPU a read [\\d.]+ µs \\([\\d., ]+\\), main thread [\\d.]+ µs, p50`, 'm'),
      );
    expect(out).toMatch(/^raw ÷ gateway, CPU a read: \d\.\d{3}$/m);
  });

  it('bench:host spins on every core and splits the gaps it finds', async () => {
    const out = await bench('host-gaps.ts', { BENCH_HOST_SECONDS: '0.3' });
    expect(out).toMatch(/^\d+ spinners, .+, 0\.3 s each; gaps over 1 ms:$/m);
    const rows = [
      ...out.matchAll(
        /^(?:core|spinner) \d+: (\d+) gaps, (\d+) ms lost \([\d.]+ %\), of it waiting for a core (\d+) ms and off any core (-?\d+) ms; .+; the core's steal [\d.]+ %$/gm,
      ),
    ];
    expect(rows.length).toBeGreaterThan(0);
    // A gap's wait for a core is part of it: never more than what was lost, never below nothing.
    for (const [, , lost, waited, off] of rows) {
      expect(Number(waited)).toBeLessThanOrEqual(Number(lost) + 1);
      expect(Number(off)).toBeGreaterThanOrEqual(-1);
    }
  });

  it('bench:serialize prints a time for every kind of record', async () => {
    const out = await bench('serialize.ts', { BENCH_ROUNDS: '1', BENCH_RECORDS: '50' });
    for (const kind of ['venue', 'organizer']) expect(out).toMatch(new RegExp(`^${kind} \\| [\\d.]+$`, 'm'));
  });

  it('bench:feed builds, holds and caches a feed', async () => {
    const out = await bench('feed.ts', {
      BENCH_FEED_EVENTS: '1500',
      BENCH_FEED_SIZE: '100',
      BENCH_FEED_ROUNDS: '1',
    });
    for (const row of ['first cold feed', 'new window, held', 'cached'])
      expect(out).toMatch(new RegExp(`^${row}\\s+\\d+ ms\\s+[\\d.]+ ms\\s+[\\d.]+ ms\\s+100 `, 'm'));
  });

  it('the stall report names each gap of a feed from its CPU profile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stalls-'));
    const file = join(dir, 'stalls.json');
    try {
      await run(
        process.execPath,
        ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', './bench/busy/stalls.ts', 'bench/feed.ts'],
        {
          cwd: root,
          // Every late firing noted (over 0 ms): a toy feed has few long ones.
          env: {
            ...process.env,
            ...{ BUSY_STALLS_FILE: file, BUSY_STALLS_OVER_MS: '0' },
            ...{ BENCH_FEED_EVENTS: '1500', BENCH_FEED_SIZE: '100', BENCH_FEED_ROUNDS: '1' },
          },
          timeout: guard(60_000),
        },
      );
      const profile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      expect(profile).toBeDefined();
      const { stdout } = await run(
        process.execPath,
        ['bench/stalls-report.ts', file, '3', join(dir, profile!)],
        {
          cwd: root,
        },
      );
      expect(stdout.match(/^\+[\d.]+ s: late [\d.]+ ms/gm)).toHaveLength(3);
      expect(stdout.match(/^ {4}under \S+.*: .+ [\d.]+ ms/gm)).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bench ended by a signal stops the children it started (a mock WordPress was once left running)', async () => {
    const { spawn } = await import('node:child_process');
    const parent = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { startChild } = await import('./bench/lib.ts'); const s = await startChild(['bench/feed.ts', '--upstream', '50']); console.log('child ' + s.child.pid); setInterval(() => {}, 1000);",
      ],
      { cwd: root, env: { ...process.env, VITEST: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const pid = await new Promise<number>((resolve, reject) => {
      parent.stdout!.on('data', (d: Buffer) => {
        const m = /child (\d+)/.exec(String(d));
        if (m) resolve(Number(m[1]));
      });
      parent.once('exit', (code) => reject(new Error(`the parent ended first (${code})`)));
    });
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    const ended = new Promise((r) => parent.once('exit', r));
    parent.kill('SIGTERM');
    await ended;
    try {
      await vi.waitFor(() => expect(alive()).toBe(false), { timeout: 5000 });
    } finally {
      if (alive()) process.kill(pid, 'SIGKILL');
    }
  });

  it('bench:start probes a start until after ready', async () => {
    const out = await bench('start-probe.ts', {
      BENCH_START_EVENTS: '1000',
      BENCH_START_RUNS: '1',
      BENCH_START_AFTER_MS: '200',
    });
    expect(out).toMatch(/slowest answer before ready, median of 1 runs [\d.]+ ms; after ready [\d.]+ ms/);
  });

  it('bench:index-jobs runs every background job, also below the compaction threshold', async () => {
    // 2000 events: the poll of all starts no compaction (under COMPACT_MIN_DEAD dead rows); the bench waited for one.
    const out = await bench('index-jobs.ts', { BENCH_INDEX_SIZES: '2000', BENCH_INDEX_JOB_RUNS: '1' });
    const jobs = ['snapshot save', 'snapshot load \\(before ready\\)', 'search postings', 'crawl'];
    for (const job of [...jobs, 'poll of 2000 changes', 'poll of all'])
      expect(out).toMatch(
        new RegExp(`^\\| 2000 \\| ${job} \\| [\\d.]+ / [\\d.]+ / [\\d.]+ / [\\d.]+ \\|$`, 'm'),
      );
  });

  it('bench:index prints its query rows, the phrase searches and near me', async () => {
    const env = { BENCH_INDEX_SIZES: '2000', BENCH_INDEX_RUNS: '1', BENCH_GEO_EVENTS: '2000' };
    const phrases = await bench('index.ts', { ...env, BENCH_INDEX_ONLY: 'phrases' });
    expect(phrases).toMatch(/^\| default list p50 \/ p99 \(ms\) \| [\d.]+ \/ [\d.]+ \|$/m);
    expect(phrases).toMatch(
      /^\| distinct phrase searches of common words, p50 \/ p90 \(ms\).* \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \|$/m,
    );
    const geo = await bench('index.ts', { ...env, BENCH_INDEX_ONLY: 'geo' });
    expect(geo).toMatch(
      /^\| near me \(2k events, .+\): within 25 km, p50 \/ p99 \(ms\).* \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \|$/m,
    );
  });

  it('bench:index-series compares an index without and with series', async () => {
    const out = await bench('index-series.ts', { BENCH_SERIES_SIZE: '2000', BENCH_INDEX_RUNS: '1' });
    expect(out).toMatch(/^\| series \/ occurrences kept \| 0 \/ 0 \| \d+ \/ \d+ \|$/m);
  });

  it('bench:invalidation counts what a create drops, reads under writes, and when readers see a create', async () => {
    const out = await bench('invalidation.ts', { INVALIDATION_ROUNDS: '1', INVALIDATION_SECONDS: '1' });
    expect(out).toMatch(/^ {4}without a venue: \d+\/\d+ \(\d+ %\)$/m);
    expect(out).toMatch(/^ {4}2 creates\/s\s+\d+ reads\s+p50 [\d.]+ ms/m);
    expect(out).toMatch(/p99 ratio per pair: [\d.]+; median [\d.]+×/);
    expect(out).toMatch(/a create seen by anonymous readers after its answer: [1-9]\d* creates/);
  });

  it('bench:anonymous sends every crafted request and answers none with a 5xx', async () => {
    const out = await bench('anonymous-cost.ts', {});
    const rows = [...out.matchAll(/^\| [^|]+ \| (\d{3}), [\d.]+ \|$/gm)].map((m) => Number(m[1]));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((s) => s >= 500)).toEqual([]);
  });
});
