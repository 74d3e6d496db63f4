// What crafted anonymous requests cost the gateway (issue 19, finding 2), for this tree and any other checkouts
// named on the command line, side by side on demo-mode gateways:
//   git worktree add ../before <commit> && node bench/anonymous-cost.ts ../before
// Prints each probe's status and median milliseconds (loopback, one request at a time: the gateway's own work), and
// how long a cached list waits while four copies of the heaviest probe are answered. BENCH_ONLY=<text> runs the probes whose
// name contains it; BENCH_ROUNDS (5) the rounds.
import { resolve } from 'node:path';
import { median, type Server, startChild } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const API = '/wp-json/calendar/events/v1';
const LIST = `${API}/events?per_page=10`;

interface Probe {
  name: string;
  method: string;
  path: string;
  body?: string;
  type?: string;
  headers?: Record<string, string>;
}

const days = (n: number) => '+1 day '.repeat(n);
const q = encodeURIComponent;
const csv = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join(',');
/** Node refuses request heads over 16 KB: a query string of ~14 KB is as large as an anonymous GET gets. */
const URL_BUDGET = 14_000;

const PROBES: Probe[] = [
  {
    name: 'POST /events, dates of 490 KB each (1 MB body)',
    method: 'POST',
    path: `${API}/events`,
    body: JSON.stringify({ title: 'x', start_date: days(70_000), end_date: days(70_000) }),
  },
  {
    name: 'PUT /events/by-slug/x, dates of 490 KB each',
    method: 'PUT',
    path: `${API}/events/by-slug/x`,
    body: JSON.stringify({ start_date: days(70_000), end_date: days(70_000) }),
  },
  {
    name: 'POST /venues, a 1 MB venue name',
    method: 'POST',
    path: `${API}/venues`,
    body: JSON.stringify({ venue: 'v'.repeat(1_000_000) }),
  },
  {
    name: 'POST /events, a form body of 1000 fields',
    method: 'POST',
    path: `${API}/events`,
    type: 'application/x-www-form-urlencoded',
    body: Array.from({ length: 1000 }, (_, i) => `f${i}[a][b][c]=${'y'.repeat(900)}`).join('&'),
  },
  {
    name: 'POST /events, JSON nested 100 000 deep',
    method: 'POST',
    path: `${API}/events`,
    body: `{"title":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  },
  {
    name: 'GET /events?start_date= 7 KB of "+1 day" (13 KB encoded)',
    method: 'GET',
    path: `${API}/events?start_date=${q(days(1_000))}`,
  },
  {
    name: 'GET /events?search= 13 KB of one word',
    method: 'GET',
    path: `${API}/events?search=${'e'.repeat(URL_BUDGET)}`,
  },
  {
    name: 'GET /events?search= 4500 one-letter words',
    method: 'GET',
    path: `${API}/events?search=${'e+a+'.repeat(URL_BUDGET / 6)}`,
  },
  {
    name: 'GET /events?search= 13 KB of punctuation',
    method: 'GET',
    path: `${API}/events?search=${'%25_'.repeat(URL_BUDGET / 4)}`,
  },
  {
    name: 'GET /events?include= 2500 ids',
    method: 'GET',
    path: `${API}/events?include=${csv(2_500, String)}`,
  },
  {
    name: 'GET /events?categories= 2000 slugs',
    method: 'GET',
    path: `${API}/events?categories=${csv(2_000, (i) => `c${i}`)}`,
  },
  {
    name: 'GET /events?venue= 2500 ids',
    method: 'GET',
    path: `${API}/events?venue=${csv(2_500, String)}`,
  },
  {
    name: 'GET /venues?search= 13 KB of one word',
    method: 'GET',
    path: `${API}/venues?search=${'e'.repeat(URL_BUDGET)}`,
  },
  {
    name: 'GET /events?x[a][b][c][d][e]= 600 nested parameters',
    method: 'GET',
    path: `${API}/events?${Array.from({ length: 600 }, (_, i) => `${i}[a][b][c][d][e]=1`).join('&')}`,
  },
];

/** One request; the milliseconds until its whole answer arrived. */
async function time(base: string, p: Probe, salt: number): Promise<{ ms: number; status: number }> {
  // A unique parameter per request: an anonymous GET must miss the response cache to cost anything.
  const sep = p.path.includes('?') ? '&' : '?';
  const url = p.method === 'GET' ? `${base}${p.path}${sep}_r=${salt}` : `${base}${p.path}`;
  const t = performance.now();
  const res = await fetch(url, {
    method: p.method,
    headers: { 'Content-Type': p.type ?? 'application/json', ...p.headers },
    body: p.body,
  });
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status };
}

/** How long a cached list takes while four copies of `heavy` are being answered. */
async function stall(base: string, heavy: Probe): Promise<number> {
  await fetch(`${base}${LIST}`).then((r) => r.arrayBuffer());
  const load = Array.from({ length: 4 }, (_, i) => time(base, heavy, 1e6 + i));
  await new Promise((r) => setTimeout(r, 5));
  const t = performance.now();
  await fetch(`${base}${LIST}`).then((r) => r.arrayBuffer());
  const ms = performance.now() - t;
  await Promise.all(load);
  return ms;
}

async function main(): Promise<void> {
  const trees = ['.', ...process.argv.slice(2)].map((d) => resolve(d));
  const servers: Server[] = [];
  try {
    for (const tree of trees) {
      servers.push(
        await startChild([`${tree}/src/main.ts`], {
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          POLL_INTERVAL_MS: '0',
          REDIS_URL: '',
          DEMO_PASSWORD: 'bench-password',
        }),
      );
    }
    const header = ['probe', ...trees.map((t) => `${t.split('/').pop()} (status, ms)`)];
    process.stdout.write(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
    let salt = 0;
    const only = process.env.BENCH_ONLY;
    for (const p of PROBES.filter((x) => !only || x.name.includes(only))) {
      const cells: string[][] = servers.map(() => []);
      const ms: number[][] = servers.map(() => []);
      const statuses: number[] = servers.map(() => 0);
      for (let r = 0; r < ROUNDS; r++) {
        // Alternating trees within a round: both see the same moment of a shared machine.
        for (const [i, s] of servers.entries()) {
          const t = await time(s.url, p, ++salt);
          ms[i]!.push(t.ms);
          statuses[i] = t.status;
        }
      }
      for (const [i] of servers.entries()) cells[i]!.push(`${statuses[i]}, ${median(ms[i]!).toFixed(1)}`);
      process.stdout.write(`| ${p.name} | ${cells.map((c) => c.join('')).join(' | ')} |\n`);
    }
    const heavy = PROBES[0]!;
    const waits: number[] = [];
    for (const s of servers) {
      const each: number[] = [];
      for (let r = 0; r < 3; r++) each.push(await stall(s.url, heavy));
      waits.push(median(each));
    }
    process.stdout.write(
      `| cached list while 4 × "${heavy.name}" run | ${waits.map((w) => `200, ${w.toFixed(1)}`).join(' | ')} |\n`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

await main();
