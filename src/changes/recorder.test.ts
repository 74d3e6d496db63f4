import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IndexedEvent } from '../index/columns/rows.ts';
import type { Mapping } from '../mapping/schema.ts';
import { SAVE_SETTLE_MS } from '../wp/saves.ts';
import { MemoryChangeLog } from './memory-log.ts';
import { ChangeRecorder, postObservation, recordsOfTags, termObservation } from './recorder.ts';
import { heldBack } from './settle.ts';

const mapping = {
  event: {
    restBase: 'tribe_events',
    categories: { taxonomy: 'tribe_events_cat', restBase: 'tribe_events_cat' },
    tags: { taxonomy: 'post_tag', restBase: 'tags' },
  },
  venue: { restBase: 'tribe_venue' },
  organizer: { restBase: 'tribe_organizer' },
} as unknown as Mapping;

type Held = Pick<IndexedEvent, 'id' | 'status' | 'modifiedGmt' | 'protected'> & Partial<IndexedEvent>;

/**
 * WordPress and an event index as the recorder reads them, changed by the test between starts. `saved`: the events
 * as WordPress has them, which the index takes when it is told to read some again (`refetch`).
 */
function world() {
  const events = new Map<number, Held>();
  const saved = new Map<number, Held>();
  let refetched = 0;
  const venues = new Map<number, { id: number; status: string; modified_gmt: string; password?: string }>();
  const tags = new Map<number, { id: number; name: string; slug: string }>();
  let reads = 0;
  const wp = {
    all: async (req: { path: string; query?: Record<string, unknown> }) => {
      reads++;
      const include = req.query?.include ? String(req.query.include).split(',').map(Number) : undefined;
      const from = req.path.endsWith('tribe_venue') ? venues : req.path.endsWith('/tags') ? tags : new Map();
      return [...from.values()].filter((r) => !include || include.includes(r.id));
    },
  };
  const index = {
    get: (id: number) => events.get(id) as IndexedEvent | undefined,
    refetch: async (ids: number[]) => {
      refetched += ids.length;
      for (const id of ids) {
        const now = saved.get(id);
        if (now) events.set(id, now);
        else events.delete(id);
      }
      return ids;
    },
    // As the index's batches give them: with the search text, which a read of one event does not carry.
    snapshot: () => ({ batches: () => [[...events.values()].map((e) => ({ ...e, searchText: 'text' }))] }),
  };
  const indexes = { all: () => [index] } as never;
  return {
    events,
    saved,
    venues,
    tags,
    wp: wp as never,
    indexes,
    reads: () => reads,
    refetched: () => refetched,
  };
}

const log = () =>
  new MemoryChangeLog({
    apiRoot: 'http://gw/wp-json/calendar/events/v1',
    taxonomy: { category: 'tribe_events_cat', tag: 'post_tag' },
    retentionMs: 86_400_000,
  });

/** A recorder of `changes` over the world's WordPress and index, whose warnings go nowhere. */
const recorderOf = (w: ReturnType<typeof world>, changes: MemoryChangeLog) =>
  new ChangeRecorder({ changes, wp: w.wp, mapping, indexes: w.indexes, warn: () => {} });

