// `node bench/redis-tier.ts`: the Redis tier's costs on one local Redis (127.0.0.1:6379), this checkout against
// another side by side in one run (BENCH_GATEWAY_DIR, e.g. an export of main; without it, this checkout twice):
// a cached read answered from Redis (L2 hit), an invalidation of a tag with 10 entries, and a fill. Rounds alternate
// between the two checkouts; medians are printed (BENCH_ROUNDS rounds, 7; BENCH_KEYS keys a round, 2000). With
// BENCH_CLUSTER=1 it also starts a local Redis Cluster (test helper: 3 masters, 3 replicas, on this machine) and
// runs the same rounds of this checkout against it and against the standalone Redis in alternation (same machine,
// same code: the ratio is the cluster's cost), then prints what one round trip costs on each and the invalidation
// stream's XADD with and without `WAIT 1 100`.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const here = new URL('../', import.meta.url).pathname;
const other = process.env.BENCH_GATEWAY_DIR ?? here;
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const N = Number(process.env.BENCH_KEYS ?? 2000);

interface Cache {
  get(key: string, load: () => Promise<unknown>): Promise<{ source: string }>;
  invalidate(tags: string[]): Promise<void>;
}
interface Mod {
  connectRedis(
    url: string | { mode: string; url: string },
    log: object,
  ): { waitUp(ms: number): Promise<boolean>; close(): Promise<void> };
  ResponseCache: new (o: object) => Cache;
  makeEntry(body: string, o: object): unknown;
}

async function load(dir: string): Promise<Mod> {
  const at = (p: string) => import(pathToFileURL(join(dir, p)).href);
  return {
    ...(await at('src/cache/redis.ts')),
    ...(await at('src/cache/response-cache.ts')),
    ...(await at('src/cache/entry.ts')),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quiet = { warn() {}, info() {} };
const policy = { ttlSeconds: 300, staleWhileRevalidateSeconds: 10, staleIfErrorSeconds: 300 };

/** One round: µs per L2 hit, ms per invalidation of 10 entries, µs per fill. */
async function round(
  m: Mod,
  prefix: string,
  target: string | { mode: string; url: string } = REDIS,
): Promise<{ l2: number; invalidate: number; fill: number }> {
  const la = m.connectRedis(target, quiet);
  const lb = m.connectRedis(target, quiet);
  await la.waitUp(5000);
  await lb.waitUp(5000);
  const body = 'x'.repeat(15_000);
  const a = new m.ResponseCache({ policy, redis: la, prefix });
  const loader = (tags: string[]) => async () => ({ entry: m.makeEntry(body, { tags }), store: true });
  let t0 = performance.now();
  for (let i = 0; i < N; i++) await a.get(`k${i}`, loader(['list:event', `event:${i % 50}`]));
  const fill = ((performance.now() - t0) * 1000) / N;
  await new Promise((r) => setTimeout(r, 300));
  // A second instance with an empty L1: every read is an L2 hit.
  const b = new m.ResponseCache({ policy, redis: lb, prefix });
  let missed = 0;
  t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const r = await b.get(`k${i}`, loader([]));
    // A command over its 500 ms timeout on a loaded machine reads through instead: counted, not fatal.
    if (r.source !== 'l2') missed++;
  }
  const l2 = ((performance.now() - t0) * 1000) / N;
  const inv: number[] = [];
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    await a.invalidate([`event:${i}`]);
    inv.push(performance.now() - s);
  }
  await a.invalidate(['list:event']);
  await la.close();
  await lb.close();
  if (missed)
    process.stderr.write(`  (${missed} of ${N} reads were not L2 hits: Redis over its command timeout)\n`);
  return { l2, invalidate: median(inv), fill };
}

const mine = await load(here);
const theirs = await load(other);
const results: Record<'this' | 'other', Array<{ l2: number; invalidate: number; fill: number }>> = {
  this: [],
  other: [],
};
for (let i = 0; i < ROUNDS; i++) {
  results.other.push(await round(theirs, `bench-rt-o${process.pid}-${i}:`));
  results.this.push(await round(mine, `bench-rt-t${process.pid}-${i}:`));
}
console.log(`redis tier, ${ROUNDS} alternating rounds of ${N} keys (15 KB bodies), medians:`);
console.log(`checkout            L2 hit µs  invalidate(10 entries) ms  fill µs`);
for (const [name, rs] of Object.entries(results)) {
  const dir = name === 'this' ? here : other;
  console.log(
    `${(name === 'this' ? 'this' : dir).padEnd(18).slice(0, 18)}  ${median(rs.map((r) => r.l2))
      .toFixed(1)
      .padStart(9)}  ${median(rs.map((r) => r.invalidate))
      .toFixed(2)
      .padStart(25)}  ${median(rs.map((r) => r.fill))
      .toFixed(1)
      .padStart(7)}`,
  );
}

