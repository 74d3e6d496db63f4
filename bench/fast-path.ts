// `npm run bench:fast-path [-- other checkout…]`: the cached-hit path's own work, in process and without sockets,
// for this tree and each checkout named, in alternating rounds: fastServe from the alias lookup to writeHead and end
// on a ServerResponse with no socket, against the same two calls of bench/raw-server.ts. On a shared machine the
// load generator's rounds (npm run bench:ceiling) swing by several times; this isolates what the gateway itself adds.
// Env: BENCH_ROUNDS (7), BENCH_HITS (20000).
import { IncomingMessage, ServerResponse } from 'node:http';
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
  return req;
}

/** A response with nowhere to write: its header block and body are made and queued, then dropped. */
function response(req: IncomingMessage): ServerResponse {
  const res = new ServerResponse(req);
  return res;
}

type Hit = () => void;

async function hitOf(root: string): Promise<Hit> {
  const { ResponseCache } = await import(`${root}/src/cache/response-cache.ts`);
  const { makeEntry } = await import(`${root}/src/cache/entry.ts`);
  const { fastServe } = await import(`${root}/src/cache/fast-path.ts`);
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
  return () => {
    const req = request();
    if (!fastServe(cache, req, response(req))) throw new Error(`${root}: the fast path did not answer`);
  };
}

function rawHit(): Hit {
  const body = Buffer.from(BODY);
  const headers = {
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

const microsPer = (hit: Hit): number => {
  const t = performance.now();
  for (let i = 0; i < HITS; i++) hit();
  return ((performance.now() - t) / HITS) * 1000;
};

async function main(): Promise<void> {
  const trees = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];
  const cases: Array<{ name: string; hit: Hit; us: number[] }> = [
    { name: 'raw node:http calls', hit: rawHit(), us: [] },
  ];
  for (const tree of trees) cases.push({ name: basename(tree), hit: await hitOf(tree), us: [] });
  for (const c of cases) microsPer(c.hit); // warm-up
  for (let r = 0; r < ROUNDS; r++) for (const c of cases) c.us.push(microsPer(c.hit));
  const raw = cases[0]!.us;
  console.log(`cached hit, in process, no socket: µs a hit (median of ${ROUNDS} rounds × ${HITS})`);
  for (const c of cases) {
    const ratios = c.us.map((x, i) => raw[i]! / x);
    console.log(
      `${c.name.padEnd(20)} ${median(c.us).toFixed(2).padStart(7)} µs   raw / it per round ${ratios.map((x) => x.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(3)}`,
    );
  }
  console.log(`Node ${process.version}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
