import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventFacets } from './facets.ts';
import { newerStamp, nextSince, reconcilePlan, type UpstreamRow } from './sync.ts';

const ms = (gmt: string) => Date.parse(`${gmt.replace(' ', 'T')}Z`);
const NOW = ms('2026-11-22 12:00:00');
const opts = { overlapMs: 10_000, crawlMs: 500, nowMs: NOW };

describe('nextSince', () => {
  it.each([
    [
      'starts at the newest stamp less the overlap and the crawl time',
      null,
      ['2026-11-22T10:00:00', '2026-11-22T11:00:00'],
      ms('2026-11-22 11:00:00') - 10_500,
    ],
    ['keeps the current start when nothing was seen', 123, [], 123],
    ['never moves back', ms('2026-11-22 11:30:00'), ['2026-11-22T11:00:00'], ms('2026-11-22 11:30:00')],
    ['counts a future stamp (a scheduled post) as now', null, ['2027-01-01T00:00:00'], NOW - 10_500],
    ['ignores empty stamps', null, ['', '2026-11-22T10:00:00'], ms('2026-11-22 10:00:00') - 10_500],
  ])('%s', (_name, current, stamps, want) => {
    expect(nextSince(current as number | null, stamps as string[], opts)).toBe(want);
  });

  it('never moves back and never starts later than now less the overlap and the crawl', () => {
    const stamp = fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 19));
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: NOW })),
        fc.array(stamp, { maxLength: 5 }),
        (current, stamps) => {
          const next = nextSince(current, stamps, opts);
          if (current !== null) expect(next).toBeGreaterThanOrEqual(current);
          if (next !== null && next !== current) expect(next).toBeLessThanOrEqual(NOW - 10_500);
        },
      ),
    );
  });
});

describe('newerStamp', () => {
  it('keeps the later time and passes over what is not a time, as nextSince does', () => {
    const stamps = [
      '',
      '2026-11-22T10:00:00',
      'garbage',
      '2026-11-22T09:00:00',
      '2026-11-22T11:00:00',
      'zzz',
    ];
    const newest = stamps.reduce(newerStamp, '');
    expect(newest).toBe('2026-11-22T11:00:00');
    expect(nextSince(null, [newest], opts)).toBe(nextSince(null, stamps, opts));
    expect(newerStamp('', 'garbage')).toBe('');
  });
});

const facet = (id: number, status: string, modifiedGmt: string) =>
  ({ id, status, modifiedGmt }) as EventFacets;
const row = (id: number, status: string, modified_gmt: string): UpstreamRow => ({ id, status, modified_gmt });

describe('reconcilePlan', () => {
  const facets = new Map([
    [1, facet(1, 'publish', '2026-11-20 10:00:00')],
    [2, facet(2, 'future', '2026-11-20 10:00:00')],
    [3, facet(3, 'publish', '2026-11-20 10:00:00')],
    [4, facet(4, 'draft', '2026-11-20 10:00:00')],
  ]);
  const index = { ids: () => facets.keys(), get: (id: number) => facets.get(id) };

  it('drops what WordPress no longer has and re-reads what is missing or differs', () => {
    const plan = reconcilePlan({ index, tombstones: new Map(), changedSince: () => false }, [
      row(1, 'publish', '2026-11-20T10:00:00'), // same
      row(2, 'publish', '2026-11-20T10:00:00'), // published in place: same stamp, new status
      row(4, 'draft', '2026-11-21T09:00:00'), // edited
      row(5, 'publish', '2026-11-21T09:00:00'), // missed by a crawl
    ]);
    expect(plan).toEqual({ gone: [3], stale: [2, 4, 5] });
  });

  it('leaves alone what the gateway wrote while the ids were listed, and what it deleted since', () => {
    const plan = reconcilePlan(
      {
        index,
        tombstones: new Map([[6, '2026-11-21 12:00:00']]),
        changedSince: (id) => id === 3 || id === 5,
      },
      [
        row(1, 'publish', '2026-11-20T10:00:00'),
        row(5, 'publish', '2026-11-21T09:00:00'),
        row(6, 'publish', '2026-11-21T11:00:00'),
      ],
    );
    // 2 and 4 are gone upstream; 3 changed through the gateway meanwhile; 5 likewise; 6 was deleted after that stamp.
    expect(plan).toEqual({ gone: [2, 4], stale: [] });
  });

  it('re-reads a post deleted through the gateway that changed upstream afterwards', () => {
    const plan = reconcilePlan(
      {
        index: { ids: () => [], get: () => undefined },
        tombstones: new Map([[6, '2026-11-21 12:00:00']]),
        changedSince: () => false,
      },
      [row(6, 'publish', '2026-11-21T13:00:00')],
    );
    expect(plan).toEqual({ gone: [], stale: [6] });
  });
});
