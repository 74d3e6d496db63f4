import { describe, expect, it } from 'vitest';
import type { IndexedEvent } from '../index/columns/rows.ts';
import type { Mapping } from '../mapping/schema.ts';
import { MemoryChangeLog } from './memory-log.ts';
import { ChangeRecorder, postObservation, recordsOfTags, termObservation } from './recorder.ts';

const mapping = {
  event: {
    restBase: 'tribe_events',
    categories: { taxonomy: 'tribe_events_cat', restBase: 'tribe_events_cat' },
    tags: { taxonomy: 'post_tag', restBase: 'tags' },
  },
  venue: { restBase: 'tribe_venue' },
  organizer: { restBase: 'tribe_organizer' },
} as unknown as Mapping;

/** WordPress and an event index as the recorder reads them, changed by the test between starts. */
function world() {
  const events = new Map<number, Pick<IndexedEvent, 'id' | 'status' | 'modifiedGmt' | 'protected'>>();
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
    // As the index's batches give them: with the search text, which a read of one event does not carry.
    snapshot: () => ({ batches: () => [[...events.values()].map((e) => ({ ...e, searchText: 'text' }))] }),
  };
  const indexes = { all: () => [index] } as never;
  return { events, venues, tags, wp: wp as never, indexes, reads: () => reads };
}

const log = () =>
  new MemoryChangeLog({
    apiRoot: 'http://gw/wp-json/calendar/events/v1',
    taxonomy: { category: 'tribe_events_cat', tag: 'post_tag' },
    retentionMs: 86_400_000,
  });

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

  it('fills the ledger silently at a first start, then logs what changed or went while stopped, oldest first', async () => {
    const w = world();
    const changes = log();
    w.events.set(1, { id: 1, status: 'publish', modifiedGmt: '2026-01-01 10:00:00', protected: false });
    w.events.set(2, { id: 2, status: 'publish', modifiedGmt: '2026-01-01 10:00:00', protected: false });
    w.venues.set(7, { id: 7, status: 'publish', modified_gmt: '2026-01-01T10:00:00' });
    w.tags.set(3, { id: 3, name: 'Jazz', slug: 'jazz' });
    const rec = new ChangeRecorder({ changes, wp: w.wp, mapping, indexes: w.indexes, warn: () => {} });
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
    const rec = new ChangeRecorder({ changes, wp: w.wp, mapping, indexes: w.indexes, warn: () => {} });
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
