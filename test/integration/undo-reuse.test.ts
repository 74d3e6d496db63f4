// A write that reuses what another write just made (a tag found in the term cache, a venue taken as a duplicate)
// while that other write fails: the failed write's rollback must not take it from under the reusing write, which
// either completes with everything it asked for or fails leaving nothing. WordPress drops a deleted term from an
// event silently (201 with `tags: []`) and keeps a deleted venue's id in the event's meta.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.ts';
import { fromWordPress } from '../../src/http/errors.ts';
import type { WpRequest } from '../../src/wp/client.ts';
import { SHARED_REDIS, testPrefix } from '../cache/redis-helper.ts';
import { type CallResult, call, openTarget, type Target } from '../harness.ts';
import { guard } from '../slack.ts';
import { peer } from './cache-support.ts';
import { type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2034, 8);
const redisRun = testPrefix();
let t: Target;
/** Two gateways whose undo journals share a Redis: A's write goes to the first, B's to the second. */
let pair: [Gateway, Gateway];
/** Records this file made (rest base, id), removed at the end. */
const made: Array<[string, number]> = [];

beforeAll(async () => {
  t = await openTarget();
  const opts = { redisUrl: SHARED_REDIS, redisPrefix: `${redisRun.prefix}pair:` };
  pair = [await peer(t, opts), await peer(t, opts)];
});

afterAll(async () => {
  for (const [rb, id] of made.reverse()) await wp('DELETE', `${rb}/${id}?force=true`).catch(() => undefined);
  await Promise.all((pair ?? []).map((g) => g.close()));
  await t?.close();
  await redisRun.cleanup();
});

async function wp(method: string, path: string) {
  const res = await fetch(`${t.upstream}/wp/v2/${path}`, {
    method,
    headers: { Authorization: t.auth.admin },
  });
  return { status: res.status, body: (await res.json()) as Json & { id: number } };
}

type Answer = CallResult<Json & { id: number; tags?: Array<{ name: string }>; venue?: { id?: number } }>;

const api = (g: Gateway) => ({ ...t, api: `${g.url}/wp-json/calendar/events/v1` });

/** B's request: a create, or an update of `update`, as an editor. */
const sendB = (g: Gateway, b: Json, update?: number) =>
  call(api(g), 'POST', update ? `/events/${update}` : '/events', {
    as: 'editor',
    body: b,
  }) as Promise<Answer>;

/**
 * Replaces `g`'s WordPress client calls for the duration of a test: `hook` answers the calls it wants to stage
 * (undefined leaves the call to WordPress). Resolves to the function that puts the client back.
 */
function intercept(
  g: Gateway,
  hook: (req: WpRequest, send: () => Promise<unknown>) => Promise<unknown> | undefined,
) {
  const client = g.deps.wp;
  const original = client.request.bind(client);
  client.request = ((req: WpRequest) =>
    hook(req, () => original(req)) ?? original(req)) as typeof client.request;
  return () => {
    client.request = original;
  };
}

const signal = () => {
  let fire!: () => void;
  const fired = new Promise<void>((r) => {
    fire = r;
  });
  return { fire, fired };
};

/**
 * Write A (an event create, through `ga`) fails at its event create, after its nested creates; the moment it does,
 * write B (through `gb`) runs until its own event write reaches WordPress's door and is held there; A's rollback
 * then runs to its end, and B's event write goes on.
 */
async function claimedFirst(ga: Gateway, gb: Gateway, a: Json, b: Json, update?: number) {
  const events = `/wp/v2/${t.mapping.event.restBase}`;
  const bAtDoor = signal();
  const aDone = signal();
  let bAnswer: Promise<Answer> | undefined;
  let seen = 0;
  const restore = [
    intercept(ga, (req) => {
      if (req.method !== 'POST' || req.path !== events || seen++ > 0) return undefined;
      return (async () => {
        bAnswer = sendB(gb, b, update);
        await bAtDoor.fired;
        // A refusal: nothing of the event was made, and A's rollback removes its tag and venue.
        throw fromWordPress('rest_invalid_param', 'Refused for the test.', 400, { upstream: true });
      })();
    }),
    intercept(gb, (req, send) => {
      if (req.method !== 'POST' || !req.path.startsWith(events) || !bAnswer) return undefined;
      return (async () => {
        bAtDoor.fire();
        await aDone.fired;
        return send();
      })();
    }),
  ];
  try {
    const aAnswer = (await call(api(ga), 'POST', '/events', { as: 'editor', body: a })) as Answer;
    aDone.fire();
    return { a: aAnswer, b: (await bAnswer) as Answer };
  } finally {
    for (const r of restore) r();
  }
}

