// The in-memory change log's ledger at a large site's size: a seed and a scan of 25k entries, as the start-up
// reconciliation makes them, give every entry once and in order, and let other callbacks run meanwhile.
import { describe, expect, it } from 'vitest';
import type { Observation } from './ledger.ts';
import { MemoryChangeLog } from './memory-log.ts';

const log = () =>
  new MemoryChangeLog({
    apiRoot: 'http://gw/wp-json/calendar/events/v1',
    taxonomy: { category: 'tribe_events_cat', tag: 'post_tag' },
    retentionMs: 86_400_000,
  });

const venue = (id: number): Observation => ({
  kind: 'venue',
  id,
  version: `v${id}`,
  order: '2026-01-01 10:00:00',
  public: true,
});

/** 25k ids in no order, with gaps. */
const IDS = Array.from({ length: 25_000 }, (_, i) => ((i * 7919) % 25_000) * 3 + 1);

describe('the in-memory ledger at scale', () => {
  it('seeds every entry over several turns of the event loop', async () => {
    const l = log();
    let other = false;
    setImmediate(() => {
      other = true;
    });
    await l.seed('venue', IDS.map(venue));
    // Filled, not marked: a first start seeds a chunk at a time and marks the kind when all are in.
    expect(await l.seeded('venue')).toBe(false);
    await l.markSeeded('venue');
    expect(await l.seeded('venue')).toBe(true);
    const states = await l.states('venue', IDS);
    expect(states.every((s) => s?.startsWith('v'))).toBe(true);
    // A callback queued before it ran between the seed's slices: it did not hold the loop for all 25k.
    expect(other).toBe(true);
  });

  it('scans every id once, in order, a page at a time, while entries change', async () => {
    const l = log();
    await l.seed('venue', IDS.map(venue));
    const seen: number[] = [];
    let cursor = '0';
    let pages = 0;
    do {
      const page = await l.scan('venue', cursor, 1000);
      seen.push(...page.entries.map(([id]) => id));
      cursor = page.next;
      // A deletion during the scan of an id not reached yet: passed over, not an error.
      if (pages++ === 3) await l.observe({ ...venue(IDS.at(-1)!), version: null });
    } while (cursor !== '0');
    expect(pages).toBe(25);
    const expected = [...IDS].sort((a, b) => a - b);
    expect(seen).toEqual(expected);
    // A new scan starts afresh from the ledger as it is now.
    const first = await l.scan('venue', '0', 5);
    expect(first.entries.map(([id]) => id)).toEqual(expected.slice(0, 5));
  });
});
