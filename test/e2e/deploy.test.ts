// deploy/ as far as this machine can run it: the systemd unit (checked by systemd-analyze, its ExecStart and
// environment file run as systemd would, on the system's Node), two instances sharing Redis behind deploy/nginx.conf
// on one port, a write through one seen through the other, and SIGTERM exiting 0.
import { execFile, execFileSync, type spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, type Server, spawnNginx, startChild } from '../../bench/lib.ts';
import { settings } from '../../src/config.ts';
import { composeCommand } from '../setup/e2e-tools.ts';
import { guard } from '../slack.ts';
import { postEvent } from './demo.ts';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const read = (p: string) => readFileSync(join(root, p), 'utf8');
const UNIT = 'deploy/calendar-gateway@.service';
const NS = '/wp-json/calendar/events/v1';

/** KEY=VALUE lines of an environment file, as systemd's EnvironmentFile= reads them. */
const envFile = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

/** The unit as installed on this machine: the package here instead of /opt, the example environment file. */
const localUnit = (port: number) =>
  read(UNIT)
    .replaceAll('/opt/calendar-gateway', root)
    .replace('/etc/calendar-gateway.env', join(root, 'deploy/calendar-gateway.env.example'))
    .replace(/^(User|Group)=.*$/gm, '$1=root')
    .replaceAll('%i', String(port));

const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find(existsSync) ?? process.execPath;

let dir: string;
let nginx: ReturnType<typeof spawn> | undefined;
let front: string;
const gateways: Server[] = [];
const up = inject('upstream');
const tok = `deploy${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;
const editor = `Basic ${Buffer.from(`editor:${up.usersPassword}`).toString('base64')}`;

async function startInstance(port: number, publicUrl: string): Promise<Server> {
  const unit = localUnit(port);
  const exec = /^ExecStart=(\S+) (.+)$/m.exec(unit)!;
  const env = {
    ...envFile(read('deploy/calendar-gateway.env.example')),
    ...Object.fromEntries([...unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!])),
    UPSTREAM_URL: up.url,
    UPSTREAM_AUTH: up.auth,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `cgdeploy${process.pid}:`,
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: 'silent',
    POLL_INTERVAL_MS: '60000',
  };
  // ExecStart's program is the system's Node (20 on Debian): bin/calendar-gateway.js hands over to Node 24.
  expect(exec[1]).toBe('/usr/bin/node');
  return startChild(exec[2]!.split(' '), env, systemNode);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-deploy-'));
  execFileSync('chmod', ['755', dir]);
  const [p1, p2, pn] = [await freePort(), await freePort(), await freePort()];
  front = `http://127.0.0.1:${pn}`;
  gateways.push(await startInstance(p1, front), await startInstance(p2, front));
  nginx = spawnNginx(dir, [p1, p2], pn, 128);
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${front}/calendar-gateway/v1/health`).catch(() => undefined))?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not answer:\n${readFileSync(join(dir, 'error.log'), 'utf8')}`);
}, guard(180_000));