/**
 * Write A fails at its event create and its rollback is about to delete A's new tag when write B (through `gb`)
 * starts with a tag of the same name: A's delete goes ahead once B has claimed the tag (B's look at whether what it
 * claimed still exists), or once B's event write reaches WordPress's door (nothing claims on main), and B's event
 * write waits until the delete is done.
 */
async function removedFirst(ga: Gateway, gb: Gateway, a: Json, b: Json, update?: number) {
  const events = `/wp/v2/${t.mapping.event.restBase}`;
  const tags = `/wp/v2/${t.mapping.event.tags?.restBase}`;
  const bClaimed = signal();
  const deleted = signal();
  let bAnswer: Promise<Answer> | undefined;
  let seen = 0;
  const restore = [
    intercept(ga, (req, send) => {
      if (req.method === 'POST' && req.path === events && seen++ === 0)
        return Promise.reject(fromWordPress('rest_invalid_param', 'Refused for the test.', 400, {}));
      if (req.method !== 'DELETE' || !req.path.startsWith(`${tags}/`) || bAnswer) return undefined;
      return (async () => {
        bAnswer = sendB(gb, b, update);
        await bClaimed.fired;
        try {
          return await send();
        } finally {
          deleted.fire();
        }
      })();
    }),
    intercept(gb, (req, send) => {
      if (!bAnswer) return undefined;
      if (!req.method && req.path === tags && req.query?.include !== undefined) bClaimed.fire();
      if (req.method !== 'POST' || !req.path.startsWith(events)) return undefined;
      bClaimed.fire();
      return deleted.fired.then(send);
    }),
  ];
  try {
    const aAnswer = (await call(api(ga), 'POST', '/events', { as: 'editor', body: a })) as Answer;
    return { a: aAnswer, b: (await bAnswer) as Answer };
  } finally {
    for (const r of restore) r();
  }
}

/** B's answer: complete (201/200) with all it asked for, or a failure that left no event of its title behind. */
async function completeOrNothing(b: Answer, title: string, ok: number) {
  if (b.status === ok) {
    if (ok === 201) made.push([t.mapping.event.restBase, b.body.id]);
    return true;
  }
  expect(b.status, JSON.stringify(b.body)).toBe(503);
  const left = await wp('GET', `${t.mapping.event.restBase}?search=${encodeURIComponent(title)}&status=any`);
  expect(left.body as unknown as unknown[]).toEqual([]);
  return false;
}

/** Waits until no undo is left in `g`'s journal (a rollback that left a claimed record for the sweep included). */
async function settled(g: Gateway) {
  await expect.poll(() => g.deps.undo?.size(), { timeout: guard(20_000), interval: 100 }).toBe(0);
}

/** B's event as WordPress stores it: its tag is there, and stays there once every undo is over. */
async function tagStays(g: Gateway, b: Answer, name: string) {
  const tags = t.mapping.event.tags?.restBase as string;
  expect(
    b.body.tags?.map((x) => x.name),
    JSON.stringify(b.body),
  ).toEqual([name]);
  const stored = await wp('GET', `${t.mapping.event.restBase}/${b.body.id}?context=edit`);
  const tagIds = stored.body[tags] as number[];
  expect(tagIds).toHaveLength(1);
  made.push([tags, tagIds[0] as number]);
  await settled(g);
  expect((await wp('GET', `${tags}/${tagIds[0]}`)).status).toBe(200);
  const again = await wp('GET', `${t.mapping.event.restBase}/${b.body.id}?context=edit`);
  expect(again.body[tags]).toEqual(tagIds);
}

