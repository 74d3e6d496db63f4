// A series' occurrences in a window as lists, reads and the feed's test see them: the rule's, EXDATEs removed, each
// replaced by its override where the caller may see one (an override may move its occurrence in or out of the window).
import type { Expander, OccurrenceStart } from './expand.ts';
import { occurrenceId } from './ids.ts';

/** An override as the occurrence model needs it: its post, the original start it replaces and its own times. */
export interface OverrideTimes {
  postId: number;
  /** The original start it replaces, ms since the epoch (UTC). */
  originalStartMs: number;
  startMs: number;
  endMs: number;
  /** `event_status: canceled`: it stays, shown as cancelled. */
  canceled: boolean;
}

export interface Occurrence {
  /** The occurrence id (src/recurrence/ids.ts); undefined outside the id scheme's limits. */
  id: number | undefined;
  seriesId: number;
  originalStartMs: number;
  startMs: number;
  endMs: number;
  /** The override post that replaces it, when there is one the caller may see. */
  overrideId?: number;
  canceled: boolean;
}

/** The most occurrences one series gives one query (a daily series over 24 months has 731). */
export const MAX_PER_SERIES = 5_000;

/**
 * The occurrences of a series that overlap [fromMs, toMs] (start ≤ toMs and end ≥ fromMs), by start then original
 * start. `overrides` are those the caller may see: an override the caller may not read (a draft, for the public)
 * leaves the series' occurrence as it was. An override whose original start the rule no longer generates (an
 * EXDATE added later, a rule changed) is left out: it replaces nothing.
 */
export function occurrencesOf(
  seriesId: number,
  expander: Expander,
  durationMs: number,
  overrides: readonly OverrideTimes[],
  fromMs: number,
  toMs: number,
  limit = MAX_PER_SERIES,
): Occurrence[] {
  const byOriginal = new Map<number, OverrideTimes>();
  for (const o of overrides) byOriginal.set(o.originalStartMs, o);
  const out: Occurrence[] = [];
  const span = Math.max(0, durationMs);
  for (const s of expander.between(fromMs - span, toMs, limit)) {
    if (byOriginal.has(s.ms)) continue;
    out.push(plain(seriesId, s, span));
  }
  for (const o of byOriginal.values()) {
    if (o.startMs > toMs || Math.max(o.endMs, o.startMs) < fromMs) continue;
    // The original must still be an occurrence of the rule (looked up where it was, not where the override moved).
    if (!expander.between(o.originalStartMs, o.originalStartMs, 1).length) continue;
    out.push({
      id: occurrenceId({ seriesId, originalStartMs: o.originalStartMs }),
      seriesId,
      originalStartMs: o.originalStartMs,
      startMs: o.startMs,
      endMs: o.endMs,
      overrideId: o.postId,
      canceled: o.canceled,
    });
  }
  return out.sort((a, b) => a.startMs - b.startMs || a.originalStartMs - b.originalStartMs).slice(0, limit);
}

const plain = (seriesId: number, s: OccurrenceStart, span: number): Occurrence => ({
  id: occurrenceId({ seriesId, originalStartMs: s.ms }),
  seriesId,
  originalStartMs: s.ms,
  startMs: s.ms,
  endMs: s.ms + span,
  canceled: false,
});
