// Occurrence ids: one integer per (series post id, original start), stable, above every WordPress post id.
//
// id = 2^52 + seriesId × 2^26 + minutes from 2000-01-01T00:00Z to the original start (UTC).
// Limits: a series post id below 2^26 (67 108 864); an original start from 2000-01-01 to 2127-08-06 (2^26 minutes),
// on a whole minute. Every id is a safe integer (below 2^53) and at least 2^52, so it never equals a post id of a
// site with fewer than 4.5 quadrillion posts; the same identity always gives the same id, whatever else changes.

const BASE = 2 ** 52;
const SPAN = 2 ** 26;
const EPOCH_MS = Date.UTC(2000, 0, 1);
const MINUTE_MS = 60_000;

export interface OccurrenceIdentity {
  seriesId: number;
  /** The original start in ms since the Unix epoch (UTC), on a whole minute. */
  originalStartMs: number;
}

/** The occurrence id of an identity, or undefined when it is outside the scheme's limits. */
export function occurrenceId({ seriesId, originalStartMs }: OccurrenceIdentity): number | undefined {
  const minutes = (originalStartMs - EPOCH_MS) / MINUTE_MS;
  if (!Number.isInteger(seriesId) || seriesId < 1 || seriesId >= SPAN) return undefined;
  if (!Number.isInteger(minutes) || minutes < 0 || minutes >= SPAN) return undefined;
  return BASE + seriesId * SPAN + minutes;
}

/** Whether an id is in the occurrence range (not a WordPress post id). */
export const isOccurrenceId = (id: number): boolean => Number.isSafeInteger(id) && id >= BASE;

/** The identity an occurrence id stands for, or undefined for a post id or a malformed one. */
export function identityOf(id: number): OccurrenceIdentity | undefined {
  if (!isOccurrenceId(id)) return undefined;
  const rest = id - BASE;
  const seriesId = Math.floor(rest / SPAN);
  const minutes = rest - seriesId * SPAN;
  if (seriesId < 1) return undefined;
  return { seriesId, originalStartMs: EPOCH_MS + minutes * MINUTE_MS };
}
