// `node bench/miss-profile.ts [tree]`: a CPU profile of one gateway under 1-connection cache misses of the events
// list over the caching proxy in front of BENCH_WP_URL (bench/caching-upstream.ts), written to BENCH_PROF_DIR.
// BENCH_PERF=1 samples the gateway's on-CPU time with Linux perf instead (perf.data in BENCH_PROF_DIR; node runs with
// --perf-basic-prof so JavaScript frames have names): the V8 profile's samples are wall time, and on a loaded
// machine a function that wakes another process (a socket write) collects the time the gateway then waits for a core.
// Env: BENCH_WP_URL, BENCH_WP_AUTH, BENCH_SECONDS (20), BENCH_PROF_DIR (miss-prof in the system's temporary folder), BENCH_PERF.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { missUrl, startChild } from './lib.ts';

const tree = resolve(process.argv[2] ?? '.');
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const dir = process.env.BENCH_PROF_DIR ?? join(tmpdir(), 'miss-prof');
const rest = new URL(process.env.BENCH_WP_URL ?? 'http://127.0.0.1:8080/wp-json');
const LIST = '/wp-json/calendar/events/v1/events?per_page=10';

const proxy = await startChild(['bench/caching-upstream.ts', rest.origin]);
const perf = process.env.BENCH_PERF === '1';
mkdirSync(dir, { recursive: true });
const profArgs = perf ? ['--perf-basic-prof'] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
const gw = await startChild([...profArgs, `${tree}/src/main.ts`], {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  POLL_INTERVAL_MS: '0',
  UPSTREAM_URL: `${proxy.url}${rest.pathname.replace(/\/+$/, '')}`,
  UPSTREAM_AUTH: process.env.BENCH_WP_AUTH ?? '',
});
// Warm up: the index, the terms, the linked records and the JIT.
for (let i = 0; i < 300; i++) await (await fetch(missUrl(`${gw.url}${LIST}`))).arrayBuffer();
const recorder = perf
  ? spawn('perf', ['record', '-F', '4999', '-g', '-o', `${dir}/perf.data`, '-p', String(gw.child.pid)], {
      stdio: 'inherit',
    })
  : undefined;
if (recorder) await new Promise((r) => setTimeout(r, 500));
let n = 0;
const end = performance.now() + seconds * 1000;
const t0 = performance.now();
while (performance.now() < end) {
  await (await fetch(missUrl(`${gw.url}${LIST}`))).arrayBuffer();
  n++;
}
if (recorder) {
  const exited = new Promise((r) => recorder.once('exit', r));
  recorder.kill('SIGINT');
  await exited;
}
process.stdout.write(`${n} misses in ${((performance.now() - t0) / 1000).toFixed(1)} s; profile in ${dir}\n`);
await gw.stop();
await proxy.stop();