if (process.env.BENCH_CLUSTER === '1') {
  const { localCluster } = await import('../test/cache/redis-ha-helper.ts');
  const { Cluster, Redis } = await import('ioredis');
  const { freePort } = await import('./lib.ts');
  const { spawn } = await import('node:child_process');
  const c = await localCluster();
  const cluster = { mode: 'cluster', url: c.url };
  // A standalone Redis of its own beside the cluster's nodes: the shared one on 6379 also serves other jobs' tests.
  const soloPort = await freePort();
  const soloServer = spawn(
    'redis-server',
    ['--port', String(soloPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const SOLO = `redis://127.0.0.1:${soloPort}`;
  for (let up = false; !up; ) {
    await new Promise((r) => setTimeout(r, 100));
    const probe = new Redis(SOLO, { lazyConnect: true, maxRetriesPerRequest: 0 });
    up = await probe.ping().then(
      () => true,
      () => false,
    );
    probe.disconnect();
  }
  const one: Array<{ l2: number; invalidate: number; fill: number }> = [];
  const many: Array<{ l2: number; invalidate: number; fill: number }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating which goes first, so neither always follows the other.
    const pair = [
      () => round(mine, `bench-rt-s${process.pid}-${i}:`, SOLO).then((r) => one.push(r)),
      () => round(mine, `bench-rt-c${process.pid}-${i}:`, cluster).then((r) => many.push(r)),
    ];
    if (i % 2) pair.reverse();
    for (const run of pair) await run();
  }
  const med = (rs: typeof one, k: 'l2' | 'invalidate' | 'fill') => median(rs.map((r) => r[k]));
  console.log(
    `\nthis checkout, a standalone Redis of its own against a local cluster (3 masters, 3 replicas), ${ROUNDS} alternating rounds:`,
  );
  console.log(`                    L2 hit µs  invalidate(10 entries) ms  fill µs`);
  for (const [name, rs] of [
    ['standalone', one],
    ['cluster', many],
  ] as const)
    console.log(
      `${name.padEnd(18)}  ${med(rs, 'l2').toFixed(1).padStart(9)}  ${med(rs, 'invalidate').toFixed(2).padStart(25)}  ${med(rs, 'fill').toFixed(1).padStart(7)}`,
    );
  const ratio = (k: 'l2' | 'invalidate' | 'fill') => (med(many, k) / med(one, k)).toFixed(2);
  console.log(
    `cluster ÷ standalone  ${ratio('l2').padStart(7)}  ${ratio('invalidate').padStart(25)}  ${ratio('fill').padStart(7)}`,
  );
  const cl = new Cluster(
    c.nodes.slice(0, 3).map((n) => ({ host: '127.0.0.1', port: n.port })),
    { scaleReads: 'master' },
  );
  await new Promise((r) => cl.once('ready', r));
  const solo = new Redis(SOLO);
  /** µs of one awaited command, median of 5 rounds of 500. */
  const rtt = async (send: () => Promise<unknown>) => {
    const rs: number[] = [];
    for (let r = 0; r < 5; r++) {
      const s = performance.now();
      for (let i = 0; i < 500; i++) await send();
      rs.push(((performance.now() - s) * 1000) / 500);
    }
    return median(rs);
  };
  const soloSet = await rtt(() => solo.set('bench:rtt', 'x'));
  const clusterSet = await rtt(() => cl.set('bench:rtt', 'x'));
  const soloMulti = await rtt(() => solo.multi().sadd('bench:t', 'e').pexpire('bench:t', 60000, 'GT').exec());
  const clusterWait = await rtt(() => cl.pipeline().unlink('bench:rtt').wait(1, 100).exec());
  console.log(
    `one round trip µs: standalone SET ${soloSet.toFixed(0)}, cluster SET ${clusterSet.toFixed(0)}, standalone MULTI of 2 ${soloMulti.toFixed(0)}, cluster UNLINK + WAIT 1 100 ${clusterWait.toFixed(0)}`,
  );
  solo.disconnect();
  const time = async (wait: boolean) => {
    const xs: number[] = [];
    for (let i = 0; i < 500; i++) {
      const s = performance.now();
      const p = cl
        .pipeline()
        .xadd('bench:invalidations', 'MAXLEN', '~', 10000, '*', 'm', '{"origin":"x","tags":["event:1"]}');
      if (wait) p.wait(1, 100);
      await p.exec();
      xs.push(performance.now() - s);
    }
    return median(xs);
  };
  const plain: number[] = [];
  const waited: number[] = [];
  for (let i = 0; i < 5; i++) {
    plain.push(await time(false));
    waited.push(await time(true));
  }
  console.log(
    `cluster XADD µs (median of 5 alternating rounds of 500): plain ${(median(plain) * 1000).toFixed(0)}, with WAIT 1 100 ${(median(waited) * 1000).toFixed(0)}`,
  );
  cl.disconnect();
  await c.dispose();
  soloServer.kill();
}
