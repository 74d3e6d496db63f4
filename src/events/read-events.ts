// The events of a list page or a feed, read as the caller: a password tried on each protected one counts as a guess.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { EventIndex } from '../index/event-index.ts';
import { nextSlice } from '../pace/turns.ts';
import { asGuesses } from '../passwords/guesses.ts';
import { canSeeProtected, isProtected } from '../serialize/common.ts';
import type { WpPost } from '../wp/types.ts';
import { withStoredExcerpt } from './excerpt.ts';
import { readHeld } from './held.ts';
import { readPage } from './page.ts';
import type { Visibility } from './visibility.ts';

/** Posts one `include=` request holds. */
const UPSTREAM_PAGE = 100;

/**
 * Reads `ids` in order, in requests of 100. The password is tried at every protected event among them (`include=a,b,c`
 * picks them): one guess at each, throttled per client; those it did not open stay counted.
 */
export async function readEvents(
  deps: Deps,
  ctx: RequestContext,
  index: EventIndex,
  ids: number[],
  visibility: Visibility,
  password: string | undefined,
): Promise<WpPost[]> {
  const statuses = visibility.editor ? [...visibility.statuses, ...visibility.ownStatuses] : undefined;
  const pages = async (ids: number[]) => {
    const out: Promise<WpPost[]>[] = [];
    for (let i = 0; i < ids.length; i += UPSTREAM_PAGE) {
      // Each request after the first starts in a turn with room (src/pace/turns.ts): a feed's 20, started in one
      // turn, each on a new connection, held a first cold feed's turn for 8 ms.
      if (i) await nextSlice();
      const page = readPage(deps, ctx, 'event', ids.slice(i, i + UPSTREAM_PAGE), { statuses, password });
      // Handled here until Promise.all takes it: one failing while the next waits would be an unhandled rejection.
      page.catch(() => undefined);
      out.push(page);
    }
    return (await Promise.all(out)).flat();
  };
  // An anonymous reader without a password: the events held for that audience are not read again (src/events/held.ts).
  if (deps.records && !ctx.credentials && password === undefined && !visibility.editor) {
    const read = await readHeld(deps, ctx, index, ids, pages);
    return withStoredExcerpts(index, read);
  }
  const tried = password === undefined ? [] : ids.filter((id) => index.get(id)?.protected);
  const read = await asGuesses(
    deps.passwordGuesses,
    ctx.client,
    tried.map((id) => `event:${id}`),
    () => pages(ids),
    {
      of: (posts) =>
        posts.filter((p) => isProtected(p) && !canSeeProtected(p, password)).map((p) => `event:${p.id}`),
    },
  );
  return withStoredExcerpts(index, read);
}

/** Each post with the excerpt the index says it has (a feed's thousands: from the columns, building no record). */
function withStoredExcerpts(index: EventIndex, posts: WpPost[]): WpPost[] {
  const columns = index.columnsNow();
  return posts.map((p) => withStoredExcerpt(p, columns.hasExcerptOf(p.id)));
}
