// The panel's rule code (recurrence.js, run as the browser runs it) beside the gateway's (src/recurrence/rule.ts,
// text.ts): for the same rule, the same stored bytes and the same words.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalText, parseRecurrence, type SeriesStart } from '../../../src/recurrence/rule.ts';
import { describeRule } from '../../../src/recurrence/text.ts';

interface Model {
  freq: string;
  interval?: number;
  days?: string[];
  monthly?: 'date' | 'nth' | 'last';
  ends?: 'never' | 'on' | 'after';
  until?: string;
  count?: number;
  exdates?: string[];
}
interface Panel {
  shiftExdates(exdates: string[], fromDate: string, toDate: string): string[];
  ruleOf(model: Model, start: SeriesStart): unknown;
  modelOf(rule: unknown, start: SeriesStart): Model | null;
  parseText(text: string): unknown;
  canonicalText(rule: unknown): string;
  describe(rule: unknown, start: SeriesStart): string;
}

const window: { calendarGatewayRecurrence?: Panel } = {};
new Function('window', readFileSync(new URL('./recurrence.js', import.meta.url), 'utf8'))(window);
const panel = window.calendarGatewayRecurrence!;

const NY: SeriesStart = { start: '2026-10-06 19:00:00', timezone: 'America/New_York', allDay: false };
const KOLKATA: SeriesStart = { start: '2027-01-28 09:30:00', timezone: 'Asia/Kolkata', allDay: false };
const HOWE: SeriesStart = { start: '2026-09-30 18:00:00', timezone: 'Australia/Lord_Howe', allDay: false };
const ALL_DAY: SeriesStart = { start: '2026-12-31 00:00:00', timezone: 'Europe/Paris', allDay: true };

