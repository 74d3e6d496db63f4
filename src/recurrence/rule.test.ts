import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalText, FREQS, parseRecurrence, type Rule, ruleObject, WEEKDAYS } from './rule.ts';
import { describeRule } from './text.ts';

const NY = { start: '2026-01-06 19:00:00', timezone: 'America/New_York', allDay: false };
const ALLDAY = { start: '2026-07-04 00:00:00', timezone: 'Europe/Paris', allDay: true };
const limits = { maxCount: 1000 };

const parse = (input: unknown, start = NY) => parseRecurrence(input, start, limits);
const text = (input: unknown, start = NY) => {
  const r = parse(input, start);
  if (!r.ok) throw new Error(r.reason);
  return canonicalText(r.rule);
};
const reason = (input: unknown, start = NY) => {
  const r = parse(input, start);
  return r.ok ? `accepted as ${canonicalText(r.rule)}` : r.reason;
};

describe('the canonical rule text', () => {
  it.each([
    [
      'RRULE:FREQ=WEEKLY;BYDAY=TH,TU;UNTIL=20270630T235959Z',
      'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T235959Z',
    ],
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO'],
    ['freq=weekly;interval=1;byday=tu', 'RRULE:FREQ=WEEKLY;BYDAY=TU'],
    ['FREQ=MONTHLY;BYDAY=+1TH', 'RRULE:FREQ=MONTHLY;BYDAY=1TH'],
    ['FREQ=MONTHLY;BYDAY=1FR,-1FR,FR', 'RRULE:FREQ=MONTHLY;BYDAY=FR,-1FR,1FR'],
    ['FREQ=YEARLY;BYDAY=4TH;BYMONTH=11', 'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH'],
    ['FREQ=MONTHLY;BYSETPOS=-1,1;BYDAY=SU,MO', 'RRULE:FREQ=MONTHLY;BYDAY=MO,SU;BYSETPOS=-1,1'],
    ['FREQ=MONTHLY;BYMONTHDAY=15,1,-1,15', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1,1,15'],
    ['FREQ=DAILY;COUNT=10', 'RRULE:FREQ=DAILY;COUNT=10'],
    ['FREQ=WEEKLY;WKST=MO', 'RRULE:FREQ=WEEKLY'],
    [
      'FREQ=WEEKLY;WKST=SU;UNTIL=20270101T000000Z;BYDAY=TU',
      'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270101T000000Z;WKST=SU',
    ],
    // An UNTIL as a date ends that local day; as a local time, that wall clock in New York (UTC-4 in June).
    ['FREQ=WEEKLY;UNTIL=20270630', 'RRULE:FREQ=WEEKLY;UNTIL=20270701T035959Z'],
    ['FREQ=WEEKLY;UNTIL=2027-06-30T19:00:00', 'RRULE:FREQ=WEEKLY;UNTIL=20270630T230000Z'],
    [
      'RRULE:FREQ=WEEKLY\nEXDATE:20261229T190000,20261222T190000\nRDATE:20270105T190000',
      'RRULE:FREQ=WEEKLY\nRDATE:20270105T190000\nEXDATE:20261222T190000,20261229T190000',
    ],
    [
      { rrule: 'RRULE:FREQ=WEEKLY', rdate: ['2027-01-05'], exdate: '20261224T190000, 2026-12-24 19:00' },
      'RRULE:FREQ=WEEKLY\nRDATE:20270105T190000\nEXDATE:20261224T190000',
    ],
    // A UTC RDATE is read in the series' zone: 00:00Z on 6 Jan is 19:00 on 5 Jan in New York.
    [{ rrule: 'FREQ=DAILY', rdate: ['20270106T000000Z'] }, 'RRULE:FREQ=DAILY\nRDATE:20270105T190000'],
    // The `text` a reader was given can be sent back as it is.
    [{ rrule: 'FREQ=DAILY', rdate: [], exdate: [], text: 'Every day' }, 'RRULE:FREQ=DAILY'],
  ])('%j is stored as %j', (input, stored) => {
    expect(text(input)).toBe(stored);
  });

  it('stores an all-day series with dates only', () => {
    expect(
      text(
        { rrule: 'FREQ=YEARLY;UNTIL=20300704T120000Z', rdate: ['2027-07-05'], exdate: ['20280704'] },
        ALLDAY,
      ),
    ).toBe('RRULE:FREQ=YEARLY;UNTIL=20300704\nRDATE:20270705\nEXDATE:20280704');
  });

  it('gives the API object without the RRULE: prefix', () => {
    const r = parse('RRULE:FREQ=WEEKLY;BYDAY=TU\nEXDATE:20261229T190000');
    expect(r.ok && ruleObject(r.rule)).toEqual({
      rrule: 'FREQ=WEEKLY;BYDAY=TU',
      rdate: [],
      exdate: ['20261229T190000'],
    });
  });
});

describe('a rule that cannot be stored is refused with the reason', () => {
  it.each([
    ['FREQ=HOURLY', /FREQ=HOURLY is not supported/],
    ['FREQ=MINUTELY;COUNT=3', /FREQ=MINUTELY is not supported/],
    ['FREQ=FORTNIGHTLY', /not one of DAILY, WEEKLY, MONTHLY, YEARLY/],
    ['FREQ=WEEKLY;INTERVAL=0', /INTERVAL must be a whole number of 1 or more/],
    ['FREQ=WEEKLY;INTERVAL=-2', /INTERVAL must be a whole number of 1 or more/],
    ['FREQ=WEEKLY;INTERVAL=two', /INTERVAL/],
    ['FREQ=WEEKLY;COUNT=1001', /COUNT 1001 is over the maximum of 1000 \(RECURRENCE_MAX_COUNT\)/],
    ['FREQ=WEEKLY;COUNT=0', /COUNT must be a whole number of 1 or more/],
    ['FREQ=WEEKLY;UNTIL=20260106T235959Z', /UNTIL 20260106T235959Z is before the series' start/],
    ['FREQ=WEEKLY;UNTIL=20260105', /before the series' start/],
    ['FREQ=WEEKLY;UNTIL=2027', /UNTIL 2027 is not a date/],
    ['FREQ=WEEKLY;COUNT=3;UNTIL=20270101T000000Z', /COUNT and UNTIL cannot both be given/],
    ['garbage', /not an RRULE, RDATE or EXDATE line/],
    ['RRULE:', /the RRULE is empty/],
    ['RRULE:INTERVAL=2', /has no FREQ/],
    ['FREQ=WEEKLY;BYDAY=XX', /BYDAY value XX is not a weekday/],
    ['FREQ=WEEKLY;BYDAY=1TH', /numeric value MUST NOT be used unless FREQ is MONTHLY or YEARLY/],
    ['FREQ=MONTHLY;BYDAY=6TH', /BYDAY value 6TH is out of range/],
    ['FREQ=MONTHLY;BYMONTHDAY=32', /BYMONTHDAY value 32 is out of range/],
    ['FREQ=YEARLY;BYMONTH=13', /BYMONTH value 13 is out of range/],
    ['FREQ=MONTHLY;BYSETPOS=1', /BYSETPOS needs BYDAY/],
    ['FREQ=WEEKLY;BYHOUR=9', /BYHOUR is not supported/],
    ['FREQ=WEEKLY;COLOR=red', /COLOR is not an RFC 5545 rule part/],
    ['FREQ=WEEKLY;FREQ=DAILY', /FREQ is given twice/],
    ['FREQ=WEEKLY;BYDAY', /is not NAME=VALUE/],
    ['RRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY', /only one RRULE/],
    ['RDATE;TZID=Europe/Paris:20270101T100000\nRRULE:FREQ=DAILY', /takes no parameters/],
    ['RDATE:20270101T100000', /has no RRULE/],
    [
      { rrule: 'FREQ=DAILY', exdate: ['20270230T190000'] },
      /EXDATE value 20270230T190000 is not a date and time/,
    ],
    [{ rrule: 'FREQ=DAILY', rdate: ['soon'] }, /RDATE value soon is not a date and time/],
    [{ rrule: 'FREQ=DAILY', rdate: [5] }, /rdate must be a list of dates/],
    [{ rrule: 'FREQ=DAILY', until: '2027' }, /unknown keys: until/],
    [{ rdate: [] }, /recurrence.rrule must be a string/],
    [42, /must be an object \{rrule, rdate, exdate\} or the rule text/],
    [['FREQ=DAILY'], /must be an object/],
  ])('%j: %s', (input, why) => {
    expect(reason(input)).toMatch(why);
  });

  it('refuses a time of day in an all-day series', () => {
    expect(reason({ rrule: 'FREQ=DAILY', rdate: ['20270101T100000'] }, ALLDAY)).toMatch(
      /not a date \(YYYYMMDD\)/,
    );
  });

  it('counts RDATE and EXDATE values against RECURRENCE_MAX_COUNT', () => {
    const exdate = Array.from({ length: 4 }, (_, i) => `2027010${i + 1}T190000`);
    expect(parseRecurrence({ rrule: 'FREQ=DAILY', exdate }, NY, { maxCount: 3 })).toEqual({
      ok: false,
      reason: 'EXDATE has 4 dates, over the maximum of 3 (RECURRENCE_MAX_COUNT)',
    });
  });
});

describe('the rule in words', () => {
  it.each([
    ['FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T235959Z', 'Every Tuesday and Thursday until 30 June 2027'],
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO', 'Every 2 weeks on Monday'],
    ['FREQ=MONTHLY;BYDAY=1TH', 'Monthly on the first Thursday'],
    ['FREQ=MONTHLY;BYDAY=TH;BYSETPOS=1', 'Monthly on the first Thursday'],
    ['FREQ=MONTHLY;BYDAY=-1FR', 'Monthly on the last Friday'],
    ['FREQ=DAILY;COUNT=10', 'Every day, 10 times'],
    ['FREQ=DAILY;INTERVAL=3;COUNT=1', 'Every 3 days, once'],
    ['FREQ=WEEKLY', 'Every Tuesday'],
    ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', 'Every weekday'],
    ['FREQ=MONTHLY', 'Monthly on the 6th'],
    ['FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,15', 'Every 3 months on the 1st and 15th'],
    ['FREQ=MONTHLY;BYMONTHDAY=-1', 'Monthly on the last day'],
    ['FREQ=YEARLY', 'Yearly on 6 January'],
    ['FREQ=YEARLY;BYMONTH=11;BYDAY=4TH', 'Yearly on the fourth Thursday of November'],
    ['RRULE:FREQ=WEEKLY\nEXDATE:20261229T190000', 'Every Tuesday, except 29 December 2026'],
    ['RRULE:FREQ=WEEKLY\nRDATE:20270108T190000', 'Every Tuesday, also on 8 January 2027'],
  ])('%j reads "%s"', (input, words) => {
    const r = parse(input);
    expect(r.ok && describeRule(r.rule, NY)).toBe(words);
  });

  it('says an UNTIL as the local date it ends on, not the UTC one', () => {
    // 03:59:59Z on 1 July is 23:59:59 on 30 June in New York.
    const r = parse('FREQ=DAILY;UNTIL=20270701T035959Z');
    expect(r.ok && describeRule(r.rule, NY)).toBe('Every day until 30 June 2027');
  });
});

/** Any rule we can store, built from its parts (the UNTIL a UTC time after NY's start). */
const ruleArb: fc.Arbitrary<Rule> = fc
  .record({
    freq: fc.constantFrom(...FREQS),
    interval: fc.integer({ min: 1, max: 52 }),
    byMonth: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 3 }),
    monthDays: fc.uniqueArray(
      fc.integer({ min: -31, max: 31 }).filter((n) => n !== 0),
      { maxLength: 3 },
    ),
    days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { maxLength: 7 }),
    ordinal: fc.option(fc.integer({ min: -5, max: 5 }).filter((n) => n !== 0)),
    bySetPos: fc.uniqueArray(
      fc.integer({ min: -5, max: 5 }).filter((n) => n !== 0),
      { maxLength: 2 },
    ),
    end: fc.oneof(
      fc.constant({}),
      fc.integer({ min: 1, max: 1000 }).map((count) => ({ count })),
      fc
        .date({
          min: new Date('2026-01-07T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => ({ until: `${d.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z` })),
    ),
    wkst: fc.option(fc.constantFrom(...WEEKDAYS.slice(1))),
    rdate: fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 4 }),
    exdate: fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 4 }),
  })
  .map((x) => {
    const ordinal =
      x.ordinal !== null && (x.freq === 'MONTHLY' || x.freq === 'YEARLY') ? x.ordinal : undefined;
    const byDay = [...x.days]
      .sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b))
      .map((d) => `${ordinal ?? ''}${d}`);
    // RFC 5545: no BYMONTHDAY in a weekly rule.
    const byMonthDay = x.freq === 'WEEKLY' ? [] : x.monthDays;
    const wall = (n: number) =>
      new Date(Date.UTC(2026, 0, 6, 19) + n * 86_400_000).toISOString().replace(/[-:]/g, '').slice(0, 15);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    return {
      freq: x.freq,
      interval: x.interval,
      byMonth: sorted(x.byMonth),
      byMonthDay: sorted(byMonthDay),
      byDay,
      bySetPos: byDay.length || byMonthDay.length || x.byMonth.length ? sorted(x.bySetPos) : [],
      ...x.end,
      ...(x.wkst !== null ? { wkst: x.wkst } : {}),
      rdate: x.rdate.map(wall).sort(),
      exdate: x.exdate.map(wall).sort(),
    };
  });

