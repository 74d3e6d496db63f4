import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstMs, occurrencesBetween } from './occurs.ts';
import { canonicalText, parseRecurrence, type Rule } from './rule.ts';
import { continueFrom, endBefore, shiftDates } from './split.ts';

const NY = { start: '2036-10-07 19:00:00', timezone: 'America/New_York', allDay: false };
const rule = (input: unknown, start = NY): Rule => {
  const r = parseRecurrence(input, start, { maxCount: 1000 });
  if (!r.ok) throw new Error(r.reason);
  return r.rule;
};
const utc = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);
const YEARS = 5 * 366 * 86_400_000;

describe('splitting a series', () => {
  it('ends a COUNT series with the occurrences before the split, and continues it with the rest', () => {
    const r = rule({ rrule: 'FREQ=WEEKLY;COUNT=8', exdate: ['20361111T190000'] });
    const at = utc('2036-10-28 23:00:00');
    expect(canonicalText(endBefore(r, NY, at))).toBe('RRULE:FREQ=WEEKLY;COUNT=3');
    expect(canonicalText(continueFrom(r, NY, at, 0))).toBe(
      'RRULE:FREQ=WEEKLY;COUNT=5\nEXDATE:20361111T190000',
    );
  });

  it('ends an unbounded series one second before the split (UTC), and keeps the rest unbounded', () => {
    const r = rule('FREQ=WEEKLY');
    const at = utc('2036-11-04 00:00:00');
    expect(canonicalText(endBefore(r, NY, at))).toBe('RRULE:FREQ=WEEKLY;UNTIL=20361103T235959Z');
    expect(canonicalText(continueFrom(r, NY, at, 0))).toBe('RRULE:FREQ=WEEKLY');
  });

  it('ends an all-day series the day before', () => {
    const day = { start: '2036-07-04 00:00:00', timezone: 'Europe/Paris', allDay: true };
    const r = rule('FREQ=DAILY', day);
    expect(canonicalText(endBefore(r, day, utc('2036-07-09 22:00:00')))).toBe(
      'RRULE:FREQ=DAILY;UNTIL=20360709',
    );
  });

  it('moves the dates of the rest with a new start time', () => {
    const r = rule({ rrule: 'FREQ=DAILY', rdate: ['20361201T190000'], exdate: ['20361110T190000'] });
    expect(canonicalText(shiftDates(r, 3_600_000))).toBe(
      'RRULE:FREQ=DAILY\nRDATE:20361201T200000\nEXDATE:20361110T200000',
    );
  });

  it('keeps every occurrence: those before the split and those from it are the series, across DST', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'FREQ=DAILY;INTERVAL=3',
          'FREQ=WEEKLY;BYDAY=TU,TH',
          'FREQ=MONTHLY;BYDAY=1TU',
          'FREQ=WEEKLY',
        ),
        fc.option(fc.integer({ min: 2, max: 40 })),
        fc.integer({ min: 1, max: 30 }),
        (rrule, count, nth) => {
          const r = rule(count === null ? rrule : `${rrule};COUNT=${count}`);
          const all = occurrencesBetween(r, NY, firstMs(NY), firstMs(NY) + YEARS);
          if (all.length <= nth) return;
          const at = all[nth]!;
          const first = endBefore(r, NY, at);
          const atStart = { ...NY, start: new Date(at).toISOString() };
          // The new series' first occurrence, as its own start in New York.
          const wall = new Intl.DateTimeFormat('sv-SE', {
            timeZone: 'America/New_York',
            dateStyle: 'short',
            timeStyle: 'medium',
          }).format(at);
          const next = { ...atStart, start: wall };
          const rest = continueFrom(r, NY, at, 0);
          const before = occurrencesBetween(first, NY, firstMs(NY), firstMs(NY) + YEARS);
          const after = occurrencesBetween(rest, next, firstMs(next), firstMs(NY) + YEARS);
          expect(before).toEqual(all.slice(0, nth));
          expect(after).toEqual(all.slice(nth));
        },
      ),
      { numRuns: 60 },
    );
  });
});
