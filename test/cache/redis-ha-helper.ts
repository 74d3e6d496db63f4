// Real Redis HA sets on loopback for the tests: a Redis Cluster (3 masters, 3 replicas), a Sentinel set (1 master,
// 1 replica, 3 sentinels), each node a redis-server of Debian's package started here and killable; and a TCP proxy
// that cuts one client's connection to Redis.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '../../bench/lib.ts';
import { guard } from '../slack.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Node {
  port: number;
  url: string;
  /** SIGKILL, as a crashed host. */
  kill(): Promise<void>;
}

function serve(args: string[]): ChildProcess {
  // Replicas sync at once (Redis waits 5 s for more replicas to share a diskless sync by default).
  return spawn('redis-server', [...args, '--repl-diskless-sync-delay', '0'], { stdio: 'ignore' });
}

const sentinelOf = (args: string[]): ChildProcess => spawn('redis-server', args, { stdio: 'ignore' });

const killer = (child: () => ChildProcess | undefined) => async () => {
  const c = child();
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const gone = new Promise((r) => c.once('exit', r));
  c.kill('SIGKILL');
  await gone;
};

/** Ports a server is started on at most: another process may take a free port before the server binds it. */
const PORT_TRIES = 5;

/**
 * A redis-server (or sentinel) started on a free loopback port with `argsFor(port)`, once it answers PING. One that
 * exits first (its port taken meanwhile by another lane's server) is started again on another port.
 */
async function serveOnFreePort(
  argsFor: (port: number) => string[],
  start: (args: string[]) => ChildProcess = serve,
): Promise<Node> {
  for (let i = 0; i < PORT_TRIES; i++) {
    const port = await freePort();
    const child = start(argsFor(port));
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    const kill = killer(() => child);
    await until(
      `redis-server on ${port}`,
      async () => exited() || (await info(port, 'ping')).includes('PONG'),
    ).catch(async (err: unknown) => {
      // One that never answered is not left running.
      await kill();
      throw err;
    });
    if (!exited()) return { port, url: `redis://127.0.0.1:${port}`, kill };
  }
  throw new Error(`no redis-server started on a free port in ${PORT_TRIES} tries`);
}

/** A redis-server on a free loopback port, keeping nothing on disk but what it must, in `dir`; `extra`: its role. */
function startNode(dir: string, extra: string[]): Promise<Node> {
  return serveOnFreePort((port) => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    ...extra,
  ]);
}

