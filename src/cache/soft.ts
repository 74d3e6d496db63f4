// Whether a write's invalidation may be soft (readers keep the previous answer while it refills, src/cache/
// response-cache.ts): only when nothing the public could read leaves its view. A write that hides something drops hard.

/** What of a record decides whether the public sees it: its status, a post password, hide-from-listings. */
export interface Viewable {
  status: string;
  protected?: boolean;
  hidden?: boolean;
}

/** Whether an anonymous caller sees the record, in its page or in lists. Pure. */
export const inPublicView = (r: Viewable): boolean => r.status === 'publish' && !r.protected && !r.hidden;

/**
 * Whether a change may drop softly: it takes nothing out of public view. `before` undefined is a create (nothing was
 * shown), `after` undefined a delete; `known: false` (an update of a record the gateway had no copy of) is hard,
 * since what the public saw is not known. Pure.
 */
export function softChange(before: Viewable | undefined, after: Viewable | undefined, known = true): boolean {
  if (!known) return false;
  if (!before || !inPublicView(before)) return true;
  return after !== undefined && inPublicView(after);
}