afterAll(async () => {
  nginx?.kill('SIGQUIT');
  await Promise.all(gateways.map((g) => g.stop()));
  // The test's events are removed through WordPress itself.
  const found = await fetch(`${up.url}/wp/v2/tribe_events?search=${tok}&status=any&_fields=id`, {
    headers: { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` },
  }).then(
    (r) => r.json() as Promise<Array<{ id: number }>>,
    () => [],
  );
  for (const { id } of Array.isArray(found) ? found : []) {
    await fetch(`${up.url}/wp/v2/tribe_events/${id}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` },
    }).catch(() => undefined);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('deploy/', () => {
  it('has a systemd unit that systemd-analyze accepts without a warning', async () => {
    const file = join(dir, 'calendar-gateway@3001.service');
    writeFileSync(file, localUnit(3001));
    const { stderr } = await promisify(execFile)('systemd-analyze', ['verify', file]).catch(
      (e: { stderr: string; code: number }) => ({ stderr: `exit ${e.code}: ${e.stderr}` }),
    );
    expect(stderr.trim()).toBe('');
  });

  it('keeps the compose files in step with the nginx snippet and the settings', () => {
    const composeNginx = read('deploy/compose-nginx.conf').split('\n').slice(1).join('\n');
    const expected = read('deploy/nginx.conf')
      .split('\n')
      .slice(1)
      .join('\n')
      .replace('127.0.0.1:3001', 'gateway-1:3000')
      .replace('127.0.0.1:3002', 'gateway-2:3000')
      .replace('server_name example.com;', 'server_name _;');
    expect(composeNginx).toBe(expected);
    const known = new Set(Object.values(settings).map((s) => s.env));
    const compose = read('deploy/compose.yaml');
    const block = compose.slice(
      compose.indexOf('environment: &gateway-env'),
      compose.indexOf('healthcheck:', compose.indexOf('environment: &gateway-env')),
    );
    const keys = [...block.matchAll(/^ {6}([A-Z_]+):/gm)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(4);
    for (const key of keys) expect(known, key).toContain(key);
    for (const key of Object.keys(envFile(read('deploy/calendar-gateway.env.example')))) {
      expect(known, key).toContain(key);
    }
  });

  it('has compose files that `docker compose config` accepts, and that name what they need', () => {
    const compose = composeCommand();
    expect(compose, 'a compose CLI (test/setup/e2e-tools.ts installs one)').toBeDefined();
    const [cmd, ...pre] = compose!;
    const files = readdirSync(join(root, 'deploy')).filter((f) =>
      /^(docker-)?compose[\w.-]*\.ya?ml$/.test(f),
    );
    expect(files).toContain('compose.yaml');
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
    // Not deploy/.env, which a developer may have: only what the test gives.
    writeFileSync(join(dir, 'empty.env'), '');
    const secrets = {
      DB_PASSWORD: 'db-password-for-config',
      WEBHOOK_SECRET: 'webhook-secret-for-config-0123',
    };
    for (const file of files) {
      const config = execFileSync(
        cmd!,
        [...pre, '--env-file', join(dir, 'empty.env'), '-f', join(root, 'deploy', file), 'config'],
        {
          env: { ...env, ...secrets },
          encoding: 'utf8',
        },
      );
      // The walkthrough's parts: WordPress with the companion plugin, its loader and the mapping; the WP-CLI tool.
      expect(config).toContain('/wp-content/mu-plugins/calendar-gateway-companion:ro');
      expect(config).toContain('/wp-content/mu-plugins/calendar-gateway-companion.php:ro');
      expect(config).toMatch(/define\('+CALENDAR_GATEWAY_MAPPING/);
      expect(config).toMatch(/^ {2}wp:$/m);
      // Every file a bind mount names exists in the repository.
      const sources = [...config.matchAll(/^\s+- (\/[^:\s]+):\/[^\s]*$/gm)].map((m) => m[1]!);
      expect(sources.length).toBeGreaterThanOrEqual(4);
      for (const source of sources) expect(existsSync(source), source).toBe(true);
      // A missing secret stops compose with the fix, before anything starts.
      const refused = (() => {
        try {
          execFileSync(
            cmd!,
            [...pre, '--env-file', join(dir, 'empty.env'), '-f', join(root, 'deploy', file), 'config'],
            { env, stdio: 'pipe' },
          );
          return '';
        } catch (err) {
          return String((err as { stderr: Buffer }).stderr);
        }
      })();
      expect(refused).toContain('set DB_PASSWORD in deploy/.env');
    }
  });

  it('answers through nginx on one port, with links on the public URL', async () => {
    const res = await fetch(`${front}${NS}/events?per_page=2`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rest_url: string; events: unknown[] };
    expect(body.rest_url.startsWith(`${front}${NS}/`)).toBe(true);
    expect((await fetch(`${front}/calendar-gateway/v1/ready`)).status).toBe(200);
  });

  it('shows a write made through one instance on the other at once, and through nginx', async () => {
    const search = `${NS}/events?search=${tok}&start_date=2031-01-01&end_date=2031-12-31`;
    // Both instances (and nginx's choice of either) have the empty answer cached before the write.
    for (const g of gateways)
      expect(((await (await fetch(`${g.url}${search}`)).json()) as { total: number }).total).toBe(0);
    const created = await postEvent(gateways[0]!.url, editor, {
      title: `Deployed ${tok}`,
      start_date: '2031-03-03 19:00:00',
      end_date: '2031-03-03 21:00:00',
    });
    expect(created.status).toBe(201);
    const deadline = Date.now() + guard(5_000);
    let totals: number[] = [];
    do {
      totals = [];
      for (const url of [gateways[1]!.url, gateways[0]!.url, front, front]) {
        totals.push(((await (await fetch(`${url}${search}`)).json()) as { total: number }).total);
      }
      if (totals.every((t) => t === 1)) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    expect(totals).toEqual([1, 1, 1, 1]);
  });

  it('stops each instance on SIGTERM with exit code 0', async () => {
    const g = gateways.pop()!;
    const exited = new Promise<number | null>((r) => g.child.once('exit', (code) => r(code)));
    g.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // nginx sends the next requests to the instance left.
    expect((await fetch(`${front}${NS}/events?per_page=1`)).status).toBe(200);
  });
});
