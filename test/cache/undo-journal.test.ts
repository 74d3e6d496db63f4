// The undo journal in a real Redis: a write in progress is kept from sweeps by its heartbeat, a dead one's entry
// becomes due after the lease, and one instance takes a due entry at a time.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.ts';
import type { WpResponse } from '../../src/wp/client.ts';
import { UndoJournal } from '../../src/write/undo.ts';
import { SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
const redis = new Redis(SHARED_REDIS);
afterAll(async () => {
  await cleanup();
  redis.disconnect();
});

const journal = (leaseMs = 300) => new UndoJournal({ cmd: redis, up: () => true, prefix }, leaseMs);
const made = (id: number) => async () =>
  ({ status: 201, body: { id } }) as unknown as WpResponse<{ id: number }>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('undo journal in Redis', () => {
  it('keeps a live write out of sweeps, and hands a dead one to exactly one instance after its lease', async () => {
    const a = journal();
    const undo = a.begin();
    await undo.create('posts', 'tribe_venue', made(7));
    // The heartbeat renews it: still not due after twice the lease.
    await sleep(600);
    expect(await a.due(Date.now())).toEqual([]);
    // The process "dies": its heartbeat stops with it (a new journal object has none for this write).
    a.live(undo, false);
    await sleep(400);
    const [b, c] = [journal(), journal()];
    const [fromB, fromC] = await Promise.all([b.due(Date.now()), c.due(Date.now())]);
    const taken = [...fromB, ...fromC];
    expect(taken).toHaveLength(1);
    expect(taken[0]![1]).toMatchObject({ posts: [{ restBase: 'tribe_venue', id: 7 }], probes: [] });
    await b.drop(taken[0]![0]);
  });

  it('keeps a lost create as a probe, and forgets a refused one', async () => {
    const j = journal();
    const undo = j.begin();
    const lost = () =>
      Promise.reject(new ApiError('upstream_unavailable', 'WordPress cannot be reached.', 503));
    await expect(undo.create('terms', 'tags', lost)).rejects.toThrow();
    const refused = () =>
      Promise.reject(new ApiError('rest_invalid_param', 'Invalid parameter(s): name', 400));
    await expect(undo.create('posts', 'tribe_venue', refused)).rejects.toThrow();
    expect(undo.probes).toEqual([{ restBase: 'tags' }]);
    expect(undo.terms).toEqual([]);
    await undo.done();
    expect(await j.size()).toBe(0);
  });
});

describe('claims in the shared journal', () => {
  it("are seen by another instance's rollback, and a rollback's removals by another instance's later claim", async () => {
    const [one, two] = [journal(), journal()];
    const a = one.begin();
    await a.create('terms', 'tags', made(5));
    // B, on the other instance, links to A's new tag: nothing is being removed, so the claim holds.
    const b = two.begin();
    expect(await b.claim([{ restBase: 'tags', id: 5 }])).toEqual([]);
    expect(await a.claimedByOthers()).toContain('tags:5');
    // A's rollback writes down what it is about to delete before reading claims: a later claim backs off.
    a.removing.push({ restBase: 'tags', id: 6 });
    await a.save();
    const c = two.begin();
    expect(await c.claim([{ restBase: 'tags', id: 6 }])).toEqual([{ restBase: 'tags', id: 6 }]);
    // What a write made itself is not a claim.
    const d = one.begin();
    await d.create('terms', 'tags', made(7));
    expect(await d.claim([{ restBase: 'tags', id: 7 }])).toEqual([]);
    expect(d.uses).toEqual([]);
    // A claim ends with its write.
    await b.done();
    expect(await a.claimedByOthers()).not.toContain('tags:5');
    for (const u of [a, c, d]) await u.done();
    expect(await one.size()).toBe(0);
  });
});
