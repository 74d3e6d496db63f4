// Writes to a recurring series with WordPress killed in the middle (issue 31): each scope of update and delete makes
// several WordPress writes; PHP is SIGKILLed while one of them is on its way, and once it serves again, the stored
// series, its overrides and the events around them are exactly as they were before the write. Nothing half-split.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Server, startChild } from '../../bench/lib.ts';
import { occurrenceId } from '../../src/recurrence/ids.ts';
import { guard } from '../slack.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const NS = '/wp-json/calendar/events/v1';
const up = inject('upstream');
const stateDir = dirname(up.siteDir);
const admin = { Authorization: `Basic ${Buffer.from(up.auth).toString('base64')}` };
const editor = `Basic ${Buffer.from(`editor:${up.usersPassword}`).toString('base64')}`;
const tok = `rfault${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 8)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const EVENTS = 'tribe_events';

/** SIGKILL to php -S and its workers at once (one process group), as a crash. */
function crashPhp() {
  const pid = Number(readFileSync(join(stateDir, 'php.pid'), 'utf8'));
  process.kill(-pid, 'SIGKILL');
}

const wpSh = (cmd: string) =>
  promisify(execFile)('bash', [join(root, 'wordpress/wp.sh'), cmd], {
    env: { ...process.env, WP_STATE_DIR: stateDir },
  });

/** What a case compares: every event of this file in WordPress (any status, the trash too), as stored. */
async function stored(): Promise<Record<number, unknown>> {
  const out: Record<number, unknown> = {};
  for (const status of ['any', 'trash']) {
    const res = await fetch(
      `${up.url}/wp/v2/${EVENTS}?search=${tok}&status=${status}&context=edit&per_page=100`,
      { headers: admin },
    );
    expect(res.status).toBe(200);
    for (const p of (await res.json()) as Array<Record<string, unknown>>) {
      const meta = p.meta as Record<string, unknown>;
      out[p.id as number] = {
        status: p.status,
        slug: p.slug,
        title: (p.title as { raw: string }).raw,
        meta: Object.fromEntries(
          Object.entries(meta).filter(([k]) => /^_Event|^_tribe_events_status$/.test(k)),
        ),
      };
    }
  }
  return out;
}

let proxy: FaultProxy;
let g: Server;

beforeAll(async () => {
  proxy = await startFaultProxy(up.url.replace(/\/wp-json$/, ''));
  g = await startChild(['src/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: `${proxy.url}/wp-json`,
    UPSTREAM_AUTH: up.auth,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `cgrfault${process.pid}:`,
    LOG_LEVEL: process.env.FAULT_DEBUG ?? 'silent',
    POLL_INTERVAL_MS: '1000',
    UPSTREAM_TIMEOUT_MS: '5000',
  });
});

afterAll(async () => {
  await g?.stop();
  await proxy?.close();
  await wpSh('start-php').catch(() => undefined);
  for (const status of ['any', 'trash']) {
    const res = await fetch(
      `${up.url}/wp/v2/${EVENTS}?search=${tok}&status=${status}&per_page=100&_fields=id`,
      {
        headers: admin,
      },
    ).catch(() => undefined);
    for (const p of ((await res?.json().catch(() => [])) ?? []) as Array<{ id: number }>)
      await fetch(`${up.url}/wp/v2/${EVENTS}/${p.id}?force=true`, { method: 'DELETE', headers: admin });
  }
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${g.url}${NS}${path}`, {
    method,
    headers: { Authorization: editor, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A weekly 19:00 New York series of 8 Tuesdays from 6 October 2037, with overrides of its 2nd and 5th dates. */
async function series(name: string): Promise<{ id: number; occ: (utc: string) => number }> {
  const res = await api('POST', '/events', {
    title: `${name} ${tok}`,
    start_date: '2037-10-06 19:00:00',
    end_date: '2037-10-06 21:00:00',
    timezone: 'America/New_York',
    status: 'publish',
    recurrence: { rrule: 'FREQ=WEEKLY;COUNT=8' },
  });
  const body = (await res.json()) as { id: number };
  expect(res.status, JSON.stringify(body)).toBe(201);
  const occ = (utc: string) =>
    occurrenceId({ seriesId: body.id, originalStartMs: Date.parse(`${utc.replace(' ', 'T')}Z`) })!;
  for (const [utc, title] of [
    ['2037-10-13 23:00:00', `Second ${tok}`],
    ['2037-11-04 00:00:00', `Fifth ${tok}`],
  ] as const) {
    const o = await api('POST', `/events/${occ(utc)}`, { title });
    expect(o.status, await o.clone().text()).toBe(200);
  }
  return { id: body.id, occ };
}

/** The method WordPress serves: api-fetch sends DELETE as POST with X-HTTP-Method-Override (its http-v1). */
const methodOf = (req: IncomingMessage) =>
  String(req.headers['x-http-method-override'] ?? req.method).toUpperCase();

/** A write of the event `id` (`/wp/v2/tribe_events/<id>`), or a create (`/wp/v2/tribe_events`). */
const writeOf = (method: 'POST' | 'DELETE', id?: number) => (req: IncomingMessage) =>
  methodOf(req) === method &&
  new RegExp(`/wp/v2/${EVENTS}${id === undefined ? '' : `/${id}`}(\\?|$)`).test(req.url ?? '');

/** A move of any event to the trash. */
const anyTrash = (req: IncomingMessage) =>
  methodOf(req) === 'DELETE' && new RegExp(`/wp/v2/${EVENTS}/\\d+`).test(req.url ?? '');

/**
 * Runs `write` with the WordPress call `match` held: once it arrives, PHP is killed and the call is cut. The write
 * fails; once WordPress serves again, the stored events must be back as they were.
 */
async function killedMidWrite(
  write: () => Promise<Response>,
  match: (req: IncomingMessage) => boolean,
  /** Let the held call reach WordPress, and kill PHP while it runs (it may land or not): its answer is lost. */
  running = false,
) {
  const before = await stored();
  const held = proxy.hold(match);
  const answer = write();
  const seen = proxy.seen.length;
  await held.arrived;
  if (process.env.FAULT_DEBUG)
    console.info(
      'held',
      proxy.seen.slice(seen).filter((c) => !c.startsWith('GET')),
    );
  if (running) {
    held.release();
    await sleep(40);
    crashPhp();
  } else {
    crashPhp();
    held.cut();
  }
  const res = await answer;
  const body = (await res.json()) as { code?: string; data?: { status?: number } };
  expect([502, 503, 504], JSON.stringify(body)).toContain(res.status);
  expect(body.data?.status).toBe(res.status);
  await wpSh('start-php');
  // The gateway's sweep takes the failed write up every 5 s once WordPress answers; a create whose answer was lost
  // is looked for until it can no longer land (the upstream timeout and 5 s).
  let after: Record<number, unknown> = {};
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(500)) {
    after = await stored();
    if (JSON.stringify(after) === JSON.stringify(before)) break;
  }
  if (process.env.FAULT_DEBUG)
    console.info(
      proxy.seen.slice(seen).filter((c) => !c.startsWith('GET')),
      g.output(),
    );
  expect(after).toEqual(before);
}

describe('a series write with WordPress killed mid-write leaves the series as it was', () => {
  it('update this: the override being made', { timeout: guard(120_000) }, async () => {
    const s = await series('UpdThis');
    await killedMidWrite(
      () => api('POST', `/events/${s.occ('2037-10-20 23:00:00')}`, { title: `Third ${tok}` }),
      writeOf('POST'),
    );
  });

  it('update following: the first series ending, after the new one is made and an override moved', {
    timeout: guard(120_000),
  }, async () => {
    const s = await series('UpdFollowing');
    await killedMidWrite(
      () => api('POST', `/events/${s.occ('2037-10-27 23:00:00')}?scope=following`, { title: `Later ${tok}` }),
      writeOf('POST', s.id),
    );
  });

  it('update all: the series, after its overrides took the change', { timeout: guard(120_000) }, async () => {
    const s = await series('UpdAll');
    await killedMidWrite(
      () => api('POST', `/events/${s.id}?scope=all`, { title: `Renamed ${tok}`, cost: '30' }),
      writeOf('POST', s.id),
    );
  });

  it('delete this: the override going to the trash, after the EXDATE', {
    timeout: guard(120_000),
  }, async () => {
    const s = await series('DelThis');
    await killedMidWrite(() => api('DELETE', `/events/${s.occ('2037-10-13 23:00:00')}`), anyTrash);
  });

  it('delete following: a later override going to the trash, after the series ended', {
    timeout: guard(120_000),
  }, async () => {
    const s = await series('DelFollowing');
    await killedMidWrite(
      () => api('DELETE', `/events/${s.occ('2037-10-27 23:00:00')}?scope=following`),
      anyTrash,
    );
  });

  it('delete all: the series going to the trash, after its overrides', {
    timeout: guard(120_000),
  }, async () => {
    const s = await series('DelAll');
    await killedMidWrite(() => api('DELETE', `/events/${s.id}`), writeOf('DELETE', s.id));
  });

  it('delete all: WordPress killed while an override goes to the trash (its answer lost)', {
    timeout: guard(120_000),
  }, async () => {
    const s = await series('DelAllLost');
    let trashes = 0;
    await killedMidWrite(
      () => api('DELETE', `/events/${s.id}`),
      (req) => anyTrash(req) && ++trashes === 2,
      true,
    );
  });

  it('update following: WordPress killed while the override moves to the new series (its answer lost)', {
    timeout: guard(120_000),
  }, async () => {
    const s = await series('UpdLost');
    await killedMidWrite(
      () => api('POST', `/events/${s.occ('2037-10-27 23:00:00')}?scope=following`, { title: `Later ${tok}` }),
      (req) =>
        methodOf(req) === 'POST' &&
        new RegExp(`/wp/v2/${EVENTS}/\\d+`).test(req.url ?? '') &&
        !(req.url ?? '').includes(`/${s.id}?`),
      true,
    );
  });
});
