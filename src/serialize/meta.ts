// What of a record's meta an answer may show: the site's public meta, never the gateway's own bookkeeping.
import type { Json } from './types.ts';

/**
 * The companion plugin's keys (`_calendar_gateway_write`, the write token every create carries, and its siblings)
 * share one prefix. WordPress shows them in the edit context, which is what a write answers with; they are the
 * gateway's, and no answer of the calendar API carries them (TEC's term shape has `"meta": []`).
 */
export const INTERNAL_META_PREFIX = '_calendar_gateway_';

export const isInternalMeta = (key: string): boolean => key.startsWith(INTERNAL_META_PREFIX);

/** WordPress's `meta` without the gateway's keys; PHP's empty array (`[]`) when nothing is left. */
export function publicMeta(meta: unknown): Json | [] {
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return [];
  const kept = Object.entries(meta).filter(([key]) => !isInternalMeta(key));
  return kept.length > 0 ? Object.fromEntries(kept) : [];
}
