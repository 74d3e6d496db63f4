// Tests for the `GET /events` date window: defaults, inclusive days, strict instants, relative bounds, errors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ListDateQuery, resolveListDates } from './window.ts';

const NOW = new Date('2024-05-15T10:30:00Z');
const NY = { timezone: 'America/New_York' };
const TOKYO = { timezone: 'Asia/Tokyo' };

const filterOf = (query: ListDateQuery, site = NY, now = NOW) => {
  const result = resolveListDates(query, site, now);
  if (!result.ok) throw new Error(`unexpected error ${JSON.stringify(result.error)}`);
  return result;
};

describe('resolveListDates', () => {
  it.each([
    // yesterday 23:59 UTC is 19:59 the day before yesterday in New York and 08:59 today in Tokyo.
    [NY, NOW, '2024-05-14 00:00:00'],
    [TOKYO, NOW, '2024-05-15 00:00:00'],
    [NY, new Date('2024-05-15T02:00:00Z'), '2024-05-14 00:00:00'],
    [{ timezone: 'UTC' }, NOW, '2024-05-14 00:00:00'],
  ])(
    'starts the default window at yesterday or today depending on the site zone (%o)',
    (site, now, start) => {
      expect(filterOf({}, site, now).filter.startGte).toBe(start);
    },
  );

  it('ends the default window 24 months ahead at 23:59:59', () => {
    expect(filterOf({}).filter.endLte).toBe('2026-05-15 23:59:59');
  });

  it("ends the default window as PHP's strtotime('+24 months') does, on 1 March from a 29 February", () => {
    expect(filterOf({}, NY, new Date('2028-02-29T10:00:00Z')).filter.endLte).toBe('2030-03-01 23:59:59');
  });

  it('keeps the default start time in strict mode, moved to the site zone', () => {
    expect(filterOf({ strict_dates: true }).filter.startGte).toBe('2024-05-14 19:59:00');
  });

  it.each([
    ['start_date', '2024-05-10 15:00', { startGte: '2024-05-10 00:00:00' }],
    ['end_date', '2024-05-10 15:00', { endLte: '2024-05-10 23:59:59' }],
    ['starts_before', '2024-05-10', { startLt: '2024-05-10 23:59:59' }],
    ['starts_after', '2024-05-10', { startGt: '2024-05-10 23:59:59' }],
    ['ends_before', '2024-05-10', { endLt: '2024-05-10 23:59:59' }],
    ['ends_after', '2024-05-10', { endGt: '2024-05-10 23:59:59' }],
    ['end_date', '1715385600', { endLte: '2024-05-11 23:59:59' }],
    ['start_date', '2024-05-10T23:00:00-05:00', { startGte: '2024-05-11 00:00:00' }],
  ])('widens %s=%s to whole days in inclusive mode', (param, value, expected) => {
    expect(filterOf({ [param]: value }).filter).toMatchObject(expected);
  });

  it.each([
    ['start_date', '2024-05-10 15:00', { startGte: '2024-05-10 11:00:00' }],
    ['ends_after', '2024-05-10T15:00:00+02:00', { endGt: '2024-05-10 09:00:00' }],
    ['end_date', '1715385600', { endLte: '2024-05-10 20:00:00' }],
  ])('converts %s=%s to the site zone keeping the instant in strict mode', (param, value, expected) => {
    expect(filterOf({ [param]: value, strict_dates: true }).filter).toMatchObject(expected);
  });

  it.each([
    ['starts_after', 'first monday of july 2031', { startGt: '2031-07-07 23:59:59' }],
    // NOW is a Wednesday: PHP's "next wednesday" is a week later, not today.
    ['ends_before', 'next wednesday', { endLt: '2024-05-22 23:59:59' }],
  ])("reads %s=%s with PHP's relative formats", (param, value, expected) => {
    expect(filterOf({ [param]: value }).filter).toMatchObject(expected);
  });

  it('drops the default window when a relative bound is sent', () => {
    const { filter, echo } = filterOf({ starts_after: '2024-05-10' });
    expect(filter).toEqual({ startGt: '2024-05-10 23:59:59' });
    expect(echo).toEqual({ starts_after: '2024-05-10 23:59:59' });
  });

  it('echoes a relative bound widened to the end of its day, as TEC does (contract §4)', () => {
    expect(filterOf({ starts_before: '2027-01-07 09:00' }).echo).toEqual({
      starts_before: '2027-01-07 23:59:59',
    });
  });

  it('keeps an explicit start_date next to a relative bound', () => {
    const { filter } = filterOf({ start_date: '2024-05-01', ends_before: '2024-06-01' });
    expect(filter).toEqual({ startGte: '2024-05-01 00:00:00', endLt: '2024-06-01 23:59:59' });
  });

  it('applies no default window when include is present', () => {
    expect(filterOf({ include: [1, 2] }).filter).toEqual({});
  });

  it('echoes the effective start_date and end_date', () => {
    expect(filterOf({ start_date: '2024-05-10' }).echo).toEqual({
      start_date: '2024-05-10 00:00:00',
      end_date: '2026-05-15 23:59:59',
    });
  });

  it('answers 400 naming every unparseable parameter', () => {
    const result = resolveListDates({ start_date: 'soon', ends_after: '', end_date: '2024-05-10' }, NY, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.status).toBe(400);
    expect(result.error.code).toBe('rest_invalid_param');
    expect(result.error.data.params).toEqual({
      start_date: expect.stringMatching(/^start_date must be a date or time PHP's strtotime understands/),
      ends_after: expect.stringMatching(/^ends_after must be a date/),
    });
  });

  const day = fc
    .date({ min: new Date('1971-01-01Z'), max: new Date('2099-12-31Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  const zone = fc.constantFrom('UTC', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', 'UTC-5:30');

  it('always covers the whole given day in inclusive mode', () => {
    fc.assert(
      fc.property(day, zone, (d, timezone) => {
        const { filter } = filterOf({ start_date: d, end_date: d }, { timezone });
        expect(filter.startGte).toBe(`${d} 00:00:00`);
        expect(filter.endLte).toBe(`${d} 23:59:59`);
      }),
    );
  });

  it('keeps the order of two instants in strict mode', () => {
    const instant = fc.date({
      min: new Date('1971-01-01Z'),
      max: new Date('2099-12-31Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, instant, zone, (a, b, timezone) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        const { filter } = filterOf(
          { start_date: early.toISOString(), end_date: late.toISOString(), strict_dates: true },
          { timezone },
        );
        expect(filter.startGte! <= filter.endLte!).toBe(true);
      }),
    );
  });
});
