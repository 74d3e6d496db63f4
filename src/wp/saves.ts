// WordPress's REST save is several statements, not one transaction: a post's row (status, modified_gmt) first, then
// its terms, then its meta. A read between them sees a post with its new stamp and status, and its old meta (an event
// without its dates, a venue without its address). Whatever reads WordPress on a schedule (the change log's sources,
// the venue and organizer catalog's checks) reads a post saved in the last seconds once more, a while later.
import { msOfUtcWall } from '../dates/utc-wall.ts';

/**
 * How long after a read of a post saved in the last seconds it is read again (ms): a save read half done has this
 * long after that read to end. WordPress's saves end within milliseconds; a busy one's within a second or two.
 */
export const SAVE_SETTLE_MS = 3_000;

/**
 * How old a post's modified second may be for a save to be under way still (ms), with some slack for a WordPress
 * clock behind ours (`modified_gmt` is cut to the second).
 */
export const SAVE_RECENT_MS = SAVE_SETTLE_MS + 2_000;

/** Whether a post stamped `modifiedGmt` (`Y-m-d H:i:s` or ISO, UTC) may be in the middle of its save at `nowMs`. Pure. */
export function maySaveStill(modifiedGmt: string, nowMs: number): boolean {
  const at = msOfUtcWall(modifiedGmt);
  return !Number.isNaN(at) && nowMs - at < SAVE_RECENT_MS;
}
