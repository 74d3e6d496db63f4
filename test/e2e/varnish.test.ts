// deploy/varnish.vcl with Debian's Varnish and vmod xkey in front of a gateway (CDN_PURGE=varnish): anonymous reads
// are cached by Varnish, a write through the gateway purges what it changed, and the fresh answer comes through
// Varnish within a second.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib.ts';
import { guard } from '../slack.ts';
import { postEvent, type Server, startDemo } from './demo.ts';

const root = new URL('../../', import.meta.url).pathname;
const NS = '/wp-json/calendar/events/v1';
const PASSWORD = 'varnish-demo-password';
const editor = `Basic ${Buffer.from(`editor:${PASSWORD}`).toString('base64')}`;

let dir: string;
let varnish: ChildProcess | undefined;
let gateway: Server;
let front: string;

/** Resolves once `url` answers anything over HTTP. */
async function answering(url: string, log: () => string): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Varnish did not start:\n${log()}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-varnish-'));
  execFileSync('chmod', ['755', dir]);
  const port = await freePort();
  front = `http://127.0.0.1:${port}`;
  gateway = await startDemo({
    DEMO_PASSWORD: PASSWORD,
    CDN_PURGE: 'varnish',
    CDN_PURGE_URL: front,
    PUBLIC_URL: front,
  });
  const backend = new URL(gateway.url).port;
  const vcl = readFileSync(join(root, 'deploy/varnish.vcl'), 'utf8').replace(
    '.port = "3000";',
    `.port = "${backend}";`,
  );
  expect(vcl).toContain(`.port = "${backend}";`);
  writeFileSync(join(dir, 'varnish.vcl'), vcl);
  let out = '';
  // -F: in the foreground, stopped with the test; -n: a working directory of its own; no systemd.
  varnish = spawn(
    'varnishd',
    [
      '-F',
      '-n',
      join(dir, 'work'),
      '-a',
      `127.0.0.1:${port}`,
      '-f',
      join(dir, 'varnish.vcl'),
      '-s',
      'malloc,32m',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` },
    },
  );
  varnish.stdout!.on('data', (d) => (out += d));
  varnish.stderr!.on('data', (d) => (out += d));
  await answering(front, () => out);
}, guard(120_000));

afterAll(async () => {
  if (varnish && varnish.exitCode === null) {
    const gone = new Promise((r) => varnish!.once('exit', r));
    varnish.kill('SIGTERM');
    await gone;
  }
  await gateway?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const read = (path: string) => fetch(`${front}${NS}${path}`);
const idsOf = async (res: Response) =>
  ((await res.json()) as { events: Array<{ id: number }> }).events.map((e) => e.id);

/** Reads through Varnish until `done` holds for an answer; the time it took, and the last answer's cache state. */
async function until(
  path: string,
  done: (res: Response) => Promise<boolean>,
): Promise<{ ms: number; cache: string }> {
  const t0 = performance.now();
  for (;;) {
    const res = await read(path);
    if (await done(res)) return { ms: performance.now() - t0, cache: res.headers.get('x-cache') ?? '' };
    if (performance.now() - t0 > guard(5_000))
      throw new Error(`${path} still stale after ${guard(5_000)} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Varnish in front of the gateway (deploy/varnish.vcl)', () => {
  it('caches an anonymous list, and shows a new event through Varnish within 1 s of the write', async () => {
    const word = `varnish${Date.now().toString(36)}`;
    // A day no demo event falls on: the list is empty until the write.
    const path = '/events?start_date=2031-05-01&end_date=2031-05-01 23:59:59&per_page=5';
    const first = await read(path);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    // s-maxage while a purger is configured; the tags are Varnish's alone.
    expect(first.headers.get('cache-control')).toMatch(/s-maxage=\d+/);
    expect(first.headers.get('xkey')).toBeNull();
    expect(await idsOf(first)).toEqual([]);
    const second = await read(path);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(await idsOf(second)).toEqual([]);

    const created = await postEvent(front, editor, {
      title: `Concert ${word}`,
      start_date: '2031-05-01 20:00:00',
      end_date: '2031-05-01 22:00:00',
      status: 'publish',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const seen = await until(path, async (res) => (await idsOf(res)).includes(id));
    expect(seen.ms).toBeLessThan(guard(1_000));
    expect(seen.cache).toBe('MISS');
    // And cached again from then on.
    expect((await read(path)).headers.get('x-cache')).toBe('HIT');
  });

  it('drops an event page when the event is updated, and keeps what the write did not touch', async () => {
    const list = await read('/events?per_page=2');
    const [id, other] = await idsOf(list);
    await read(`/events/${id}`);
    await read(`/events/${other}`);
    expect((await read(`/events/${id}`)).headers.get('x-cache')).toBe('HIT');
    const title = `Renamed ${Date.now().toString(36)}`;
    const updated = await fetch(`${front}${NS}/events/${id}`, {
      method: 'POST',
      headers: { Authorization: editor, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    expect(updated.status).toBe(200);
    const seen = await until(
      `/events/${id}`,
      async (res) => ((await res.json()) as { title: string }).title === title,
    );
    expect(seen.ms).toBeLessThan(guard(1_000));
    // Give the purge time to have gone out, then: another event's page was not purged.
    await new Promise((r) => setTimeout(r, 300));
    expect((await read(`/events/${other}`)).headers.get('x-cache')).toBe('HIT');
  });

  it('takes the common tracking parameters off before its cache: a shared link with them is a HIT', async () => {
    const path = '/events?per_page=3&start_date=2031-06-01';
    const first = await read(`${path}&utm_source=newsletter&utm_medium=email`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    for (const url of [
      path,
      `/events?fbclid=IwAR0abc&per_page=3&start_date=2031-06-01`,
      `${path}&gclid=Cj0K&msclkid=5f2&dclid=9`,
      `/events?utm_campaign=spring&per_page=3&mc_cid=a1b2&start_date=2031-06-01&mc_eid=c3d4&_ga=2.1.3`,
      `${path}&UTM_Content=banner&_gl=1*abc`,
    ]) {
      const res = await read(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('x-cache'), url).toBe('HIT');
    }
    // Only those names: an argument, or a name that merely contains one, is another object.
    expect((await read(`${path}&not_fbclid=1`)).headers.get('x-cache')).toBe('MISS');
    expect((await read('/events?per_page=2&start_date=2031-06-01&utm_term=x')).headers.get('x-cache')).toBe(
      'MISS',
    );
  });

  it('never caches a signed-in read, and refuses a purge without tags', async () => {
    const signedIn = await fetch(`${front}${NS}/events?per_page=1`, { headers: { Authorization: editor } });
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
    const again = await fetch(`${front}${NS}/events?per_page=1`, { headers: { Authorization: editor } });
    expect(again.headers.get('x-cache')).toBe('MISS');
    const purge = await fetch(front, { method: 'PURGE' });
    expect(purge.status).toBe(400);
  });
});
