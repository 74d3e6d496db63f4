// A write drops only what it can change: for each kind of write (through the gateway, a change notification, a
// proxied wp/v2 write), the tags the gateway drops (and has Varnish purge) and so which cached answers go and which
// stay; the lists that follow events' links stay fresh; a CDN that fails to purge never fails a write.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.ts';
import { openTarget, type Target } from '../harness.ts';
import { guard } from '../slack.ts';
import {
  adminWrite,
  configureWebhook,
  get,
  type Made,
  NS,
  notify,
  peer,
  removeMade,
  within,
} from './cache-support.ts';
import { monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2034, 6);
const SECRET = `narrow-secret-${tok}-0123456789`;
const window = `start_date=${encodeURIComponent(day(1, '00:00:00'))}&end_date=${encodeURIComponent(day(28, '23:59:59'))}`;

let t: Target;
let g: Gateway;
let recorder: Server;
/** The tags of each purge the gateway sent to "Varnish". */
const purges: string[][] = [];
const created: Made = [];

beforeAll(async () => {
  t = await openTarget();
  recorder = createServer((req, res) => {
    if (req.method === 'PURGE') purges.push(String(req.headers['xkey-purge'] ?? '').split(' '));
    res.end('ok');
  });
  await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  g = await peer(t, { webhookSecret: SECRET, cdn: { purge: 'varnish', url } });
});

afterAll(async () => {
  if (t?.kind === 'wordpress') await configureWebhook(t, '', '').catch(() => {});
  if (g) await removeMade(g, t, created);
  await g?.close();
  await new Promise((r) => recorder?.close(r));
  await t?.close();
});

const write = (method: string, path: string, body?: unknown) => adminWrite(g, t, created, method, path, body);

/**
 * The tags an answer carries (its xkey header), read anonymously through the gateway once it is stored: an answer
 * whose load raced an invalidation (the venue catalog re-reading a venue just written), or the previous answer served
 * while its refill runs (soft invalidation), is sent unstored, no-store.
 */
