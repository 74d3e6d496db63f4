// The routes that only Redis can answer (the changes feed, the webhook subscriptions) while Redis does not answer:
// a 503 `store_unavailable` with Retry-After, never a 500, and answers again once Redis does. CI of 2026-12-02 met a
// 500 from /changes at load 16: a Redis command past its 500 ms was an unexpected error. A demo gateway as `npm start`
// runs it, on a Redis of its own that `CLIENT PAUSE` holds.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startChild } from '../../bench/lib.ts';
import { type ChangeAt, createCalendarClient } from '../../packages/client/src/index.ts';
import { postEvent } from '../e2e/demo.ts';
import { guard } from '../slack.ts';
import { type PrivateRedis, privateRedis } from './redis-helper.ts';

const NS = '/wp-json/calendar/events/v1';
const PASSWORD = 'store-unavailable-test-password';
const admin = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
let redis: PrivateRedis;
let g: Server;

beforeAll(async () => {
  redis = await privateRedis();
  g = await startChild(['src/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_URL: redis.url,
    LOG_LEVEL: 'silent',
    DEMO_PASSWORD: PASSWORD,
    DEMO_EVENTS: '20',
  });
}, guard(60_000));

afterAll(async () => {
  await g?.stop();
  await redis?.dispose();
});

const reads: Record<string, () => Promise<Response>> = {
  'the changes feed': () => fetch(`${g.url}${NS}/changes?since=0`),
  'the changes feed as events': () =>
    fetch(`${g.url}${NS}/changes?since=0`, {
      headers: { Accept: 'text/event-stream' },
      signal: AbortSignal.timeout(guard(5_000)),
    }),
  'the webhook subscriptions': () =>
    fetch(`${g.url}/calendar-gateway/v1/webhooks`, { headers: { Authorization: admin } }),
};

/** Holds every client's commands on the gateway's Redis for `ms` (the server answers them after). */
const pause = (ms: number) =>
  execFileSync('redis-cli', ['-p', String(redis.port), 'CLIENT', 'PAUSE', String(ms), 'ALL'], {
    encoding: 'utf8',
  });

/** Holds Redis for 3 s (× the slack), then, half a second after, creates an event on `day`: its id. */
async function createAfterPause(title: string, day: string): Promise<number> {
  const ms = guard(3_000);
  pause(ms);
  await new Promise((r) => setTimeout(r, ms + 500));
  const res = await postEvent(g.url, admin, {
    title,
    start_date: `${day} 10:00:00`,
    end_date: `${day} 11:00:00`,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** The feed's cursor after its last change: its pages read to the end. */
async function feedEnd(): Promise<string> {
  let since = '0';
  for (let more = true; more; ) {
    const page = (await (await fetch(`${g.url}${NS}/changes?since=${since}&limit=500`)).json()) as {
      next: string;
      has_more: boolean;
    };
    since = page.next;
    more = page.has_more;
  }
  return since;
}

describe('routes that need Redis while Redis does not answer', () => {
  it('answer 503 store_unavailable with Retry-After, not 500, and answer again once it does', async () => {
    for (const [name, read] of Object.entries(reads)) {
      const res = await read();
      expect(res.status, name).toBe(200);
      await res.body?.cancel();
    }
    pause(guard(4_000));
    for (const [name, read] of Object.entries(reads)) {
      const res = await read();
      const body = (await res.json()) as { code: string; data: { status: number; retry_after?: number } };
      expect([name, res.status, body.code, res.headers.get('retry-after')]).toEqual([
        name,
        503,
        'store_unavailable',
        '1',
      ]);
      expect(body.data).toMatchObject({ status: 503, retry_after: 1 });
    }
    // Once the pause ends, the same requests are answered.
    const end = Date.now() + guard(15_000);
    for (const [name, read] of Object.entries(reads)) {
      let status = 0;
      while (Date.now() < end) {
        const res = await read();
        status = res.status;
        await res.body?.cancel();
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(status, name).toBe(200);
    }
  });

  it('keeps an event stream open through it, and sends the change made after on the same connection', async () => {
    const since = await feedEnd();
    const ac = new AbortController();
    const res = await fetch(`${g.url}${NS}/changes?since=${since}`, {
      headers: { Accept: 'text/event-stream' },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const guardTimer = setTimeout(() => ac.abort(), guard(20_000));
    try {
      let text = '';
      const readUntil = async (done: (t: string) => boolean) => {
        while (!done(text)) {
          const chunk = await reader.read().catch(() => ({ value: '', done: true }));
          if (chunk.done) return false;
          text += chunk.value;
        }
        return true;
      };
      expect(await readUntil((t) => t.includes(': connected'))).toBe(true);
      // The stream's reads meet the pause (each a command past its timeout) for its whole length.
      const id = await createAfterPause('After the pause, streamed', '2035-06-06');
      // Ended by the pause, the stream would be done here (a reader without EventSource's reconnection).
      expect(await readUntil((t) => t.includes(`"id":${id},`))).toBe(true);
      expect(text).toMatch(new RegExp(`data: \\{"kind":"event","id":${id},[^\\n]*"action":"created"`));
    } finally {
      clearTimeout(guardTimer);
      ac.abort();
    }
  });

  it("keeps the typed client's follower going through it, and yields the change made after", async () => {
    // Where the log stands now: the feed's pages up to its end.
    const since = await feedEnd();
    const client = createCalendarClient({ baseUrl: `${g.url}${NS}` });
    const ac = new AbortController();
    const next = (async (): Promise<ChangeAt | undefined> => {
      for await (const c of client.changes({ since, follow: true, timeout: 1, signal: ac.signal }))
        if (c.kind === 'event' && c.action === 'created') return c;
    })();
    try {
      await new Promise((r) => setTimeout(r, 300));
      // Its long polls meet the pause (503, Retry-After: 1) for its whole length; then an event is made.
      const id = await createAfterPause('After the pause', '2035-05-05');
      expect(await next).toMatchObject({ kind: 'event', id, action: 'created' });
    } finally {
      ac.abort();
    }
  });
});
