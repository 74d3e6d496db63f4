// The writers' view of a series' occurrences is the Expander's: the same occurrences as lists, reads and the feed.
import { describe, expect, it } from 'vitest';
import { Expander, readRuleText } from './expand.ts';
import { occurrencesBetween, occursAt, ruleCountBefore } from './occurs.ts';
import { canonicalText, parseRecurrence, type Rule } from './rule.ts';

const NY = { start: '2036-03-02 02:30:00', timezone: 'America/New_York', allDay: false };
const rule = (input: unknown): Rule => {
  const r = parseRecurrence(input, NY, { maxCount: 1000 });
  if (!r.ok) throw new Error(r.reason);
  return r.rule;
};
const utc = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);

describe('occurrences as a write sees them', () => {
  it('finds an occurrence whose local time the spring-forward skips, moved forward by the gap (RFC 5545 §3.3.5)', () => {
    const r = rule({ rrule: 'FREQ=WEEKLY;COUNT=4', exdate: ['20360323T023000'] });
    // 9 March 2036: 02:30 does not exist in New York; it is 03:30 EDT, 07:30Z.
    expect(occursAt(r, NY, utc('2036-03-09 07:30:00'))).toBe(true);
    expect(occursAt(r, NY, utc('2036-03-23 06:30:00'))).toBe(false);
    // 2, 9 and 16 March come before the 23rd; the excluded 23rd still counts towards COUNT for the 30th.
    expect(ruleCountBefore(r, NY, utc('2036-03-16 06:30:00'))).toBe(2);
    expect(ruleCountBefore(r, NY, utc('2036-03-23 06:30:00'))).toBe(3);
    expect(ruleCountBefore(r, NY, utc('2036-03-30 06:30:00'))).toBe(4);
  });

  it('lists what the Expander lists, for the same stored rule', () => {
    const r = rule({
      rrule: 'FREQ=MONTHLY;BYDAY=2SU;COUNT=12',
      rdate: ['20360704T120000'],
      exdate: ['20360511T023000'],
    });
    const e = Expander.of(readRuleText(canonicalText(r))!, NY)!;
    const from = utc('2036-01-01 00:00:00');
    const to = utc('2038-01-01 00:00:00');
    const got = occurrencesBetween(r, NY, from, to);
    expect(got).toEqual(e.between(from, to).map((o) => o.ms));
    expect(got).toHaveLength(12);
  });
});
