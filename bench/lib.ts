// Benchmark helpers: child servers on loopback, load generators (wrk, else autocannon), medians.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ensureWordPress } from '../wordpress/upstream.ts';

export interface Server {
  url: string;
  child: ChildProcess;
  /**
   * What the child printed (stdout, then stderr): all of it up to OUTPUT_KEPT characters a stream, then that much of
   * its start and of its latest output.
   */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Resolves once a gateway's readiness route answers 200 (the port opens before the index is built); any other
 * server (the raw node:http baseline) has no such route and counts as ready when it answers at all.
 */
async function ready(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${url}/calendar-gateway/v1/ready`).catch(() => undefined);
    if (res?.status === 200 || res?.status === 404) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready`);
}

/** Whether `port` can be bound on loopback now. */
const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/**
 * A port nothing listens on now (loopback), for a process a test or bench starts that binds it itself (a gateway,
 * redis-server, nginx, varnish). Picked at random from 20000–32767, below the kernel's ephemeral range (Linux
 * 32768–60999, IANA 49152–65535): a port from `listen(0)`, released and handed on, may meanwhile be taken by any
 * outgoing connection of the machine (CI of 2026-11-30: "php -S exited (port 33703 in use?)"), while only another
 * `freePort` can pick one from here.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (await bindable(port)) return port;
  }
  throw new Error('freePort: no free port in 20000-32767 after 100 tries');
}

/**
 * The local WordPress of `stateDir` (wordpress/wp.sh), started on a free port unless it already runs: a running site
 * keeps its port, since wp.sh refuses to start it on another (a bench stopped midway leaves its site up for the next).
 */
export async function localWordPress(stateDir: string): Promise<{ url: string; auth: string }> {
  const running = existsSync(join(stateDir, 'php.pid')) && existsSync(join(stateDir, 'port'));
  const port = running ? Number(readFileSync(join(stateDir, 'port'), 'utf8')) : await freePort();
  console.error(`starting the local WordPress of ${stateDir} …`);
  return ensureWordPress({
    mapping: new URL('../mappings/tec.json', import.meta.url).pathname,
    stateDir,
    port,
  });
}

/**
 * Characters of a child's output kept from its start and from its end, per stream. A gateway logging every request
 * prints megabytes in a run; keeping all of it, and searching all of it on every chunk, made the load generator in
 * this process slower with every request it measured.
 */
const OUTPUT_KEPT = 256 * 1024;

/** A child's stream as its first and latest OUTPUT_KEPT characters. */
class Kept {
  #head = '';
  #tail = '';
  add(chunk: string): void {
    if (this.#head.length < OUTPUT_KEPT) {
      const room = OUTPUT_KEPT - this.#head.length;
      this.#head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk) this.#tail = (this.#tail + chunk).slice(-OUTPUT_KEPT);
  }
  get head(): string {
    return this.#head;
  }
  toString(): string {
    return this.#tail ? `${this.#head}\n[…]\n${this.#tail}` : this.#head;
  }
}

/** A benchmarked gateway's environment: a free loopback port, silent, answers kept an hour, no poll, no Redis. */
export const gatewayEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  CACHE_TTL_SECONDS: '3600',
  POLL_INTERVAL_MS: '0',
  REDIS_URL: '',
  ...extra,
});

/**
 * Children `startChild` started that still run: stopped when this process exits, however it ends. A bench stops its
 * own in a `finally`, which a signal from outside (a timeout's SIGTERM) skips: a mock WordPress was once left running
 * so. Outside vitest (whose workers it runs in for some tests), a signal then ends this process through `exit`.
 */
