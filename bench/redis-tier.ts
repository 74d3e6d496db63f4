// `node bench/redis-tier.ts`: the Redis tier's costs on one local Redis (127.0.0.1:6379), this checkout against
// another side by side in one run (BENCH_GATEWAY_DIR, e.g. an export of main; without it, this checkout twice):
// a cached read answered from Redis (L2 hit), an invalidation of a tag with 10 entries, and a fill. Rounds alternate
// between the two checkouts; medians are printed. With BENCH_CLUSTER=1 it also starts a local Redis Cluster (test
// helper) and prints the cost of the invalidation stream's XADD with and without `WAIT 1 100`.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const here = new URL('../', import.meta.url).pathname;
const other = process.env.BENCH_GATEWAY_DIR ?? here;
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const N = 2000;

interface Cache {
  get(key: string, load: () => Promise<unknown>): Promise<{ source: string }>;
  invalidate(tags: string[]): Promise<void>;
}
interface Mod {
  connectRedis(url: string, log: object): { waitUp(ms: number): Promise<boolean>; close(): Promise<void> };
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
async function round(m: Mod, prefix: string): Promise<{ l2: number; invalidate: number; fill: number }> {
  const la = m.connectRedis(REDIS, quiet);
  const lb = m.connectRedis(REDIS, quiet);
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
  t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const r = await b.get(`k${i}`, loader([]));
    if (r.source !== 'l2') throw new Error(`expected an L2 hit, got ${r.source}`);
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
  const { Cluster } = await import('ioredis');
  const c = await localCluster();
  const cl = new Cluster(
    c.nodes.slice(0, 3).map((n) => ({ host: '127.0.0.1', port: n.port })),
    { scaleReads: 'master' },
  );
  await new Promise((r) => cl.once('ready', r));
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
}
