// `node bench/cache-memory.ts [other checkout…]`: what the response cache's entries hold in memory, against the
// bytes it counts. A demo gateway per checkout (side by side, same requests) answers every event, venue and
// organizer by id and every one-event page of the list, first uncompressed (the entry is stored), then twice with
// `Accept-Encoding: gzip` (its gzip is made, then sent). Memory is read after full collections (bench/soak-probe.ts
// with SOAK_PROBE_GC=1 and node's --expose-gc) before and after. BENCH_REDIS=1: two instances per checkout on the
// local Redis; the first fills, the second answers from Redis (its bodies come from ioredis).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gatewayEnv, type Server, startChild } from './lib.ts';

const NS = '/wp-json/calendar/events/v1';
const trees = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];
const redis = process.env.BENCH_REDIS === '1';
const probe = new URL('./soak-probe.ts', import.meta.url).pathname;
const MB = 2 ** 20;

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

async function start(
  tree: string,
  name: string,
  extra: Record<string, string>,
): Promise<Server & { memory(): Promise<Memory> }> {
  const file = join(tmpdir(), `cache-memory-${process.pid}-${name}.json`);
  const server = await startChild(
    ['--expose-gc', '--import', probe, `${tree}/src/main.ts`],
    gatewayEnv({ SOAK_PROBE_FILE: file, SOAK_PROBE_GC: '1', SOAK_PROBE_MS: '300', ...extra }),
  );
  const memory = async () => {
    // Two samples after the last request: the second is of a process that has been idle and collected.
    await new Promise((r) => setTimeout(r, 800));
    return JSON.parse(readFileSync(file, 'utf8')) as Memory;
  };
  return { ...server, memory };
}

/** Every URL of one record or one event: each a small answer, the kind a busy site caches by the thousand. */
async function urls(base: string): Promise<string[]> {
  const out: string[] = [];
  for (const kind of ['events', 'venues', 'organizers']) {
    for (let page = 1; ; page++) {
      const res = await fetch(`${base}${NS}/${kind}?per_page=50&page=${page}`);
      if (res.status !== 200) break;
      const body = (await res.json()) as Record<string, Array<{ id: number }>>;
      const items = body[kind] ?? [];
      for (const { id } of items) out.push(`${NS}/${kind}/${id}`);
      if (kind === 'events')
        for (let i = 0; i < items.length; i++)
          out.push(`${NS}/events?per_page=1&page=${(page - 1) * 50 + i + 1}`);
      if (items.length < 50) break;
    }
  }
  return out;
}

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const tree of trees) {
    const name = basename(tree);
    const prefix = `cachemem${process.pid}${name.replace(/\W/g, '')}:`;
    const extra: Record<string, string> = redis
      ? { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix }
      : {};
    const fill = await start(tree, `${name}-a`, extra);
    const read = redis ? await start(tree, `${name}-b`, extra) : fill;
    try {
      const list = await urls(fill.url);
      const before = await read.memory();
      let bytes = 0;
      for (const u of list) {
        const res = await fetch(`${fill.url}${u}`, { headers: { 'accept-encoding': 'identity' } });
        bytes += (await res.arrayBuffer()).byteLength;
      }
      for (let i = 0; i < 2; i++)
        for (const u of list)
          await (await fetch(`${read.url}${u}`, { headers: { 'accept-encoding': 'gzip' } })).arrayBuffer();
      const after = await read.memory();
      const d = (k: keyof Memory) => ((after[k] - before[k]) / MB).toFixed(1);
      rows.push(
        `| ${name} | ${list.length} | ${(bytes / MB).toFixed(1)} | ${d('arrayBuffers')} | ${d('external')} | ${d('heapUsed')} | ${d('rss')} | ${((after.arrayBuffers - before.arrayBuffers) / list.length / 1024).toFixed(1)} |`,
      );
    } finally {
      await fill.stop();
      if (read !== fill) await read.stop();
    }
  }
  console.log(
    `\ncached answers in memory${redis ? ', read from Redis by a second instance' : ''} (MB, after full collections)`,
  );
  console.log(
    '| tree | entries | body bytes counted | array buffers, growth | external, growth | heap used, growth | RSS, growth | array buffers a entry (KB) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

await main();
