// The markers an invalidation's tags carry to every instance: whether its drop may be soft.

/**
 * Markers travel with the tags, through Redis and pub/sub, and are never sent to a CDN. An invalidation is soft only
 * when it carries SOFT_TAG and not HARD_TAG: tags merged from several invalidations (a replay after an outage) drop
 * hard if any of them did, and an instance that never heard of them drops hard.
 */
export const SOFT_TAG = '!soft';
export const HARD_TAG = '!hard';
export const isMarker = (t: string): boolean => t === SOFT_TAG || t === HARD_TAG;
export const isSoft = (tags: readonly string[]): boolean =>
  tags.includes(SOFT_TAG) && !tags.includes(HARD_TAG);