async function tagsOf(path: string): Promise<string[]> {
  for (let i = 0; ; i++) {
    const res = await get(g.url, path);
    expect(res.status, res.text).toBe(200);
    const xkey = res.headers.get('xkey');
    if (xkey) return xkey.split(' ');
    expect(res.headers.get('cache-control')).toBe('no-store');
    if (i === 20) throw new Error(`${path} is never stored`);
    // A soft-stale answer (up to CACHE_SOFT_STALE_MS after a write) goes out no-store until its refill is stored.
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** What `action` purged: the union of the purges it caused (they go out within the 100 ms window). */
async function purgedBy(action: () => Promise<unknown>): Promise<Set<string>> {
  const before = purges.length;
  await action();
  await within(3_000, async () => purges.length > before);
  // The rest of its purges: a window or two later (longer in the lanes, where a window's timer fires late).
  await new Promise((r) => setTimeout(r, guard(300)));
  return new Set(purges.slice(before).flat());
}

const dropped = (tags: string[], purged: Set<string>) => tags.some((x) => purged.has(x));

/** Answers cached before each write, by name: which a write drops is read from their tags. */
const PATHS = {
  events: `/events?${window}&per_page=50`,
  venues: '/venues?per_page=50',
  venuesWithEvents: '/venues?has_events=true&per_page=50',
  organizersUpcoming: '/organizers?only_with_upcoming=true&per_page=50',
  categories: '/categories?hide_empty=false&per_page=50',
};
type Name = keyof typeof PATHS;

async function answers(): Promise<Record<Name, string[]>> {
  const out = {} as Record<Name, string[]>;
  for (const [name, path] of Object.entries(PATHS)) out[name as Name] = await tagsOf(path);
  return out;
}

/** Asserts which of the answers cached now `action` drops (the others stay). */
async function drops(
  action: () => Promise<unknown>,
  expected: string[],
  extra: Record<string, string[]> = {},
) {
  const tags = { ...(await answers()), ...extra };
  // Purges the reads themselves caused (the catalog re-reading what an earlier write changed) go out first.
  await new Promise((r) => setTimeout(r, guard(250)));
  const purged = await purgedBy(action);
  const went = Object.entries(tags)
    .filter(([, x]) => dropped(x, purged))
    .map(([n]) => n);
  expect(went.sort(), [...purged].join(' ')).toEqual([...expected].sort());
  return purged;
}

const idsOf = (json: Record<string, unknown>, key: string) =>
  ((json[key] as Array<{ id: number }> | undefined) ?? []).map((r) => r.id);

describe('a write drops only what it can change', () => {
  let hall: number;
  let club: number;
  let plain: number;
  let located: number;

  it('venue writes drop the venue lists and the venue, not the event or term lists', async () => {
    const purged = await drops(async () => {
      hall = (await write('POST', '/venues', { venue: `Hall ${tok}` })).id as number;
    }, ['venues', 'venuesWithEvents']);
    expect(purged).toContain('list:venue');
    club = (await write('POST', '/venues', { venue: `Club ${tok}` })).id as number;
    const page = await tagsOf(`/venues/${hall}`);
    await drops(
      () => write('POST', `/venues/${hall}`, { city: `Town ${tok}` }),
      ['venues', 'venuesWithEvents', 'hall'],
      {
        hall: page,
      },
    );
  });

  it('an event created without links drops the event lists only', async () => {
    await drops(async () => {
      plain = (
        await write('POST', '/events', {
          title: `Plain ${tok}`,
          start_date: day(3),
          end_date: day(3, '12:00:00'),
        })
      ).id as number;
    }, ['events']);
  });

  it('an event created at a venue also drops the lists of venues with events, which then show it', async () => {
    const before = await get(g.url, PATHS.venuesWithEvents);
    expect(idsOf(before.json, 'venues')).not.toContain(hall);
    const purged = await drops(async () => {
      located = (
        await write('POST', '/events', {
          title: `At the hall ${tok}`,
          start_date: day(4),
          end_date: day(4, '12:00:00'),
          venue: hall,
        })
      ).id as number;
    }, ['events', 'venuesWithEvents']);
    expect(purged).toContain('links:venue');
    // The drop is soft (CACHE_SOFT_STALE_MS): anonymous readers see the write within 1 s.
    await within(1500, async () =>
      idsOf((await get(g.url, PATHS.venuesWithEvents)).json, 'venues').includes(hall),
    );
  });

  it("an edit of an event's title drops that event and the event lists, not another event's page", async () => {
    const other = await tagsOf(`/events/${plain}`);
    const own = await tagsOf(`/events/${located}`);
    await drops(() => write('POST', `/events/${located}`, { title: `Renamed ${tok}` }), ['events', 'own'], {
      own,
      other,
    });
  });

  it('moving an event to another venue drops the lists of venues with events, which follow it', async () => {
    await drops(() => write('POST', `/events/${located}`, { venue: club }), ['events', 'venuesWithEvents']);
    await within(1500, async () => {
      const ids = idsOf((await get(g.url, PATHS.venuesWithEvents)).json, 'venues');
      return ids.includes(club) && !ids.includes(hall);
    });
  });

  it('a term write drops the term lists, not the venue lists', async () => {
    const term = (await write('POST', '/categories', { name: `Cat ${tok}` })).id as number;
    created.push({ path: '/categories', id: term });
    await drops(() => write('POST', `/categories/${term}`, { description: `About ${tok}` }), ['categories']);
  });

  it('a delete of an event at a venue drops the lists of venues with events, which no longer show it', async () => {
    await drops(() => write('DELETE', `/events/${located}`), ['events', 'venuesWithEvents']);
    expect(idsOf((await get(g.url, PATHS.venuesWithEvents)).json, 'venues')).not.toContain(club);
  });

  it('a proxied wp/v2 edit of a title drops the event lists only', async () => {
    await drops(async () => {
      const res = await fetch(`${g.url}/wp-json/wp/v2/${t.mapping.event.restBase}/${plain}`, {
        method: 'POST',
        headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Proxied ${tok}` }),
      });
      expect(res.status, await res.text()).toBe(200);
    }, ['events']);
  });

  it('a change notification drops what the change altered, as a write through the gateway does', async () => {
    // The event is renamed in WordPress itself; the companion plugin's notification tells the gateway.
    const moved = await fetch(`${t.upstream}/wp/v2/${t.mapping.event.restBase}/${plain}`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: `Moved ${tok}` }),
    });
    expect(moved.status, await moved.text()).toBe(200);
    await drops(async () => {
      const status = await notify(g.url, SECRET, [
        { kind: 'post', id: plain, type: t.mapping.event.postType, action: 'save' },
      ]);
      expect(status).toBeLessThan(300);
    }, ['events']);
  });
});

describe('a CDN that cannot purge', () => {
  it('never fails or holds up a write, and the gateway still answers it fresh', async () => {
    const dead = await peer(t, { cdn: { purge: 'varnish', url: 'http://127.0.0.1:9' } });
    try {
      await get(dead.url, PATHS.events);
      const t0 = performance.now();
      const res = await fetch(`${dead.url}${NS}/events`, {
        method: 'POST',
        headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Unpurged ${tok}`, start_date: day(5), end_date: day(5, '12:00:00') }),
      });
      const json = (await res.json()) as { id: number };
      expect(res.status).toBe(201);
      created.push({ path: '/events', id: json.id });
      expect(performance.now() - t0).toBeLessThan(guard(5_000));
      await within(1500, async () =>
        idsOf((await get(dead.url, PATHS.events)).json, 'events').includes(json.id),
      );
    } finally {
      await dead.close();
    }
  });
});