/** What an editor chooses in the panel, and the same rule as the API would be sent it (UNTIL as a date). */
const CASES: [string, SeriesStart, Model, { rrule: string; exdate?: string[] }][] = [
  ['daily', NY, { freq: 'DAILY' }, { rrule: 'FREQ=DAILY' }],
  [
    'every 3 days, 10 times',
    KOLKATA,
    { freq: 'DAILY', interval: 3, ends: 'after', count: 10 },
    { rrule: 'FREQ=DAILY;INTERVAL=3;COUNT=10' },
  ],
  ['once', NY, { freq: 'DAILY', ends: 'after', count: 1 }, { rrule: 'FREQ=DAILY;COUNT=1' }],
  [
    'weekly on Tuesday and Thursday until a date, one excluded (New York, across the November DST change)',
    NY,
    { freq: 'WEEKLY', days: ['TH', 'TU'], ends: 'on', until: '2027-06-30', exdates: ['2026-12-24'] },
    { rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630', exdate: ['20261224T190000'] },
  ],
  [
    'every 2 weeks on weekdays, many excluded',
    HOWE,
    {
      freq: 'WEEKLY',
      interval: 2,
      days: ['FR', 'MO', 'TU', 'WE', 'TH'],
      exdates: ['2026-10-05', '2026-10-02', '2026-10-16', '2026-10-14'],
    },
    {
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR',
      exdate: ['20261002T180000', '20261005T180000', '20261014T180000', '20261016T180000'],
    },
  ],
  [
    'weekly on the weekend',
    ALL_DAY,
    { freq: 'WEEKLY', days: ['SU', 'SA'] },
    { rrule: 'FREQ=WEEKLY;BYDAY=SA,SU' },
  ],
  ['monthly on the same date', KOLKATA, { freq: 'MONTHLY', monthly: 'date' }, { rrule: 'FREQ=MONTHLY' }],
  [
    'monthly on the 4th Thursday',
    KOLKATA,
    { freq: 'MONTHLY', monthly: 'nth' },
    { rrule: 'FREQ=MONTHLY;BYDAY=4TH' },
  ],
  [
    'every 2 months on the last Thursday',
    KOLKATA,
    { freq: 'MONTHLY', interval: 2, monthly: 'last', ends: 'on', until: '2027-12-31' },
    { rrule: 'FREQ=MONTHLY;INTERVAL=2;BYDAY=-1TH;UNTIL=20271231' },
  ],
  [
    'monthly on the first Tuesday',
    NY,
    { freq: 'MONTHLY', monthly: 'nth', exdates: ['2027-01-05'] },
    { rrule: 'FREQ=MONTHLY;BYDAY=1TU', exdate: ['20270105T190000'] },
  ],
  [
    'yearly, all day, until a date, excluded',
    ALL_DAY,
    { freq: 'YEARLY', ends: 'on', until: '2035-01-01', exdates: ['2030-12-31'] },
    { rrule: 'FREQ=YEARLY;UNTIL=20350101', exdate: ['20301231'] },
  ],
  [
    'every 4 years (Lord Howe)',
    HOWE,
    { freq: 'YEARLY', interval: 4, ends: 'after', count: 3 },
    { rrule: 'FREQ=YEARLY;INTERVAL=4;COUNT=3' },
  ],
];

describe("the panel's rule code agrees with the gateway's", () => {
  it.each(CASES)(
    '%s: the same stored text and words, and the panel reads its text back',
    (_, start, model, api) => {
      const gateway = parseRecurrence(api, start, { maxCount: 1000 });
      if (!gateway.ok) throw new Error(gateway.reason);
      const rule = panel.ruleOf(model, start);
      const text = panel.canonicalText(rule);
      expect(text).toBe(canonicalText(gateway.rule));
      expect(panel.describe(rule, start)).toBe(describeRule(gateway.rule, start));
      // Stored, reloaded, shown again: the panel shows the same choices and would store the same bytes.
      const again = panel.modelOf(panel.parseText(text), start);
      expect(again).not.toBeNull();
      expect(panel.canonicalText(panel.ruleOf(again!, start))).toBe(text);
    },
  );

  it.each([
    ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', NY],
    ['FREQ=YEARLY;BYMONTH=3,11;BYDAY=-1SU;WKST=SU', HOWE],
    ['FREQ=MONTHLY;BYMONTHDAY=1,15,-1;COUNT=12', KOLKATA],
    ['FREQ=DAILY;INTERVAL=2;BYDAY=SA,SU;BYMONTH=7,8', ALL_DAY],
    ['FREQ=YEARLY;BYMONTHDAY=-2;BYMONTH=2', ALL_DAY],
  ] as const)(
    'a rule set through the API (%s) has the same words; the panel leaves it as it is',
    (rrule, start) => {
      const gateway = parseRecurrence(
        { rrule, rdate: start.allDay ? ['20270704'] : ['20270704T120000'] },
        start,
        { maxCount: 1000 },
      );
      if (!gateway.ok) throw new Error(gateway.reason);
      const text = canonicalText(gateway.rule);
      const rule = panel.parseText(text);
      expect(panel.canonicalText(rule)).toBe(text);
      expect(panel.describe(rule, start)).toBe(describeRule(gateway.rule, start));
      expect(panel.modelOf(rule, start)).toBeNull();
    },
  );
});

describe('moving a series’ start in the panel', () => {
  it('moves its excluded dates by the same number of days, so they name the same occurrences', () => {
    const moved = panel.shiftExdates(['2026-10-13', '2026-12-29'], '2026-10-06', '2026-10-07');
    expect(moved).toEqual(['2026-10-14', '2026-12-30']);
    // Weekly on the start's weekday: the moved EXDATEs are occurrences of the moved series, as the gateway reads them.
    const wed = { ...NY, start: '2026-10-07 19:00:00' };
    const rule = panel.ruleOf({ freq: 'WEEKLY', ends: 'never', exdates: moved }, wed);
    expect(panel.canonicalText(rule)).toBe('RRULE:FREQ=WEEKLY\nEXDATE:20261014T190000,20261230T190000');
    expect(panel.shiftExdates(moved, '2026-10-07', '2026-10-07')).toBe(moved);
    expect(panel.shiftExdates(['2026-03-28'], '2026-03-01', '2026-04-01')).toEqual(['2026-04-28']);
  });
});
