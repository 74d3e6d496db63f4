// A poll's changed ids are reported to the cache in batches of a bounded size as they come, each id once, and the
// poll's flush reports the rest and says how many it changed in all.
import { describe, expect, it } from 'vitest';
import type { IndexedEvent } from './columns/rows.ts';
import { UpstreamChanges } from './upstream-changes.ts';

describe('UpstreamChanges', () => {
  it('reports a batch whenever one is full, the rest at the flush, each id once', () => {
    const reports: number[][] = [];
    const changes = new UpstreamChanges((ids) => reports.push(ids), 4);
    for (let id = 1; id <= 9; id++) changes.add(id);
    expect(reports).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(changes.flush()).toBe(9);
    expect(reports).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]]);
    // A flush with nothing added reports nothing and counts none.
    expect(changes.flush()).toBe(0);
    expect(reports).toHaveLength(3);
  });

  it('reports a full batch with the links and softness noted since the last report', () => {
    const reports: Array<{ ids: number[]; links: string[]; soft: boolean }> = [];
    const changes = new UpstreamChanges((ids, links, soft) => reports.push({ ids, links, soft }), 2);
    // A published event gone: taken out of public view, so the report it is in is not soft.
    const published = {
      id: 1,
      status: 'publish',
      protected: false,
      hidden: false,
      start: '2026-01-01 10:00:00',
      end: '2026-01-01 11:00:00',
      venue: 7,
      organizers: [],
      categories: [],
      tags: [],
    } as unknown as IndexedEvent;
    changes.note(published, undefined);
    changes.add(1);
    changes.add(2);
    changes.add(3);
    changes.flush();
    expect(reports.map((r) => r.ids)).toEqual([[1, 2], [3]]);
    expect(reports.map((r) => r.soft)).toEqual([false, true]);
    // Its venue's list changed with it (the first report), and nothing noted since (the second).
    expect(reports[0]!.links.length).toBeGreaterThan(0);
    expect(reports[1]!.links).toEqual([]);
  });
});
