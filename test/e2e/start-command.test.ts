// `npm start`, as the README tells a user to run it: SIGTERM (a process manager, `docker stop`, `kill`) and SIGINT
// (Ctrl-C) sent to the top process reach the gateway, which shuts down, logs it and exits 0 with nothing left
// behind (npm 11 runs a script through `sh -c`, which would otherwise stay between npm and the gateway and die
// alone). Outside a terminal, the demo's line to paste is a log line of its own that a shell runs as it is.
import { execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib.ts';
import { guard } from '../slack.ts';

const root = new URL('../../', import.meta.url).pathname;
const PASSWORD = 'start-command-password';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every process below `pid` (children, grandchildren), from /proc. */
const descendants = (pid: number): number[] => {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const pairs = out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of pairs)
      if (parent === p) {
        found.push(child);
        walk(child);
      }
  };
  walk(pid);
  return found;
};

async function startAndStop(signal: 'SIGTERM' | 'SIGINT', env: Record<string, string> = {}) {
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_EVENTS: '20',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout!.on('data', (d) => {
    out += d;
  });
  npm.stderr!.on('data', (d) => {
    out += d;
  });
  // `close`, not `exit`: the output read to its end (npm's exit may come before its last lines are read).
  const exited = new Promise<number | null>((r) => npm.once('close', (code) => r(code)));
  const deadline = Date.now() + 60_000;
  while (!/"msg":"ready"/.test(out)) {
    if (Date.now() > deadline || npm.exitCode !== null)
      throw new Error(`npm start did not get ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await listening(port)).toBe(true);
  const below = descendants(npm.pid!);
  expect(below.length).toBeGreaterThan(0);
  npm.kill(signal);
  const code = await exited;
  const lines = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, lines, port, below };
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the gateway: it logs its shutdown, exits 0, frees the port and leaves no process',
    async (signal) => {
      const { code, lines, port, below } = await startAndStop(signal, { DEMO_PASSWORD: PASSWORD });
      expect(code).toBe(0);
      expect(lines.find((l) => l.msg === 'shutting down: finishing requests in flight')).toMatchObject({
        signal,
      });
      // Both lines, in order, and nothing after them.
      expect(lines.slice(-2)).toMatchObject([
        { msg: 'shutting down: finishing requests in flight', signal },
        { msg: 'stopped', signal },
      ]);
      expect(await listening(port)).toBe(false);
      for (const pid of below) expect(alive(pid), `process ${pid} outlived npm`).toBe(false);
    },
    90_000,
  );

  it('prints the demo password as a line a shell runs as it is, outside a terminal too', {
    timeout: guard(90_000),
  }, async () => {
    const password = `pa'ss word$1`;
    const { lines } = await startAndStop('SIGTERM', { DEMO_PASSWORD: password });
    const paste = lines.find((l) => l.demo === true)?.msg as string;
    expect(paste).toMatch(/^export DEMO_PASSWORD='[^\n]+'$/);
    expect(execFileSync('sh', ['-c', `${paste}; printf %s "$DEMO_PASSWORD"`], { encoding: 'utf8' })).toBe(
      password,
    );
  });
});