/** Waits for `cond` (a guard of `ms` × the lanes' slack: redis-server starts slowly at load 12–18). */
async function until(what: string, cond: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + guard(ms);
  while (Date.now() < end) {
    if (await cond().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what} did not happen within ${guard(ms)} ms`);
}

const info = async (port: number, ...args: string[]): Promise<string> =>
  (await run('redis-cli', ['-p', String(port), ...args], { timeout: guard(2_000) })).stdout;

export interface LocalCluster {
  nodes: Node[];
  /** Comma-separated seed URLs, as REDIS_URL takes them. */
  url: string;
  /** The node that serves `key`'s slot now (its master). */
  masterOf(key: string): Promise<Node>;
  dispose(): Promise<void>;
}

/** Six nodes, `redis-cli --cluster create … --cluster-replicas 1`: three masters, each with a replica. */
export async function localCluster(): Promise<LocalCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-cluster-'));
  const nodes: Node[] = [];
  const dispose = async () => {
    await Promise.all(nodes.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 6; i++) {
      // Each node its own cluster file (the node writes it; `i` keeps the names apart).
      const conf = ['--cluster-config-file', join(dir, `nodes-${i}.conf`)];
      nodes.push(
        await startNode(dir, ['--cluster-enabled', 'yes', '--cluster-node-timeout', '1000', ...conf]),
      );
    }
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { timeout: guard(30_000) },
    );
    for (const n of nodes)
      await until('cluster_state:ok', async () =>
        (await info(n.port, 'cluster', 'info')).includes('cluster_state:ok'),
      );
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    nodes,
    url: nodes.map((n) => n.url).join(','),
    masterOf: async (key) => {
      // A live node answers which node serves the key's slot.
      for (const n of nodes) {
        const r = new Redis(n.port, '127.0.0.1', {
          lazyConnect: true,
          retryStrategy: () => null,
          maxRetriesPerRequest: 0,
        });
        try {
          await r.connect();
          const slot = (await r.call('cluster', 'keyslot', key)) as number;
          const ranges = (await r.call('cluster', 'slots')) as Array<[number, number, [string, number]]>;
          const owner = ranges.find(([lo, hi]) => slot >= lo && slot <= hi)?.[2][1];
          const node = nodes.find((x) => x.port === owner);
          if (node) return node;
        } catch {
          // That node is down: ask another.
        } finally {
          r.disconnect();
        }
      }
      throw new Error(`no node serves ${key}`);
    },
    dispose,
  };
}

export interface LocalSentinel {
  master: Node;
  replica: Node;
  /** The sentinels' URLs, comma-separated (REDIS_URL with REDIS_MODE=sentinel). */
  url: string;
  name: string;
  /** Resolves the port of the master the sentinels name now. */
  currentMaster(): Promise<number>;
  dispose(): Promise<void>;
}

/** A master, its replica, and three sentinels watching it (quorum 2, down after 1 s). */
export async function localSentinel(): Promise<LocalSentinel> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-sentinel-'));
  const name = 'cgmaster';
  const master = await startNode(dir, []);
  const started: Node[] = [master];
  const sentinels: Node[] = [];
  const dispose = async () => {
    await Promise.all([...started, ...sentinels].map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  let replica: Node;
  try {
    replica = await startNode(dir, ['--replicaof', '127.0.0.1', String(master.port)]);
    started.push(replica);
    for (let i = 0; i < 3; i++) {
      const sentinel = await serveOnFreePort((port) => {
        const conf = join(dir, `sentinel-${port}.conf`);
        // Sentinel rewrites its configuration file: one writable file each.
        writeFileSync(
          conf,
          [
            `port ${port}`,
            'bind 127.0.0.1',
            `dir ${dir}`,
            `sentinel monitor ${name} 127.0.0.1 ${master.port} 2`,
            `sentinel down-after-milliseconds ${name} 1000`,
            `sentinel failover-timeout ${name} 5000`,
            `sentinel parallel-syncs ${name} 1`,
            '',
          ].join('\n'),
        );
        return [conf, '--sentinel'];
      }, sentinelOf);
      sentinels.push(sentinel);
    }
    await until('replica in sync', async () =>
      (await info(replica.port, 'info', 'replication')).includes('master_link_status:up'),
    );
    for (const s of sentinels)
      await until('sentinels see each other and the replica', async () => {
        const text = await info(s.port, 'sentinel', 'master', name);
        return /num-other-sentinels\s+2/.test(text) && /num-slaves\s+1/.test(text);
      });
  } catch (err) {
    await dispose();
    throw err;
  }
  return {
    master,
    replica,
    name,
    url: sentinels.map((s) => s.url).join(','),
    currentMaster: async () => {
      for (const s of sentinels) {
        const out = await info(s.port, 'sentinel', 'get-master-addr-by-name', name).catch(() => '');
        const port = Number(out.trim().split('\n')[1]);
        if (port) return port;
      }
      throw new Error('no sentinel answers');
    },
    dispose,
  };
}

export interface TcpProxy {
  url: string;
  /** Closes every connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy to a Redis port, to cut one client off (the client's reconnections are refused until restored). */
export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = tcpConnect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => {
            sockets.delete(s);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise((r) => s.close(() => r(undefined)));
  };
  await listen();
  return { url: `redis://127.0.0.1:${port}`, cut, restore: listen, close: cut };
}
