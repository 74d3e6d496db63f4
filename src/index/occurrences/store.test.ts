// The occurrence store against expanding the series directly (src/recurrence/expand.ts): whatever the window, inside
// the horizon it keeps or outside it, the same occurrences at the same instants, in start order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Expander, type StoredRule } from '../../recurrence/expand.ts';
import { occurrenceId } from '../../recurrence/ids.ts';
import { seriesArb } from '../../recurrence/test-support.ts';
import { floatOfWall } from './expand.ts';
import { repeatOf } from './repeat.ts';
import { OccurrenceStore } from './store.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 6, 1);
const RUNS = Number(process.env.RECURRENCE_RUNS ?? 60);

const textOf = (r: StoredRule) =>
  [
    `RRULE:${r.rrule}`,
    ...(r.rdate.length ? [`RDATE:${r.rdate.join(',')}`] : []),
    ...(r.exdate.length ? [`EXDATE:${r.exdate.join(',')}`] : []),
  ].join('\n');

describe('the occurrence store', () => {
  it('gives the occurrences a direct expansion gives, inside and outside its horizon', () => {
    fc.assert(
      fc.property(
        seriesArb(),
        fc.integer({ min: -800, max: 1500 }),
        fc.integer({ min: 0, max: 900 }),
        ({ rule, times }, fromDay, days) => {
          const repeat = repeatOf({
            recurrence: textOf(rule),
            seriesParent: undefined,
            recurrenceId: undefined,
            start: times.start,
            end: times.start,
            startUtc: null,
            endUtc: null,
            timezone: times.timezone,
            allDay: times.allDay,
          });
          fc.pre(repeat !== undefined);
          const store = new OccurrenceStore({ now: () => NOW, windowMonths: 12 });
          store.set(7, repeat);
          const from = NOW + fromDay * DAY;
          const to = from + days * DAY;
          const w = store.window(7, from, to);
          const got = Array.from(w.occ.starts.subarray(w.lo, w.hi), (s, i) => [s, w.occ.originals[w.lo + i]]);
          const e = Expander.of(rule, times);
          const want = (e?.between(from - 2 * DAY, to + 2 * DAY, 10_000) ?? [])
            .map((o) => [floatOfWall(o.wall), o.ms])
            .filter(
              ([f, ms]) =>
                f >= from && f <= to && occurrenceId({ seriesId: 7, originalStartMs: ms }) !== undefined,
            );
          expect(got).toEqual(want);
          // Sorted by start, and each a real occurrence the store knows.
          for (let i = 1; i < got.length; i++) expect(got[i]![0]!).toBeGreaterThanOrEqual(got[i - 1]![0]!);
          for (const [, ms] of got.slice(0, 3)) expect(store.occursAt(7, ms!)).toBe(true);
          // Whether one is still to come from `from`: what the window up to the horizon's end holds.
          const rest = store.window(7, from, store.horizon().to);
          expect(store.startsWithin(7, from)).toBe(rest.hi > rest.lo);
        },
      ),
      { numRuns: RUNS, seed: 31 },
    );
  });

  it('keeps the horizon expanded once per change, and forgets a series or an override when it goes', () => {
    const store = new OccurrenceStore({ now: () => NOW, windowMonths: 24 });
    const weekly = repeatOf({
      recurrence: 'RRULE:FREQ=WEEKLY',
      seriesParent: undefined,
      recurrenceId: undefined,
      start: '2026-01-06 19:00:00',
      end: '2026-01-06 21:00:00',
      startUtc: '2026-01-07 00:00:00',
      endUtc: '2026-01-07 02:00:00',
      timezone: 'America/New_York',
      allDay: false,
    });
    store.set(5, weekly);
    // From the first occurrence (after a year back) to 25 months ahead.
    expect(store.held).toBeGreaterThan(100);
    expect(store.held).toBeLessThan(140);
    expect(weekly?.durationMs).toBe(2 * 3_600_000);
    const override = repeatOf({
      recurrence: '',
      seriesParent: 5,
      recurrenceId: '2026-01-14 00:00:00',
      start: '2026-01-14 20:00:00',
      end: '2026-01-14 21:00:00',
      startUtc: null,
      endUtc: null,
      timezone: 'America/New_York',
      allDay: false,
    });
    store.set(6, override);
    expect([...store.overridesOf(5)]).toEqual([6]);
    expect(store.occursAt(5, Date.UTC(2026, 0, 14))).toBe(true);
    expect(store.occursAt(5, Date.UTC(2026, 0, 15))).toBe(false);
    store.delete(6);
    expect([...store.overridesOf(5)]).toEqual([]);
    store.delete(5);
    expect(store.seriesCount).toBe(0);
  });

  it('moves every series to a new horizon in the background, and keeps the timeline in step with them', async () => {
    let now = NOW;
    const store = new OccurrenceStore({ now: () => now, windowMonths: 12, occurrenceBlock: 4 });
    const weekly = (start: string, zone: string) =>
      repeatOf({
        recurrence: 'RRULE:FREQ=WEEKLY',
        seriesParent: undefined,
        recurrenceId: undefined,
        start,
        end: start,
        startUtc: null,
        endUtc: null,
        timezone: zone,
        allDay: false,
      });
    store.set(3, weekly('2026-03-03 19:00:00', 'America/New_York'));
    store.set(4, weekly('2026-03-08 09:30:00', 'Asia/Kolkata'));
    const beyond = NOW + 420 * DAY;
    expect(store.covers(NOW, NOW + 300 * DAY)).toBe(true);
    expect(store.covers(NOW, beyond)).toBe(false);
    // Two months on: the move starts at the next question (two series take one slice), `true` once it is over.
    now += 62 * DAY;
    for (let i = 0; i < 20 && !store.covers(NOW + 62 * DAY, beyond); i++)
      await new Promise((r) => setImmediate(r));
    expect(store.covers(NOW + 62 * DAY, beyond)).toBe(true);
    // The timeline holds every kept occurrence of both, in start order.
    const kept = [3, 4].flatMap((id) => {
      const w = store.window(id, now - 366 * DAY, now + 13 * 31 * DAY);
      return Array.from(w.occ.starts.subarray(w.lo, w.hi));
    });
    const inTimeline = store.timeline.blocks.flatMap((b) =>
      Array.from(b.starts.subarray(0, b.n), store.floatAt, store),
    );
    expect(inTimeline).toEqual(kept.sort((a, b) => a - b));
    expect(store.held).toBe(kept.length);
    store.delete(3);
    store.delete(4);
    expect(store.timeline.size).toBe(0);
  });
});