describe('the recorder', () => {
  it('takes a trashed or missing post as gone, a password or a draft as not public', () => {
    expect(postObservation('event', 1, undefined)).toMatchObject({ version: null, public: false });
    expect(
      postObservation('event', 1, { status: 'trash', modified: '2026-01-01T10:00:00', protected: false }),
    ).toMatchObject({ version: null, order: '2026-01-01 10:00:00' });
    expect(
      postObservation('venue', 1, { status: 'publish', modified: '2026-01-01 10:00:00', protected: true }),
    ).toMatchObject({ public: false, version: '2026-01-01 10:00:00~publish~1' });
    const a = termObservation('tag', 3, { id: 3, name: 'Jazz', slug: 'jazz' });
    expect(termObservation('tag', 3, { id: 3, name: 'Jazz', slug: 'jazz', description: '' }).version).toBe(
      a.version,
    );
    expect(termObservation('tag', 3, { id: 3, name: 'Jazz!', slug: 'jazz' }).version).not.toBe(a.version);
  });

  it('reads the records cache tags name, by kind and taxonomy', () => {
    expect([
      ...recordsOfTags(['event:4', 'list:event', 'venue:9', 'term:post_tag:3', 'term:other:5'], mapping),
    ]).toEqual([
      ['event', [4]],
      ['venue', [9]],
      ['tag', [3]],
    ]);
  });

  it('tries the start-up reconciliation again until WordPress answers, and stops trying when stopped', async () => {
    const w = world();
    const changes = log();
    w.events.set(1, { id: 1, status: 'publish', modifiedGmt: '2026-01-01 10:00:00', protected: false });
    w.venues.set(7, { id: 7, status: 'publish', modified_gmt: '2026-01-01T10:00:00' });
    const rec = recorderOf(w, changes);
    await rec.reconcile();
    // While no gateway ran: event 1 deleted. Then WordPress fails the next start's first two reads.
    w.events.delete(1);
    let failures = 2;
    let asked = 0;
    const all = (w.wp as { all: (r: unknown) => Promise<unknown> }).all;
    (w.wp as { all: unknown }).all = async (r: unknown) => {
      asked++;
      if (failures > 0) {
        failures--;
        throw new Error('upstream_timeout');
      }
      return all(r);
    };
    const warned: object[] = [];
    await rec.reconcileAtStart({ warn: (o) => warned.push(o) }, 5);
    expect(warned).toEqual([
      { err: 'upstream_timeout', retryInMs: 5 },
      { err: 'upstream_timeout', retryInMs: 10 },
    ]);
    expect((await changes.read('0', 100)).map((c) => `${c.kind}:${c.id}:${c.action}`)).toEqual([
      'event:1:deleted',
    ]);

    // A WordPress that never answers: the retries end with the recorder, and nothing reads after that.
    failures = Number.POSITIVE_INFINITY;
    const again = recorderOf(w, changes);
    const done = again.reconcileAtStart({ warn: () => {} }, 5);
    await new Promise((r) => setTimeout(r, 40));
    again.stop();
    await done;
    const tried = asked;
    expect(tried).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 40));
    expect(asked).toBe(tried);
  });

  it('fills the ledger silently at a first start, then logs what changed or went while stopped, oldest first', async () => {
    const w = world();
    const changes = log();
    w.events.set(1, { id: 1, status: 'publish', modifiedGmt: '2026-01-01 10:00:00', protected: false });
    w.events.set(2, { id: 2, status: 'publish', modifiedGmt: '2026-01-01 10:00:00', protected: false });
    w.venues.set(7, { id: 7, status: 'publish', modified_gmt: '2026-01-01T10:00:00' });
    w.tags.set(3, { id: 3, name: 'Jazz', slug: 'jazz' });
    const rec = recorderOf(w, changes);
    await rec.reconcile();
    expect(await changes.read('0', 100)).toEqual([]);
    // While stopped: event 2 edited after venue 7 was, event 1 deleted, a tag renamed, a venue added.
    w.events.set(2, { id: 2, status: 'draft', modifiedGmt: '2026-01-03 10:00:00', protected: false });
    w.events.delete(1);
    w.venues.set(7, { id: 7, status: 'publish', modified_gmt: '2026-01-02T10:00:00' });
    w.venues.set(8, { id: 8, status: 'draft', modified_gmt: '2026-01-02T11:00:00' });
    w.tags.set(3, { id: 3, name: 'Jazz!', slug: 'jazz' });
    await rec.reconcile();
    const got = (await changes.read('0', 100)).map((c) => `${c.kind}:${c.id}:${c.action}:${c.public}`);
    expect(got).toEqual([
      'venue:7:updated:true',
      'venue:8:created:false',
      'event:2:updated:false',
      'event:1:deleted:false',
      'tag:3:updated:true',
    ]);
    // A third start finds nothing new, and neither do the events' own reads.
    await rec.reconcile();
    await rec.events([1, 2]);
    expect(await changes.read('0', 100)).toHaveLength(5);
  });

  it("reads a write's linked records only when the log never heard of them", async () => {
    const w = world();
    const changes = log();
    w.events.set(1, { id: 1, status: 'publish', modifiedGmt: '2026-01-01 10:00:00', protected: false });
    w.venues.set(7, { id: 7, status: 'publish', modified_gmt: '2026-01-01T10:00:00' });
    const rec = recorderOf(w, changes);
    await rec.tags(['event:1', 'venue:7'], 'event');
    expect(w.reads()).toBe(1);
    await rec.tags(['event:1', 'venue:7'], 'event');
    expect(w.reads()).toBe(1);
    expect((await changes.read('0', 10)).map((c) => `${c.kind}:${c.id}:${c.action}`)).toEqual([
      'event:1:created',
      'venue:7:created',
    ]);
  });
});

