// The element's pure parts: days and ranges, where events are placed (zones, all-day, midnight ends), lanes of bars,
// side-by-side blocks, the URL's state and the filters' query.
import type { Event } from '@calendar-gateway/client';
import { describe, expect, it } from 'vitest';
import { filterQuery } from './data.ts';
import { addMonths, parseDay, visibleDays, wallIn } from './dates.ts';
import { barLanes, place, timedBlocks } from './layout.ts';
import { readUrl, writeUrl } from './url-state.ts';

const ev = (id: number, start: string, end: string, more: Partial<Event> = {}): Event =>
  ({ id, title: `e${id}`, start_date: start, end_date: end, ...more }) as Event;

describe('visible days', () => {
  it.each([
    // March 2027 from Sunday: Feb 28 to Apr 3, five weeks.
    ['month', '2027-03-14', 0, '2027-02-28', '2027-04-03', 35],
    // From Monday: Mar 1 to Apr 4.
    ['month', '2027-03-14', 1, '2027-03-01', '2027-04-04', 35],
    // February 2026 starts on a Sunday and has 28 days: four weeks exactly.
    ['month', '2026-02-10', 0, '2026-02-01', '2026-02-28', 28],
    ['week', '2027-03-14', 1, '2027-03-08', '2027-03-14', 7],
    ['day', '2027-03-14', 1, '2027-03-14', '2027-03-14', 1],
  ])('%s of %s, weeks from %i: %s to %s', (view, anchor, firstDay, first, last, count) => {
    const days = visibleDays(view, anchor, firstDay);
    expect([days[0], days.at(-1), days.length]).toEqual([first, last, count]);
  });

  it('reads days and months, and refuses what is not a date', () => {
    expect(['2027-03', '2027-02-29', '2028-02-29', 'x', ''].map(parseDay)).toEqual([
      '2027-03-01',
      undefined,
      '2028-02-29',
      undefined,
      undefined,
    ]);
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-01');
  });
});

describe('placing an event', () => {
  it('keeps an all-day event on its dates, over several days', () => {
    const p = place(ev(1, '2027-03-13 00:00:00', '2027-03-15 23:59:59', { all_day: true }), 'Asia/Tokyo')!;
    expect([p.first, p.last, p.bar, p.allDay]).toEqual(['2027-03-13', '2027-03-15', true, true]);
  });

  it('does not count a midnight end as a day of the event', () => {
    const p = place(ev(2, '2027-03-13 20:00:00', '2027-03-14 00:00:00'))!;
    expect([p.first, p.last, p.bar]).toEqual(['2027-03-13', '2027-03-13', false]);
  });

  it('reads timed events in the given zone from their UTC instants, across a DST change', () => {
    // 10:00 in New York on either side of 2027-03-14 (02:00 EST → 03:00 EDT): 15:00 UTC, then 14:00 UTC.
    const before = ev(3, 'x', 'x', {
      utc_start_date: '2027-03-13 15:00:00',
      utc_end_date: '2027-03-13 16:00:00',
    });
    const after = ev(4, 'x', 'x', {
      utc_start_date: '2027-03-15 14:00:00',
      utc_end_date: '2027-03-15 15:00:00',
    });
    for (const e of [before, after]) {
      const p = place(
        { ...e, start_date: '2000-01-01 00:00:00', end_date: '2000-01-01 01:00:00' },
        'America/New_York',
      )!;
      expect(p.start.minutes).toBe(600);
    }
    expect(wallIn('2027-03-14 06:59:00', 'America/New_York')).toEqual({ day: '2027-03-14', minutes: 119 });
    expect(wallIn('2027-03-14 07:00:00', 'America/New_York')).toEqual({ day: '2027-03-14', minutes: 180 });
    // A late evening in New York is the next day in Madrid.
    const late = ev(5, '2027-03-20 22:00:00', '2027-03-20 23:00:00', {
      utc_start_date: '2027-03-21 02:00:00',
      utc_end_date: '2027-03-21 03:00:00',
    });
    expect(place(late)!.first).toBe('2027-03-20');
    expect(place(late, 'Europe/Madrid')!.first).toBe('2027-03-21');
  });
});

describe('bars in lanes', () => {
  it('puts each bar in the lowest free lane, cut at the row’s edges', () => {
    const week = visibleDays('week', '2027-03-14', 0);
    const placed = [
      ev(1, '2027-03-10 00:00:00', '2027-03-15 23:59:59', { all_day: true }),
      ev(2, '2027-03-15 00:00:00', '2027-03-16 23:59:59', { all_day: true }),
      ev(3, '2027-03-17 09:00:00', '2027-03-19 10:00:00'),
      ev(4, '2027-03-16 09:00:00', '2027-03-16 10:00:00'),
    ].map((e) => place(e)!);
    const { segments, lanes } = barLanes(week, placed);
    const row = segments.map((s) => [s.placed.event.id, s.col, s.span, s.lane, s.continuesBefore]);
    expect(row).toEqual([
      [1, 0, 2, 0, true],
      [2, 1, 2, 1, false],
      [3, 3, 3, 0, false],
    ]);
    expect(lanes).toBe(2);
  });

  it('sets overlapping timed events side by side, and the rest full width', () => {
    const placed = [
      ev(1, '2027-03-16 09:00:00', '2027-03-16 11:00:00'),
      ev(2, '2027-03-16 10:00:00', '2027-03-16 12:00:00'),
      ev(3, '2027-03-16 11:30:00', '2027-03-16 12:30:00'),
      ev(4, '2027-03-16 14:00:00', '2027-03-16 15:00:00'),
    ].map((e) => place(e)!);
    const blocks = timedBlocks(placed, '2027-03-16').map((b) => [b.placed.event.id, b.column, b.columns]);
    expect(blocks).toEqual([
      [1, 0, 2],
      [2, 1, 2],
      [3, 0, 2],
      [4, 0, 1],
    ]);
  });
});

describe('the URL and the filters', () => {
  it('writes the state under cg_ names, keeping the page’s own parameters, and reads it back', () => {
    const search = writeUrl('?page_id=7&cg_tag=old', {
      view: 'week',
      date: '2027-03-14',
      categories: 'jazz',
    });
    expect(search).toBe('?page_id=7&cg_view=week&cg_date=2027-03-14&cg_category=jazz');
    expect(readUrl(search)).toEqual({ view: 'week', date: '2027-03-14', categories: 'jazz' });
  });

  it('sends lists as lists, venue ids as numbers, and nothing for empty filters', () => {
    expect(filterQuery({ categories: 'jazz, blues', venue: '3,x,5', search: '  trio ', tags: '' })).toEqual({
      categories: ['jazz', 'blues'],
      venue: [3, 5],
      search: 'trio',
    });
    expect(filterQuery({})).toEqual({});
  });
});
