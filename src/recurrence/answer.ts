// The recurrence fields of an event answer (RECURRENCE.md, "API"), worked out from a post's rule and series links.
import { parseRecurrence, ruleObject, type SeriesStart } from './rule.ts';
import { describeRule } from './text.ts';

export interface RecurrenceFields {
  is_recurring: boolean;
  series_id: number | null;
  original_start_utc: string | null;
  recurrence: { rrule: string; rdate: string[]; exdate: string[]; text: string } | null;
}

export const ONE_OFF: RecurrenceFields = {
  is_recurring: false,
  series_id: null,
  original_start_utc: null,
  recurrence: null,
};

/** What a post's mapped values hold about recurrence (the mapping's fields, absent on a site without them). */
export interface RecurrenceValues {
  recurrence?: unknown;
  series_parent?: unknown;
  recurrence_id?: unknown;
}

/** Reading a stored rule takes it as it is: the write path enforced RECURRENCE_MAX_COUNT when it was stored. */
const READ_LIMITS = { maxCount: Number.MAX_SAFE_INTEGER };

/** The answer's `recurrence` of a series' stored rule, or null when the text holds no rule it can read. */
export function ruleAnswer(text: unknown, start: SeriesStart): RecurrenceFields['recurrence'] {
  if (typeof text !== 'string' || !text.trim()) return null;
  const parsed = parseRecurrence(text, start, READ_LIMITS);
  if (!parsed.ok) return null;
  return { ...ruleObject(parsed.rule), text: describeRule(parsed.rule, start) };
}

/** A series as an override's answer needs it: its stored rule, read for its own start. */
export interface SeriesRule {
  text: unknown;
  start: SeriesStart;
}

/**
 * The fields of a post read as itself: a series post is its first occurrence (`series_id` its own id); an override
 * names its series, the original start it replaces and its series' rule (`series`, null when the caller may not
 * read the series), as an occurrence does; anything else is a one-off.
 */
export function recurrenceFieldsOf(
  id: number,
  values: RecurrenceValues,
  start: SeriesStart,
  utcStart: string,
  series?: SeriesRule,
): RecurrenceFields {
  const recurrence = ruleAnswer(values.recurrence, start);
  if (recurrence) return { is_recurring: true, series_id: id, original_start_utc: utcStart, recurrence };
  const parent = Number(values.series_parent);
  const original = typeof values.recurrence_id === 'string' ? values.recurrence_id : '';
  if (Number.isInteger(parent) && parent > 0 && original) {
    const recurrence = series ? ruleAnswer(series.text, series.start) : null;
    return { is_recurring: true, series_id: parent, original_start_utc: original, recurrence };
  }
  return ONE_OFF;
}
