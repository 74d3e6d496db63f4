// Tests for TEC's date semantics: parsing, zones, details, the list window and write-side normalisation.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  dateDetails,
  fromUtc,
  normaliseTimezone,
  parseTime,
  timezoneAbbr,
  toUtc,
  WALL_FORMAT,
} from './index.ts';
import { isTime } from './parse.ts';

// Wednesday 2024-05-15 10:30:00 UTC (06:30 in New York, 12:30 in Berlin).
const NOW = new Date('2024-05-15T10:30:00Z');
const wall = (dt: DateTime | null) => dt?.toFormat(WALL_FORMAT) ?? null;
const utc = (dt: DateTime | null) => dt?.toUTC().toFormat(WALL_FORMAT) ?? null;

describe('parseTime', () => {
  it.each([
    ['2024-05-10', '2024-05-10 00:00:00'],
    ['2024-05-10 14:30', '2024-05-10 14:30:00'],
    ['2024-05-10 14:30:15', '2024-05-10 14:30:15'],
    ['2024-05-10T14:30:15', '2024-05-10 14:30:15'],
    ['2024/05/10', '2024-05-10 00:00:00'],
    ['05/10/2024', '2024-05-10 00:00:00'],
    ['now', '2024-05-15 06:30:00'],
    ['today', '2024-05-15 00:00:00'],
    ['midnight', '2024-05-15 00:00:00'],
    ['noon', '2024-05-15 12:00:00'],
    ['tomorrow', '2024-05-16 00:00:00'],
    ['yesterday', '2024-05-14 00:00:00'],
    ['yesterday 23:59', '2024-05-14 23:59:00'],
    ['tomorrow noon', '2024-05-16 12:00:00'],
    ['+1 day', '2024-05-16 06:30:00'],
    ['-2 weeks', '2024-05-01 06:30:00'],
    ['+3 months', '2024-08-15 06:30:00'],
    ['next monday', '2024-05-20 00:00:00'],
    ['last friday', '2024-05-10 00:00:00'],
    ['monday next week', '2024-05-20 00:00:00'],
  ])('reads %s as a wall clock in the given zone', (input, expected) => {
    const dt = parseTime(input, 'America/New_York', NOW);
    expect(wall(dt)).toBe(expected);
    expect(dt?.zoneName).toBe('America/New_York');
  });

  it.each([
    ['2024-05-10T14:30:15Z', '2024-05-10 14:30:15', '2024-05-10 14:30:15'],
    ['2024-05-10T14:30:15.123Z', '2024-05-10 14:30:15', '2024-05-10 14:30:15'],
    ['2024-05-10T14:30:15+02:00', '2024-05-10 14:30:15', '2024-05-10 12:30:15'],
    ['2024-05-10 14:30:15-05:30', '2024-05-10 14:30:15', '2024-05-10 20:00:15'],
    ['2024-05-10 14:30 EST', '2024-05-10 14:30:00', '2024-05-10 19:30:00'],
  ])('keeps the clock of a value with its own offset: %s', (input, ownClock, utcClock) => {
    const dt = parseTime(input, 'Europe/Berlin', NOW);
    expect(wall(dt)).toBe(ownClock);
    expect(utc(dt)).toBe(utcClock);
  });

  it.each([
    [1715337000, '2024-05-10 10:30:00'],
    ['1715337000', '2024-05-10 10:30:00'],
    ['@1715337000', '2024-05-10 10:30:00'],
    [0, '1970-01-01 00:00:00'],
  ])('reads the Unix timestamp %s on the UTC clock whatever the zone', (input, expected) => {
    const dt = parseTime(input, 'Asia/Tokyo', NOW);
    expect(wall(dt)).toBe(expected);
    expect(dt?.zoneName).toBe('UTC');
  });

  it.each(['', 'garbage', 'not a date', '2024-13-45', 'next blursday', '\r'])('rejects %j', (input) => {
    expect(parseTime(input, 'UTC', NOW)).toBeNull();
  });

  it('reads a blank value as now, as PHP does (only the empty string is false)', () => {
    expect(parseTime('   ', 'UTC', NOW)?.toSeconds()).toBe(NOW.getTime() / 1000);
  });

  it('computes "today" from the zone, not from UTC', () => {
    // 23:30 UTC is already the next day in Tokyo and still the same day in Los Angeles.
    const late = new Date('2024-05-15T23:30:00Z');
    expect(wall(parseTime('today', 'Asia/Tokyo', late))).toBe('2024-05-16 00:00:00');
    expect(wall(parseTime('today', 'America/Los_Angeles', late))).toBe('2024-05-15 00:00:00');
  });

  it('does not depend on the host time zone and restores it', () => {
    const before = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(wall(parseTime('2024-03-10 02:30', 'UTC', NOW))).toBe('2024-03-10 02:30:00');
      expect(process.env.TZ).toBe('America/New_York');
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('round-trips any wall clock written as Y-m-d H:i:s', () => {
    const instant = fc.date({
      min: new Date('1971-01-01Z'),
      max: new Date('2099-12-31Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, (d) => {
        const text = DateTime.fromJSDate(d, { zone: 'UTC' }).toFormat(WALL_FORMAT);
        expect(wall(parseTime(text, 'UTC', NOW))).toBe(text);
      }),
    );
  });
});

describe('time zones', () => {
  it.each([
    ['America/New_York', 'America/New_York'],
    ['america/new_york', 'America/New_York'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['UTC+0', 'UTC'],
    ['UTC+2', 'UTC+2'],
    ['UTC-5:30', 'UTC-5:30'],
    ['UTC+5.5', 'UTC+5:30'],
    ['UTC+05:45', 'UTC+5:45'],
    ['+02:00', 'UTC+2'],
    ['Mars/Olympus', null],
    ['UTC+25', null],
    ['', null],
  ])('normalises %j to %j', (input, expected) => {
    expect(normaliseTimezone(input)).toBe(expected);
  });

  it.each([
    ['2024-01-10 12:00:00', 'America/New_York', '2024-01-10 17:00:00'],
    ['2024-07-10 12:00:00', 'America/New_York', '2024-07-10 16:00:00'],
    ['2024-07-10 12:00:00', 'UTC+2', '2024-07-10 10:00:00'],
    ['2024-07-10 12:00:00', 'UTC-5:30', '2024-07-10 17:30:00'],
    ['2024-01-01 00:30:00', 'Europe/Berlin', '2023-12-31 23:30:00'],
  ])('converts %s in %s to UTC %s', (local, tz, expected) => {
    expect(toUtc(local, tz)).toBe(expected);
  });

  it.each([
    ['2024-01-10 12:00:00', 'America/New_York', 'EST'],
    ['2024-07-10 12:00:00', 'America/New_York', 'EDT'],
    ['2024-01-10 12:00:00', 'Europe/Berlin', 'CET'],
    ['2024-07-10 12:00:00', 'Europe/Berlin', 'CEST'],
    ['2024-01-10 12:00:00', 'Europe/London', 'GMT'],
    ['2024-01-10 12:00:00', 'Asia/Kolkata', 'IST'],
    ['2024-01-10 12:00:00', 'Europe/Istanbul', '+03'],
    ['2024-01-10 12:00:00', 'UTC', 'UTC'],
    ['2024-01-10 12:00:00', 'UTC+2', 'UTC+2'],
    ['2024-01-10 12:00:00', 'UTC-5:30', 'UTC-5:30'],
  ])('names the zone at %s in %s as %s', (local, tz, expected) => {
    expect(timezoneAbbr(local, tz)).toBe(expected);
  });

  it('brings any UTC clock back through fromUtc then toUtc, or in an hour the zone repeats to its twin', () => {
    const zones = fc.constantFrom(
      'America/New_York',
      'Europe/Berlin',
      'Asia/Kolkata',
      'Australia/Sydney',
      'UTC+2',
    );
    const instant = fc.date({
      min: new Date('1971-01-01Z'),
      max: new Date('2099-12-31Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, zones, (d, tz) => {
        const at = DateTime.fromJSDate(d, { zone: 'UTC' });
        const utcClock = at.toFormat(WALL_FORMAT);
        const local = fromUtc(utcClock, tz);
        // When the clocks go back, an hour's wall clocks happen twice (these zones shift by an hour): a wall clock
        // then names one of the two instants, the side PHP picks (held against PHP in src/dates/strtotime.test.ts).
        const twin = [at.minus({ hours: 1 }), at.plus({ hours: 1 })]
          .map((t) => t.toFormat(WALL_FORMAT))
          .find((c) => fromUtc(c, tz) === local);
        expect(twin === undefined ? [utcClock] : [utcClock, twin]).toContain(toUtc(local, tz));
      }),
    );
    // Both sides, as fast-check found them (a full run's seed 471818689, then a run of 100000): 01:00 on 1990-10-28 in
    // New York came at 05:00 and 06:00 UTC and is read as daylight time; 02:00 on 2038-10-31 in Berlin came at 00:00
    // and 01:00 UTC and is read as standard time (src/dates/zones.ts, phpOffset: as Madrid's).
    expect(toUtc(fromUtc('1990-10-28 06:00:00', 'America/New_York'), 'America/New_York')).toBe(
      '1990-10-28 05:00:00',
    );
    expect(toUtc(fromUtc('2038-10-31 00:00:00', 'Europe/Berlin'), 'Europe/Berlin')).toBe(
      '2038-10-31 01:00:00',
    );
  });
});

describe('dateDetails', () => {
  it('splits a stored date into zero-padded strings', () => {
    expect(dateDetails('2017-01-05 14:23:06')).toEqual({
      year: '2017',
      month: '01',
      day: '05',
      hour: '14',
      minutes: '23',
      seconds: '06',
    });
  });

  it('rejects a value that is not Y-m-d H:i:s', () => {
    expect(() => dateDetails('2017-01-05')).toThrow(RangeError);
  });

  it('joins back to its input', () => {
    const instant = fc.date({
      min: new Date('0001-01-01Z'),
      max: new Date('9999-12-31Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, (d) => {
        const text = DateTime.fromJSDate(d, { zone: 'UTC' }).toFormat(WALL_FORMAT);
        const p = dateDetails(text);
        expect(`${p.year}-${p.month}-${p.day} ${p.hour}:${p.minutes}:${p.seconds}`).toBe(text);
      }),
    );
  });
});

describe("isTime (TEC's is_time)", () => {
  const now = new Date('2026-05-10T12:00:00Z');
  it('refuses what strtotime reads as the epoch, since 0 is falsy', () => {
    for (const v of [
      '1970-01-01',
      '1970-01-01 00:00:00',
      '@0',
      '1970-01-01T01:00:00+01:00',
      '1969-12-31 19:00 EST',
    ])
      expect(isTime(v, now), v).toBe(false);
  });
  it('accepts a number, the epoch included, and any other date strtotime reads', () => {
    for (const v of ['0', '1', '1970-01-01 00:00:01', '1969-12-31', 'tomorrow', '2030-01-31T18:00:00Z'])
      expect(isTime(v, now), v).toBe(true);
    expect(isTime('not a date', now)).toBe(false);
  });
});