const running = new Set<ChildProcess>();
let armed = false;
function stopWithThisProcess(child: ChildProcess): void {
  if (!armed) {
    armed = true;
    process.once('exit', () => {
      for (const c of running) c.kill('SIGTERM');
    });
    if (!process.env.VITEST)
      for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
        process.once(signal, () => process.exit(128 + constants.signals[signal]));
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/**
 * Starts `node <args>` (or `command <args>`) and resolves once it is ready. With `PORT` in `env` (`0`: a free port
 * chosen here) the child is polled on that port, whatever it logs; otherwise it must print its loopback URL.
 * `cwd`: the directory it runs in (default this process's).
 */
export async function startChild(
  args: string[],
  env: Record<string, string> = {},
  command = process.execPath,
  cwd?: string,
): Promise<Server> {
  const port = env.PORT === undefined ? undefined : env.PORT === '0' ? await freePort() : Number(env.PORT);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env, ...(port ? { PORT: String(port) } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stopWithThisProcess(child);
    const out = new Kept();
    const err = new Kept();
    let found = false;
    // BENCH_START_SECONDS (60): a loaded machine's WordPress can take longer to fill a gateway's index.
    const timer = setTimeout(
      () => {
        child.kill();
        reject(new Error(`${args.join(' ')} did not start:\n${err}`));
      },
      Number(process.env.BENCH_START_SECONDS ?? 60) * 1000,
    );
    const onPort = (p: string | number) => {
      if (found) return;
      found = true;
      const url = `http://127.0.0.1:${p}`;
      ready(url).then(() => {
        clearTimeout(timer);
        resolve({
          url,
          child,
          output: () => `${out}${err}`,
          stop: () =>
            new Promise((r) => {
              if (child.exitCode !== null) return r();
              child.once('exit', () => r());
              child.kill('SIGTERM');
            }),
        });
      }, reject);
    };
    child.stderr!.on('data', (d) => err.add(String(d)));
    child.stdout!.on('data', (d) => {
      out.add(String(d));
      if (found || port !== undefined) return;
      const m = /http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(out.head);
      if (m) onPort(m[1]!);
    });
    if (port !== undefined) onPort(port);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${err}`)));
  });
}

/**
 * Installs Debian's `packages` when `command` is not on the PATH (test/setup/apt-install.sh: as root, under the lock
 * the WordPress installs take), so that a bench needing a tool runs on a fresh machine as the tests do.
 */
export function aptInstall(command: string, ...packages: string[]): void {
  execFileSync(
    'bash',
    [new URL('../test/setup/apt-install.sh', import.meta.url).pathname, command, ...packages],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

export const hasWrk = (): boolean => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (e) {
    // wrk --version exits 1 but prints its banner: present.
    return (e as { code?: string }).code !== 'ENOENT';
  }
};

export interface Load {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Make every request's URL unique (cache misses); autocannon only. */
  unique?: boolean;
  tool: 'wrk' | 'autocannon';
}

export interface Result {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
}

function wrk(l: Load): Result {
  const args = ['-t1', `-c${l.connections}`, `-d${l.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(l.headers ?? {})) args.push('-H', `${k}: ${v}`);
  const out = execFileSync('wrk', [...args, l.url], { encoding: 'utf8', timeout: (l.seconds + 30) * 1000 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const ms = (pct: string): number => {
    const m = new RegExp(`${pct}%\\s+([\\d.]+)(us|ms|s)\\b`).exec(out);
    return m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : Number.NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors:.*/.exec(out)?.[0];
  if (errors && /timeout [1-9]/.test(errors)) process.stderr.write(`  (wrk: ${errors})\n`);
  return { rps, p50ms: ms('50'), p99ms: ms('99'), non2xx };
}

/** When the misses' `start_date`s begin: now, so that each miss lists what the route's default would. */
const MISS_BASE = Date.now();
let misses = 0;

/**
 * `url` as an answer of its own for nearly the same list: with a `start_date` a second later each call. A name the
 * route does not take would not do: it no longer splits the cache (src/stages/cache.ts).
 */
export function missUrl(url: string): string {
  const at = new Date(MISS_BASE + misses++ * 1000).toISOString();
  const param = `start_date=${encodeURIComponent(`${at.slice(0, 10)} ${at.slice(11, 19)}`)}`;
  return `${url}${url.includes('?') ? '&' : '?'}${param}`;
}

async function cannon(l: Load): Promise<Result> {
  const { pathname, search } = new URL(l.url);
  const r = await autocannon({
    url: l.url,
    // Each request's own path: setupRequest runs once per request sent.
    ...(l.unique
      ? { requests: [{ setupRequest: (req) => ({ ...req, path: missUrl(pathname + search) }) }] }
      : {}),
    connections: l.connections,
    duration: l.seconds,
    headers: l.headers,
  });
  return { rps: r.requests.average, p50ms: r.latency.p50, p99ms: r.latency.p99, non2xx: r.non2xx };
}

export const runLoad = (l: Load): Promise<Result> =>
  l.tool === 'wrk' && !l.unique ? Promise.resolve(wrk(l)) : cannon(l);

/** The value at percentile `p` (0–100) of `xs`, in any order; NaN when there is none. */
export const pct = (xs: readonly number[], p: number): number => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? Number.NaN;
};

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Headers Node's own server adds to every answer, and the request id the gateway echoes: not a raw server's own. */
const NODE_ADDS = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);

/** An answer's headers (e.g. a gateway's hit) less those Node's server adds itself: what a mirror of it sends. */
export const ownHeaders = (headers: Iterable<[string, string]>): Array<[string, string]> =>
  [...headers].filter(([k]) => !NODE_ADDS.has(k));

/**
 * The ceiling (bench/raw-server.ts) serving `body` with `etag`, its files written in `dir`: with `headers`
 * (`ownHeaders` of an answer), exactly those; without them, the usual four. `flags`: node's own, before the script (`--cpu-prof`).
 */
export function startRawServer(
  dir: string,
  body: Buffer,
  etag: string,
  opts: { headers?: Array<[string, string]>; flags?: string[] } = {},
): Promise<Server> {
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, body);
  const env: Record<string, string> = {};
  if (opts.headers) {
    env.RAW_HEADERS_FILE = join(dir, 'headers.json');
    writeFileSync(env.RAW_HEADERS_FILE, JSON.stringify(opts.headers));
  }
  const script = fileURLToPath(new URL('./raw-server.ts', import.meta.url));
  return startChild([...(opts.flags ?? []), script, bodyFile, etag], env);
}

/**
 * Debian's nginx in the foreground with deploy/nginx.conf's site, its upstream block listing `ports` and listening
 * on 127.0.0.1:`front`; its config, temp files, pid and log live in `dir`. SIGQUIT stops it.
 */
export function spawnNginx(
  dir: string,
  ports: number[],
  front: number,
  workerConnections = 1024,
): ChildProcess {
  const site = readFileSync(new URL('../deploy/nginx.conf', import.meta.url), 'utf8')
    .replace(
      /(upstream calendar_gateway \{\n)(?:\s*server .*\n)+/,
      (_m, head: string) =>
        `${head}${ports.map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=10s;\n`).join('')}`,
    )
    .replace('listen 80;', `listen 127.0.0.1:${front};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${dir}/${t};`)
    .join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;\n` +
      `events { worker_connections ${workerConnections}; }\nhttp { access_log off; ${temp}\n${site}\n}\n`,
  );
  const bin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync) ?? 'nginx';
  return spawn(bin, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], {
    stdio: 'ignore',
  });
}

/** The anonymous list URLs (below the API root) the read-under-write benchmarks keep cached and read. */
export const CACHED_LISTS = [
  '/events',
  '/events?per_page=20',
  '/events?page=2',
  '/venues',
  '/venues?has_events=true',
  '/venues?only_with_upcoming=true',
  '/organizers',
  '/organizers?has_events=true',
  '/categories',
  '/categories?hide_empty=false',
  '/tags',
];