describe('properties', () => {
  it('reads back every stored rule as the same rule: parse(canonical(r)) equals r', () => {
    fc.assert(
      fc.property(ruleArb, (rule) => {
        const back = parse(canonicalText(rule));
        expect(back).toEqual({ ok: true, rule });
      }),
    );
  });

  it('stores a rule the same whichever way it was written: canonicalizing is idempotent', () => {
    fc.assert(
      fc.property(ruleArb, fc.boolean(), fc.boolean(), fc.integer(), (rule, lower, object, seed) => {
        // The same rule as a caller may send it: parts shuffled, lowercase, as an object, lists unsorted.
        const obj = ruleObject(rule);
        const parts = obj.rrule.split(';');
        const shuffled = parts.map((p, i) => [(seed * (i + 7)) % 13, p] as const).sort((a, b) => a[0] - b[0]);
        const rrule = shuffled.map(([, p]) => (lower ? p.toLowerCase() : p)).join(';');
        const input = object
          ? { rrule, rdate: [...obj.rdate].reverse(), exdate: [...obj.exdate].reverse() }
          : [`RRULE:${rrule}`, ...(obj.exdate.length ? [`EXDATE:${obj.exdate.join(',')}`] : [])]
              .concat(obj.rdate.length ? [`RDATE:${obj.rdate.reverse().join(',')}`] : [])
              .join('\n');
        const once = text(input);
        expect(once).toBe(canonicalText(rule));
        expect(text(once)).toBe(once);
      }),
    );
  });

  it('says every stored rule in words without failing', () => {
    fc.assert(
      fc.property(ruleArb, (rule) => {
        expect(describeRule(rule, NY)).toMatch(/^(Every|Monthly|Yearly) [^\n]+$/);
      }),
    );
  });
});
