// A series' rule cut in two at an occurrence ("this and following"), and a rule's dates moved with its start.
import { DateTime } from 'luxon';
import { instantOf, ruleCountBefore } from './occurs.ts';
import type { Rule, SeriesStart } from './rule.ts';
import { untilBefore, wallOf } from './rule-dates.ts';

/** The instant (ms) of a stored RDATE/EXDATE value of a series. */
export const msOfValue = (v: string, s: SeriesStart): number => instantOf(wallOf(v), s);

/** The rule of a series that ends just before its occurrence at `ms`: UNTIL (or COUNT) cut, later dates dropped. */
export function endBefore(rule: Rule, s: SeriesStart, ms: number): Rule {
  const { count: _c, until: _u, ...rest } = rule;
  const ends =
    rule.count !== undefined
      ? { count: Math.max(1, ruleCountBefore(rule, s, ms)) }
      : { until: untilBefore(ms, s) };
  return {
    ...rest,
    ...ends,
    rdate: rule.rdate.filter((v) => msOfValue(v, s) < ms),
    exdate: rule.exdate.filter((v) => msOfValue(v, s) < ms),
  };
}

/** A stored RDATE/EXDATE value moved by a wall-clock shift (ms), in its own form (date or local time). */
export function shiftValue(v: string, shiftMs: number): string {
  const moved = wallOf(v).plus({ milliseconds: shiftMs });
  return v.length === 8 ? moved.toFormat('yyyyMMdd') : moved.toFormat("yyyyMMdd'T'HHmmss");
}

/** A rule's RDATEs and EXDATEs moved by a wall-clock shift, as a series whose start moves takes them along. */
export const shiftDates = (rule: Rule, shiftMs: number): Rule =>
  shiftMs === 0
    ? rule
    : {
        ...rule,
        rdate: [...new Set(rule.rdate.map((v) => shiftValue(v, shiftMs)))].sort(),
        exdate: [...new Set(rule.exdate.map((v) => shiftValue(v, shiftMs)))].sort(),
      };

/**
 * The rule of the series that continues a series from its occurrence at `ms`: the same rule with what is left of its
 * COUNT, its later RDATEs and EXDATEs, and its dates moved by `shiftMs` when the new series starts at another time.
 */
export function continueFrom(rule: Rule, s: SeriesStart, ms: number, shiftMs: number): Rule {
  const later = (v: string) => msOfValue(v, s) >= ms;
  const next: Rule = {
    ...rule,
    rdate: rule.rdate.filter(later),
    exdate: rule.exdate.filter(later),
  };
  if (rule.count !== undefined) next.count = Math.max(1, rule.count - ruleCountBefore(rule, s, ms));
  return shiftDates(next, shiftMs);
}

/** The instant of an occurrence of a series once its wall clock is moved by `shiftMs`, read in `to`'s zone. */
export function shiftedMs(ms: number, from: SeriesStart, to: SeriesStart, shiftMs: number): number {
  const wall = DateTime.fromMillis(ms, { zone: from.timezone })
    .setZone('UTC', { keepLocalTime: true })
    .plus({ milliseconds: shiftMs });
  return instantOf(wall, to);
}
