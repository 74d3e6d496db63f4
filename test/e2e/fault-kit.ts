// What the fault tests share (test/e2e/faults.test.ts, faults-redis.test.ts): the e2e WordPress site, its users, a
// gateway on it with a Redis prefix of its own, and finding what a case left behind in WordPress.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { expect, inject } from 'vitest';
import { type Server, startChild } from '../../bench/lib.ts';
import { upstreamDeadlineMs } from '../slack.ts';

export const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
export const NS = '/wp-json/calendar/events/v1';
export const up = inject('upstream');
export const stateDir = dirname(up.siteDir);
export const admin = { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` };
export const editor = `Basic ${Buffer.from(`editor:${up.usersPassword}`).toString('base64')}`;
export const tok = `fault${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGKILL to php -S and its workers at once (one process group: wp.sh starts it with setsid), as a crash. */
export function crashPhp() {
  const pid = Number(readFileSync(join(stateDir, 'php.pid'), 'utf8'));
  process.kill(-pid, 'SIGKILL');
}

export const wpSh = (cmd: string) =>
  promisify(execFile)('bash', [join(root, 'wordpress/wp.sh'), cmd], {
    env: { ...process.env, WP_STATE_DIR: stateDir },
  });

/** A gateway on the e2e site with its own Redis prefix. */
export const startGateway = (env: Record<string, string> = {}): Promise<Server> =>
  startChild(['src/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: up.url,
    UPSTREAM_AUTH: up.auth,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `cgfault${process.pid}:`,
    LOG_LEVEL: process.env.FAULT_DEBUG ?? 'silent',
    POLL_INTERVAL_MS: '1000',
    UPSTREAM_TIMEOUT_MS: String(upstreamDeadlineMs),
    ...env,
  });

/** The files below `dir` whose name starts with `stem`, relative to `dir`. */
export function filesUnder(dir: string, stem: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => basename(f).startsWith(stem))
    .map((f) => f.replace(/\\/g, '/'));
}

/** Every record of `restBase` in WordPress whose title (or name) holds `needle`, in any status. */
export async function wpFind(restBase: string, needle: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page++) {
    const terms = restBase === 'tags' || restBase === 'tribe_events_cat';
    // Attachments take no `status=any` (400: their statuses are inherit, private, trash): their default lists them.
    const scope = terms ? '&hide_empty=false' : restBase === 'media' ? '' : '&status=any';
    const res = await fetch(
      `${up.url}/wp/v2/${restBase}?search=${needle}&per_page=100&page=${page}&context=edit${scope}`,
      { headers: admin },
    );
    // A refusal would make every count below vacuous.
    expect(res.status, `${restBase}: ${await res.clone().text()}`).toBe(200);
    const rows = (await res.json()) as Array<Record<string, unknown>>;
    out.push(...rows);
    if (rows.length < 100) break;
  }
  return out;
}

export async function wpDelete(restBase: string, id: unknown) {
  await fetch(`${up.url}/wp/v2/${restBase}/${id}?force=true`, { method: 'DELETE', headers: admin }).catch(
    () => undefined,
  );
}

export const titleOf = (r: Record<string, unknown>) =>
  typeof r.title === 'object' ? String((r.title as { raw?: string }).raw) : String(r.name);