describe('reads that may have caught a save half done', () => {
  // WordPress saves a post's row first (status, modified_gmt), its meta after: a poll between them reads a published
  // event without its dates. 10:00:00.4 now, a save begun in second 10:00:00.
  const stamp = '2026-05-01 10:00:00';
  const half: Held = { id: 5, status: 'publish', modifiedGmt: stamp, protected: false, start: '' };
  const whole: Held = { ...half, start: '2026-06-01 10:00:00' };
  beforeEach(() => {
    vi.useFakeTimers({
      now: Date.parse('2026-05-01T10:00:00.400Z'),
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const started = async (w: ReturnType<typeof world>) => {
    const changes = log();
    const rec = recorderOf(w, changes);
    await rec.reconcile();
    const logged = async () => (await changes.read('0', 100)).map((c) => `${c.kind}:${c.id}:${c.action}`);
    return { changes, rec, logged };
  };

  it('logs a write through the gateway once, though a poll read its save half done first', async () => {
    const w = world();
    const { rec, logged } = await started(w);
    w.events.set(5, half);
    await rec.events([5]);
    expect(await logged()).toEqual([]);
    expect(rec.settling).toBe(1);
    // The write's answer: the whole save, logged at once.
    w.events.set(5, whole);
    w.saved.set(5, whole);
    await rec.tags(['event:5'], 'event', true);
    expect(await logged()).toEqual(['event:5:created']);
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    // The log held that save: nothing read again, nothing logged twice.
    expect(await logged()).toEqual(['event:5:created']);
    expect(w.refetched()).toBe(0);
    expect(rec.settling).toBe(0);
  });

  it('logs a save no source told of once it is over, as WordPress has it then', async () => {
    const w = world();
    const { rec, logged } = await started(w);
    w.events.set(5, half);
    w.saved.set(5, whole);
    await rec.events([5]);
    // Every poll of the next seconds reads it again: held once.
    await rec.events([5]);
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS - 100);
    expect(await logged()).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(await logged()).toEqual(['event:5:created']);
    expect(w.refetched()).toBe(1);
    expect(w.events.get(5)?.start).toBe(whole.start);
    // The index's next poll reads the whole save too: the same version, no second entry.
    await rec.events([5]);
    expect(await logged()).toEqual(['event:5:created']);
  });

  it('holds a newer save read again in turn, and a venue of a poll the same way', async () => {
    const w = world();
    const { rec, logged } = await started(w);
    w.events.set(5, half);
    const later: Held = { ...whole, modifiedGmt: '2026-05-01 10:00:02', start: '' };
    w.saved.set(5, later);
    w.venues.set(7, { id: 7, status: 'publish', modified_gmt: '2026-05-01T10:00:00' });
    await rec.events([5]);
    await rec.records('venue', [7]);
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    // The venue as WordPress has it now; the event's re-read found a save begun since, which waits its own time.
    expect(await logged()).toEqual(['venue:7:created']);
    w.saved.set(5, { ...later, start: '2026-06-02 10:00:00' });
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    expect(await logged()).toEqual(['venue:7:created', 'event:5:created']);
    expect(w.events.get(5)?.start).toBe('2026-06-02 10:00:00');
  });

  it('logs deletions, terms and older saves at once, and holds a read stamped ahead of the clock no longer than the settle', async () => {
    const now = Date.parse('2026-05-01T10:00:00.400Z');
    const o = { kind: 'event' as const, id: 1, public: true };
    expect(heldBack({ ...o, version: null, order: stamp }, now)).toBe(false);
    expect(heldBack({ ...o, kind: 'tag', version: 'x', order: '' }, now)).toBe(false);
    expect(heldBack({ ...o, version: 'v', order: stamp }, now)).toBe(true);
    expect(heldBack({ ...o, version: 'v', order: '2026-05-01 09:59:55' }, now)).toBe(false);
    expect(heldBack({ ...o, version: 'v', order: '2026-05-01 11:00:00' }, now)).toBe(true);
    const w = world();
    const { rec, logged } = await started(w);
    const ahead: Held = { ...whole, modifiedGmt: '2026-05-01 11:00:00' };
    w.events.set(5, ahead);
    w.saved.set(5, ahead);
    await rec.events([5]);
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    expect(await logged()).toEqual(['event:5:created']);
    // Gone from the index: logged at once.
    w.events.delete(5);
    await rec.events([5]);
    expect(await logged()).toEqual(['event:5:created', 'event:5:deleted']);
  });

  it('drops what it holds when it stops', async () => {
    const w = world();
    const { rec, logged } = await started(w);
    w.events.set(5, half);
    await rec.events([5]);
    rec.stop();
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    expect(await logged()).toEqual([]);
    expect(w.refetched()).toBe(0);
  });
});
