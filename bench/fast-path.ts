// `npm run bench:fast-path [-- other checkout…]`: the cached-hit path's own work, in process and without sockets,
// for this tree and each checkout named, in alternating rounds: fastServe from the alias lookup to writeHead and end
// on a ServerResponse with no socket, against the same two calls of bench/raw-server.ts, and a second raw row handing
// writeHead this tree's own header list (Node's cost of those headers, apart from the gateway's own work). On a shared
// machine the load generator's rounds (npm run bench:ceiling) swing by several times; this isolates what the gateway
// itself adds. Wall time and this thread's CPU time a hit (process.threadCpuUsage: time spent waiting for a core on a
// loaded machine is not counted).
// Env: BENCH_ROUNDS (7), BENCH_HITS (20000).
import { IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { basename, resolve } from 'node:path';
import { median } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const HITS = Number(process.env.BENCH_HITS ?? 20000);
const URL_PATH = '/wp-json/calendar/events/v1/events?per_page=10';
const HEADERS = {
  host: '127.0.0.1:3000',
  'user-agent': 'ApacheBench/2.3',
  accept: '*/*',
  connection: 'keep-alive',
};
/** A list of ten events' size (about 46 KB), as the cached list of the demo calendar. */
const BODY = JSON.stringify({
  events: Array.from({ length: 10 }, (_, i) => ({
    id: i,
    title: `Event ${i}`,
    description: 'x'.repeat(4500),
  })),
});

function request(): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = URL_PATH;
  req.headers = { ...HEADERS };
  // The header lines as a socket's parser gives them: the fast path reads these (src/http/raw-headers.ts).
  req.rawHeaders = Object.entries(HEADERS).flat();
  return req;
}

/** A response with nowhere to write: its header block and body are made and queued, then dropped. */
function response(req: IncomingMessage): ServerResponse {
  const res = new ServerResponse(req);
  return res;
}

type Hit = () => void;

// biome-ignore lint/suspicious/noExplicitAny: each tree's own ResponseCache, loaded at run time
async function cacheOf(root: string): Promise<any> {
  const { ResponseCache } = await import(`${root}/src/cache/response-cache.ts`);
  const { makeEntry } = await import(`${root}/src/cache/entry.ts`);
  const cache = new ResponseCache({
    policy: { ttlSeconds: 3600, staleWhileRevalidateSeconds: 30, staleIfErrorSeconds: 86400 },
  });
  const key = 'events|per_page=10|en|anonymous';
  cache.aliases.learn(request(), key);
  await cache.get(key, async () => ({
    entry: makeEntry(BODY, {
      headers: { 'X-TEC-Total': '208', 'X-TEC-TotalPages': '21' },
      tags: ['list:event'],
    }),
    store: true,
  }));
  return cache;
}

async function hitOf(root: string): Promise<Hit> {
  const { fastServe } = await import(`${root}/src/cache/fast-path.ts`);
  const cache = await cacheOf(root);
  return () => {
    const req = request();
    if (!fastServe(cache, req, response(req))) throw new Error(`${root}: the fast path did not answer`);
  };
}

/** The header list a tree's fast path hands writeHead for this hit (caught on one response, nothing sent). */
async function headersOf(root: string): Promise<OutgoingHttpHeaders | Array<string | number>> {
  const { fastServe } = await import(`${root}/src/cache/fast-path.ts`);
  const req = request();
  const res = response(req);
  let caught: OutgoingHttpHeaders | Array<string | number> | undefined;
  res.writeHead = ((_status: number, headers: typeof caught) => {
    caught = headers;
    return res;
  }) as typeof res.writeHead;
  res.end = (() => res) as typeof res.end;
  fastServe(await cacheOf(root), req, res);
  if (!caught) throw new Error(`${root}: the fast path wrote no headers`);
  return caught;
}

/** raw: the four headers of bench/raw-server.ts; or the list given (the gateway's own, as a second ceiling). */
function rawHit(list?: OutgoingHttpHeaders | Array<string | number>): Hit {
  const body = Buffer.from(BODY);
  const headers = list ?? {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    etag: '"abc"',
    'cache-control': 'public, max-age=60',
  };
  return () => {
    const res = response(request());
    res.writeHead(200, headers);
    res.end(body);
  };
}

/** Wall and thread CPU µs a hit over one round. */
const microsPer = (hit: Hit): { wall: number; cpu: number } => {
  const t = performance.now();
  const c = process.threadCpuUsage();
  for (let i = 0; i < HITS; i++) hit();
  const d = process.threadCpuUsage(c);
  return { wall: ((performance.now() - t) / HITS) * 1000, cpu: (d.user + d.system) / HITS };
};

async function main(): Promise<void> {
  const trees = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];
  type Case = { name: string; hit: Hit; wall: number[]; cpu: number[] };
  const cases: Case[] = [
    { name: 'raw node:http calls', hit: rawHit(), wall: [], cpu: [] },
    { name: "raw, gateway's headers", hit: rawHit(await headersOf(trees[0]!)), wall: [], cpu: [] },
  ];
  for (const tree of trees) cases.push({ name: basename(tree), hit: await hitOf(tree), wall: [], cpu: [] });
  for (const c of cases) microsPer(c.hit); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      const m = microsPer(c.hit);
      c.wall.push(m.wall);
      c.cpu.push(m.cpu);
    }
  }
  console.log(`cached hit, in process, no socket: µs a hit (median of ${ROUNDS} rounds × ${HITS})`);
  const row = (c: Case, of: 'wall' | 'cpu') => {
    const ratios = c[of].map((x, i) => cases[0]![of][i]! / x);
    return `${median(c[of]).toFixed(2).padStart(6)} µs ${of.padEnd(4)} raw / it per round ${ratios.map((x) => x.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(3)}`;
  };
  for (const c of cases) {
    console.log(`${c.name.padEnd(22)} ${row(c, 'wall')}`);
    console.log(`${''.padEnd(22)} ${row(c, 'cpu')}`);
  }
  console.log(`Node ${process.version}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