describe.each([
  ['create', 'one gateway'],
  ['update', 'one gateway'],
  ['create', 'two gateways sharing Redis'],
  ['update', 'two gateways sharing Redis'],
] as const)('a write B that %ss an event while write A fails, on %s', (how, where) => {
  const gateways = (): [Gateway, Gateway] => (where === 'one gateway' ? [t.gateway, t.gateway] : pair);
  const updated = async (title: string) => {
    if (how === 'create') return undefined;
    const res = await call<Json & { id: number }>(t, 'POST', '/events', {
      as: 'editor',
      body: { title, start_date: day(2), end_date: day(2, '12:00:00') },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push([t.mapping.event.restBase, res.body.id]);
    return res.body.id;
  };
  const ok = how === 'create' ? 201 : 200;
  const w = `${how} ${where === 'one gateway' ? 'one' : 'two'} ${tok}`;

  it("keeps the tag it found in the term cache, made by A: A's rollback leaves it to B", async () => {
    if (!t.mapping.event.tags) return;
    const [ga, gb] = gateways();
    const name = `Fresh tag ${w}`;
    const titleB = `B tag ${w}`;
    const id = await updated(titleB);
    const { a, b } = await claimedFirst(
      ga,
      gb,
      { title: `A tag ${w}`, start_date: day(3), end_date: day(3, '12:00:00'), tags: [name] },
      { title: titleB, start_date: day(4), end_date: day(4, '12:00:00'), tags: [name] },
      id,
    );
    expect(a.status).toBe(400);
    if (await completeOrNothing(b, titleB, ok)) await tagStays(ga, b, name);
  });

  it("gets a tag of its own when A's rollback was deleting the one it found", async () => {
    if (!t.mapping.event.tags) return;
    const [ga, gb] = gateways();
    const name = `Going tag ${w}`;
    const titleB = `B going ${w}`;
    const id = await updated(titleB);
    const { a, b } = await removedFirst(
      ga,
      gb,
      { title: `A going ${w}`, start_date: day(7), end_date: day(7, '12:00:00'), tags: [name] },
      { title: titleB, start_date: day(8), end_date: day(8, '12:00:00'), tags: [name] },
      id,
    );
    expect(a.status).toBe(400);
    if (await completeOrNothing(b, titleB, ok)) await tagStays(ga, b, name);
  });

  it("keeps the venue it took as a duplicate of A's new one: A's rollback leaves it to B", async () => {
    const [ga, gb] = gateways();
    const venue = { venue: `Fresh venue ${w}`, city: 'Lyon' };
    const titleB = `B venue ${w}`;
    const id = await updated(titleB);
    const { a, b } = await claimedFirst(
      ga,
      gb,
      { title: `A venue ${w}`, start_date: day(5), end_date: day(5, '12:00:00'), venue },
      { title: titleB, start_date: day(6), end_date: day(6, '12:00:00'), venue },
      id,
    );
    expect(a.status).toBe(400);
    if (!(await completeOrNothing(b, titleB, ok))) return;
    const venueId = b.body.venue?.id;
    expect(venueId, JSON.stringify(b.body)).toBeTypeOf('number');
    made.push([t.mapping.venue.restBase, venueId as number]);
    await settled(ga);
    expect((await wp('GET', `${t.mapping.venue.restBase}/${venueId}?context=edit`)).status).toBe(200);
  });
});

describe.each([
  ['venue', 'one gateway'],
  ['organizer', 'one gateway'],
  ['venue', 'two gateways sharing Redis'],
  ['organizer', 'two gateways sharing Redis'],
] as const)('a bare %s create B while write A, which made the same one, fails, on %s', (kind, where) => {
  it("answers with a record that outlives A's rollback, never A's fresh one", async () => {
    const [ga, gb] = where === 'one gateway' ? [t.gateway, t.gateway] : pair;
    const w = `${kind} ${where === 'one gateway' ? 'one' : 'two'} ${tok}`;
    const linked =
      kind === 'venue' ? { venue: `Bare venue ${w}`, city: 'Nantes' } : { organizer: `Bare org ${w}` };
    const events = `/wp/v2/${t.mapping.event.restBase}`;
    let b: CallResult<Json & { id: number }> | undefined;
    let seen = 0;
    // A's event create is held while B's bare create runs to its answer, then refused: A's rollback removes its own.
    const restore = intercept(ga, (req) => {
      if (req.method !== 'POST' || req.path !== events || seen++ > 0) return undefined;
      return (async () => {
        b = await call({ ...t, api: `${gb.url}/wp-json/calendar/events/v1` }, 'POST', `/${kind}s`, {
          as: 'editor',
          body: linked,
        });
        throw fromWordPress('rest_invalid_param', 'Refused for the test.', 400, { upstream: true });
      })();
    });
    let a: CallResult<Json> | undefined;
    try {
      a = await call(api(ga), 'POST', '/events', {
        as: 'editor',
        body: { title: `A bare ${w}`, start_date: day(9), end_date: day(9, '12:00:00'), [kind]: linked },
      });
    } finally {
      restore();
    }
    expect(a.status).toBe(400);
    expect(b?.status, JSON.stringify(b?.body)).toBe(201);
    const id = (b?.body as { id: number } | undefined)?.id as number;
    made.push([t.mapping[kind].restBase, id]);
    await settled(ga);
    await settled(gb);
    // What B answered still exists once A's rollback is over.
    expect((await wp('GET', `${t.mapping[kind].restBase}/${id}`)).status).toBe(200);
  });
});
