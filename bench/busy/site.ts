// The processes of the busy-WordPress benchmark: a local WordPress site (wordpress/wp.sh), a Redis of its own, and
// which cores each may run on (taskset).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Processes whose command line names `needle` (the site's state dir): php -S and its workers, mariadbd. */
export function pidsNaming(needle: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const args = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (args.includes(needle)) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Sets the cores of every thread of these processes (`0`, `1`, `0-1`). */
export function pin(pids: number[], cpus: string): void {
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
    } catch {
      // a process that exited meanwhile
    }
  }
}

export interface Site {
  url: string;
  /** `user:application-password` of the site's editor. */
  auth: string;
  pids(): number[];
}

/** Starts (or finds running) the site in `state` on `port`; wp.sh prints UPSTREAM_URL and UPSTREAM_AUTH. */
export function startSite(repo: string, state: string, port: number): Site {
  const out = execFileSync('bash', [`${repo}/wordpress/wp.sh`, 'start', '--port', String(port)], {
    env: { ...process.env, WP_STATE_DIR: state },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 600_000,
  });
  const value = (k: string) => new RegExp(`^${k}=(.*)$`, 'm').exec(out)?.[1] ?? '';
  return { url: value('UPSTREAM_URL'), auth: value('UPSTREAM_AUTH'), pids: () => pidsNaming(state) };
}

/** A throwaway redis-server on `port` (no persistence). */
export function startRedis(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}

/** Deletes events for good through wp/v2 (the site's editor may delete others' events). */
export async function deleteEvents(site: Site, restBase: string, ids: number[]): Promise<void> {
  const auth = `Basic ${Buffer.from(site.auth).toString('base64')}`;
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(
      ids.slice(i, i + 8).map((id) =>
        fetch(`${site.url}/wp/v2/${restBase}/${id}?force=true`, {
          method: 'DELETE',
          headers: { Authorization: auth },
        }).then((r) => r.arrayBuffer()),
      ),
    );
  }
}
