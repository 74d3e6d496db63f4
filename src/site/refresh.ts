// The site settings answers render (its name, its time zone), read again when they may have changed.
import type { Deps } from '../deps.ts';
import { ANY_EVENT_STATUSES } from '../index/facets.ts';
import { siteTimezone } from '../wp/probe.ts';

interface RootIndex {
  name?: string;
  timezone_string?: string;
  gmt_offset?: number | string;
}

/**
 * Reads WordPress's REST index again and takes its name and time zone into the site facts every answer reads
 * (feeds' names, default dates, windows, an event's zone when it has none). When they changed, every cached answer
 * was made with the old ones: all are purged, and the purge tells the other instances, which read the index again
 * on it (src/gateway.ts), so each one renders with the new settings. Resolves whether anything changed.
 */
export async function refreshSite(deps: Pick<Deps, 'wp' | 'site' | 'cache' | 'log'>): Promise<boolean> {
  const root = (await deps.wp.request<RootIndex>({ path: '/', as: 'anonymous' })).body;
  const name = typeof root.name === 'string' ? root.name : deps.site.name;
  const timezone = siteTimezone(root);
  if (name === deps.site.name && timezone === deps.site.timezone) return false;
  deps.log.info(
    { name, timezone, was: { name: deps.site.name, timezone: deps.site.timezone } },
    "WordPress's site settings changed: cached answers purged",
  );
  deps.site.name = name;
  deps.site.timezone = timezone;
  await deps.cache?.purgeAll();
  return true;
}

/**
 * A user was deleted through the gateway's proxy: WordPress gave their posts to another user (`reassign`) or deleted
 * them, in one UPDATE that leaves `modified` as it was, so no poll would see it. Their events are read again into
 * every index (by the author the index knows), and every cached answer is purged: each record shows its `author`.
 */
export async function afterUserDelete(
  deps: Pick<Deps, 'indexes' | 'cache'>,
  userId: number | undefined,
): Promise<void> {
  if (userId !== undefined) {
    await Promise.all(
      deps.indexes.all().map((index) => {
        const all = index.query({ statuses: ANY_EVENT_STATUSES, page: 1, perPage: Math.max(1, index.size) });
        const theirs = all.ids.filter((id) => index.get(id)?.author === userId);
        return theirs.length ? index.refetch(theirs) : undefined;
      }),
    );
  }
  await deps.cache?.purgeAll();
}
