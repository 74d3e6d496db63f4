// `npm run bench:ceiling-paced`: the ceiling at a steady rate. bench:ceiling loads both servers to saturation, where
// many reads share each turn of the event loop; a site's readers arrive one at a time, each read its own turn (the
// load of bench:busy). Here a cached list is read at BENCH_RATE (2000) reads/s (bench/busy/paced.ts) from the demo
// gateway and from raw node:http sending the same bytes with the gateway's headers (bench/raw-server.ts), in
// BENCH_ROUNDS (4) alternating rounds of BENCH_SECONDS (5): each server's CPU a read (schedstat: its main thread, and
// all its threads), the reads' p50/p99, and first each server's CPU with no read at all (its timers and background
// work) over BENCH_IDLE_SECONDS (3). Pinned (BENCH_PIN=1, the default), both servers and this process share core 0,
// as bench:busy's pinned mode has them. BENCH_PROF_DIR: each server writes a CPU profile there (`--cpu-prof`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMark } from './busy/cpu.ts';
import { openPool, pacedReads, warmGenerator } from './busy/paced.ts';
import { pin } from './busy/site.ts';
import { median, ownHeaders, pct, startChild, startRawServer } from './lib.ts';

const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PIN = (process.env.BENCH_PIN ?? '1') !== '0';
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 3);
const PATH = '/wp-json/calendar/events/v1/events?per_page=10';
const here = new URL('../', import.meta.url).pathname;

const prof = process.env.BENCH_PROF_DIR;
const flags = (name: string) =>
  prof ? ['--cpu-prof', `--cpu-prof-dir=${join(prof, name)}`, '--cpu-prof-interval=200'] : [];
const g = await startChild([...flags('gateway'), join(here, 'src/main.ts')], {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
});
for (let i = 0; i < 3; i++) await (await fetch(g.url + PATH)).arrayBuffer();
// As the paced reads ask: no Accept-Encoding, the plain body (fetch would ask for gzip and undo it).
const res = await fetch(g.url + PATH, { headers: { 'accept-encoding': 'identity' } });
const body = Buffer.from(await res.arrayBuffer());
const dir = mkdtempSync(join(tmpdir(), 'paced-ceiling-'));
const raw = await startRawServer(dir, body, res.headers.get('etag') ?? '"x"', {
  headers: ownHeaders(res.headers as unknown as Iterable<[string, string]>),
  flags: flags('raw'),
});
if (PIN) pin([process.pid, g.child.pid!, raw.child.pid!], '0');
await warmGenerator(RATE, 2, body.length);
// What each server spends with no read at all (its timers and background work), a second.
for (const [name, s] of [
  ['raw', raw],
  ['gateway', g],
] as const) {
  const procs = { main: [s.child.pid!] };
  const a = cpuMark(procs);
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const b = cpuMark(procs);
  const per = [...b.ns]
    .map(([k, v]) => `${k} ${((v - (a.ns.get(k) ?? 0)) / 1e6 / IDLE_SECONDS).toFixed(2)} ms/s`)
    .join(', ');
  console.log(`${name} idle: ${per}`);
}
const row = (name: string, s: typeof g, path: string) => ({
  name,
  s,
  path,
  cpu: [] as number[],
  main: [] as number[],
  p50: [] as number[],
  p99: [] as number[],
});
const servers = [row('raw node:http, gateway headers', raw, '/'), row('gateway, cached', g, PATH)];
const pools = await Promise.all(servers.map((x) => openPool(x.s.url, 50, x.path)));
try {
  for (let r = 0; r < ROUNDS; r++)
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      const x = servers[i]!;
      const procs = { server: [x.s.child.pid!] };
      const a = cpuMark(procs);
      const p = await pacedReads(pools[i]!, [x.path], RATE, SECONDS);
      const b = cpuMark(procs);
      const ns = [...b.ns].reduce((t, [k, v]) => t + v - (a.ns.get(k) ?? 0), 0);
      x.cpu.push(ns / 1000 / p.times.length);
      x.main.push((b.ns.get('server')! - a.ns.get('server')!) / 1000 / p.times.length);
      x.p50.push(pct(p.times, 50));
      x.p99.push(pct(p.times, 99));
    }
} finally {
  await Promise.all(pools.map((p) => p.close()));
  await Promise.all([g.stop(), raw.stop()]);
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `${RATE} reads/s for ${SECONDS} s, ${ROUNDS} rounds alternating, ${body.length} bytes, ${PIN ? 'pinned to core 0' : 'unpinned'}`,
);
for (const x of servers)
  console.log(
    `${x.name.padEnd(32)} CPU a read ${median(x.cpu).toFixed(1)} µs (${x.cpu.map((c) => c.toFixed(1)).join(', ')}), main thread ${median(x.main).toFixed(1)} µs, p50 ${median(x.p50).toFixed(2)} ms, p99 ${median(x.p99).toFixed(2)} ms`,
  );
console.log(`raw ÷ gateway, CPU a read: ${(median(servers[0]!.cpu) / median(servers[1]!.cpu)).toFixed(3)}`);
