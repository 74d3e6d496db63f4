// Which password-protected events a caller sees in full: whoever may edit them (src/events/visibility.ts), and
// whoever gave their password, which WordPress checks here before a filter may match them on what it blanks.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { EventIndex } from '../index/event-index.ts';
import { type IndexQuery, readsBlanked, type SeesProtected } from '../index/query.ts';
import { canSeeProtected, isProtected } from '../serialize/common.ts';
import { readEvents } from './read-events.ts';
import type { Visibility } from './visibility.ts';

/**
 * Protected events a password is tried at for one query, at most. Each is a guess (throttled per client), so a
 * query whose filters match more protected events than this opens the first ones in list order only; the rest
 * stay unmatched, as for a caller without the password (never shown, only not found).
 */
export const OPEN_AT_MOST = 20;

/**
 * `query`'s view of protected events with `password` tried: the events its filters would match on what a password
 * blanks (venue, organizers, terms, featured) and that WordPress opens with it, as the caller reads them.
 * Unchanged when no filter reads a blanked field, when there is no password, or when the caller sees them all.
 */
export async function withPassword(
  deps: Deps,
  ctx: RequestContext,
  index: EventIndex,
  query: Omit<IndexQuery, 'page' | 'perPage'>,
  visibility: Visibility,
  password: string | undefined,
): Promise<SeesProtected | undefined> {
  const sees = query.seesProtected;
  if (password === undefined || sees?.all || !readsBlanked(query)) return sees;
  const { ids } = index.query({
    ...query,
    seesProtected: { all: true },
    protectedOnly: true,
    page: 1,
    perPage: OPEN_AT_MOST + 1,
  });
  const tried = ids.filter((id) => !(sees?.own && index.get(id)?.author === sees.own)).slice(0, OPEN_AT_MOST);
  if (!tried.length) return sees;
  const opened = await openedBy(deps, ctx, index, tried, visibility, password);
  return { ...sees, ids: [...(sees?.ids ?? []), ...opened] };
}

/** The protected events among `ids` that `password` opens, read as the caller (each tried is a guess). */
export async function openedBy(
  deps: Deps,
  ctx: RequestContext,
  index: EventIndex,
  ids: number[],
  visibility: Visibility,
  password: string,
): Promise<number[]> {
  const posts = await readEvents(deps, ctx, index, ids, visibility, password);
  return posts.filter((p) => isProtected(p) && canSeeProtected(p, password)).map((p) => p.id);
}
