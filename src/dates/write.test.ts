// Tests for write-side event dates: zones, own offsets, timestamps, all-day, end-before-start, UTC copies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EventDatesInput, normaliseEventDates } from './write.ts';

const NOW = new Date('2024-05-15T10:30:00Z');
const SITE = { timezone: 'America/New_York' };

const datesOf = (input: EventDatesInput, site = SITE) => {
  const result = normaliseEventDates(input, site, NOW);
  if (!result.ok) throw new Error(`unexpected error ${JSON.stringify(result.error)}`);
  return result.dates;
};

describe('normaliseEventDates', () => {
  it('reads dates in the site zone when no timezone is sent and stores UTC copies', () => {
    expect(datesOf({ start_date: '2024-01-10 09:00', end_date: '2024-01-10 11:30' })).toEqual({
      start: '2024-01-10 09:00:00',
      end: '2024-01-10 11:30:00',
      startUtc: '2024-01-10 14:00:00',
      endUtc: '2024-01-10 16:30:00',
      duration: 9000,
      timezone: 'America/New_York',
      timezoneAbbr: 'EST',
    });
  });

  it.each([
    ['Europe/Berlin', '2024-07-10 08:00:00', 'CEST'],
    ['UTC+2', '2024-07-10 08:00:00', 'UTC+2'],
    ['UTC', '2024-07-10 10:00:00', 'UTC'],
  ])('uses the event timezone %s for the UTC copies', (timezone, startUtc, abbr) => {
    const dates = datesOf({ start_date: '2024-07-10 10:00', end_date: '2024-07-10 12:00', timezone });
    expect(dates.startUtc).toBe(startUtc);
    expect(dates.timezone).toBe(timezone);
    expect(dates.timezoneAbbr).toBe(abbr);
  });

  it('keeps the clock time of a value with its own offset instead of converting it', () => {
    const dates = datesOf({ start_date: '2024-07-10T10:00:00+02:00', end_date: '2024-07-10T12:00:00Z' });
    expect(dates.start).toBe('2024-07-10 10:00:00');
    expect(dates.end).toBe('2024-07-10 12:00:00');
    expect(dates.startUtc).toBe('2024-07-10 14:00:00');
  });

  it('stores a Unix timestamp as its UTC clock time taken as local', () => {
    const dates = datesOf({ start_date: 1715337000, end_date: '1715340600' });
    expect(dates.start).toBe('2024-05-10 10:30:00');
    expect(dates.end).toBe('2024-05-10 11:30:00');
    expect(dates.startUtc).toBe('2024-05-10 14:30:00');
  });

  it('widens an all-day event to 00:00:00 through 23:59:59', () => {
    const dates = datesOf({ start_date: '2024-05-10 15:00', end_date: '2024-05-12 09:00', all_day: true });
    expect([dates.start, dates.end]).toEqual(['2024-05-10 00:00:00', '2024-05-12 23:59:59']);
    expect(dates.duration).toBe(3 * 86400 - 1);
  });

  it('sets an end before the start equal to the start without an error', () => {
    const dates = datesOf({ start_date: '2024-05-10 15:00', end_date: '2024-05-09 09:00' });
    expect(dates.end).toBe('2024-05-10 15:00:00');
    expect(dates.duration).toBe(0);
  });

  it('reads relative dates from now in the event zone', () => {
    expect(datesOf({ start_date: 'tomorrow 10:00', end_date: 'tomorrow 12:00' }).start).toBe(
      '2024-05-16 10:00:00',
    );
  });

  it.each([
    [
      { start_date: 'whenever', end_date: '2024-05-10' },
      { start_date: expect.stringMatching(/^start_date must be a date/) },
    ],
    [
      { start_date: '2024-05-10', end_date: '' },
      { end_date: expect.stringMatching(/^end_date must be a date/) },
    ],
    [
      { start_date: '2024-05-10', end_date: '2024-05-10', timezone: 'Mars/Olympus' },
      { timezone: expect.stringMatching(/^timezone must be a time zone/) },
    ],
  ])('names the bad parameter in a 400 (%o)', (input, params) => {
    const result = normaliseEventDates(input, SITE, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.data).toMatchObject({ status: 400, params });
  });

  it('never ends before it starts and measures the duration from the UTC copies', () => {
    const clock = fc
      .date({ min: new Date('1971-01-01Z'), max: new Date('2099-12-31Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
    const zone = fc.constantFrom('UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'UTC-5:30');
    fc.assert(
      fc.property(clock, clock, zone, fc.boolean(), (start_date, end_date, timezone, all_day) => {
        const dates = datesOf({ start_date, end_date, timezone, all_day });
        expect(dates.end >= dates.start).toBe(true);
        const seconds = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`) / 1000;
        expect(dates.duration).toBe(seconds(dates.endUtc) - seconds(dates.startUtc));
      }),
    );
  });
});
