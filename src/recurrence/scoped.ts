// Where an event update or delete meets recurrence: what the id names, and the write its scope asks for.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { readEventPost } from '../events/read-post.ts';
import { ApiError, eventNotFound, forbidden } from '../http/errors.ts';
import type { SiteInfo } from '../serialize/index.ts';
import type { Caller } from '../wp/caller.ts';
import type { WpPost } from '../wp/types.ts';
import { deleteScoped } from './delete.ts';
import { identityOf, isOccurrenceId } from './ids.ts';
import { SeriesLocks } from './series-lock.ts';
import { linksOf, mapsRecurrence, storedRule } from './store.ts';
import { readForWrite, scopeOf, type Target, targetOf } from './target.ts';
import { updateScoped } from './update.ts';
import type { answerMany, Kit } from './write-answer.ts';

type Answer = Awaited<ReturnType<typeof answerMany>>;

/** Turns of a process whose Deps were built without them (tests): this process's alone. */
const localLocks = new SeriesLocks();
const turns = (deps: Deps): SeriesLocks => deps.seriesLocks ?? localLocks;

/** The series a write to `id` reaches, when `post` (the post of a post id) or the id itself names one. */
function seriesIdOf(deps: Deps, id: number, post?: WpPost): number | undefined {
  if (isOccurrenceId(id)) return identityOf(id)?.seriesId;
  if (!post) return undefined;
  const links = linksOf(deps, post);
  if (links.seriesParent !== undefined && links.recurrenceId !== undefined) return links.seriesParent;
  return storedRule(deps, post) ? post.id : undefined;
}

/**
 * Runs `write` on what `id` addresses, in its series' turn (src/recurrence/series-lock.ts) and read again in it: a
 * series written by another request meanwhile is written from its new state. A one-off is written at once.
 * `unread`: what a failure to read the target answers instead (thrown when absent).
 */
async function inTurn<T>(
  deps: Deps,
  ctx: RequestContext,
  id: number,
  post: WpPost | undefined,
  write: (t: Target) => Promise<T>,
  unread?: (err: unknown) => T,
): Promise<T> {
  const run = async (known?: WpPost): Promise<T> => {
    let t: Target;
    try {
      t = await targetOf(deps, ctx, id, known);
    } catch (err) {
      if (unread) return unread(err);
      throw err;
    }
    return write(t);
  };
  const seriesId = seriesIdOf(deps, id, post);
  if (seriesId === undefined) return run(post);
  return turns(deps).hold(seriesId, () => run());
}

/**
 * An update: answered here when its scope writes more than one post or makes one (an override, a split); otherwise
 * `plain` writes the post it names (the event itself, an occurrence's override, a series without overrides), in the
 * series' turn as well: written after the turn, it could land between another write's read of the series and that
 * write's own, which would then put back what it had read (a rule changed by `plain` lost to an EXDATE added from the
 * rule before it). `scope` is ignored on an event that does not repeat.
 */
export async function inScope<R>(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  caller: Caller,
  id: number,
  a: Record<string, unknown>,
  body: Record<string, unknown>,
  scope: unknown,
  plain: (current: WpPost) => Promise<R>,
): Promise<Answer | R> {
  const current = isOccurrenceId(id)
    ? undefined
    : await readEventPost(deps, ctx, id, { context: 'edit' }).catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'event-not-accessible') throw forbidden(true);
        throw err;
      });
  if (!mapsRecurrence(deps)) {
    if (current) return plain(current);
    throw eventNotFound(id);
  }
  return inTurn(deps, ctx, id, current, async (t): Promise<Answer | R> => {
    if (t.kind === 'one-off') return plain(t.post);
    const scoped = await updateScoped(kit, deps, ctx, site, caller, t, scopeOf(t, scope), a, body);
    return scoped.answer ?? plain(scoped.post!);
  });
}

/** A delete of a series or one of its occurrences with its scope; undefined when the plain delete does it. */
export async function deleteInScope(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  scope: unknown,
): Promise<Answer | undefined> {
  if (!mapsRecurrence(deps)) {
    if (isOccurrenceId(id)) throw eventNotFound(id);
    return undefined;
  }
  // A post id's refusals are answered by the plain delete, with TEC's codes for a delete.
  const plain = (err: unknown): undefined => {
    if (err instanceof ApiError && !isOccurrenceId(id) && err.status < 500) return undefined;
    throw err;
  };
  const post = isOccurrenceId(id) ? undefined : await readForWrite(deps, ctx, id, id).catch(plain);
  if (!isOccurrenceId(id) && !post) return undefined;
  return inTurn(
    deps,
    ctx,
    id,
    post,
    async (t) =>
      t.kind === 'one-off' ? undefined : deleteScoped(kit, deps, ctx, site, t, scopeOf(t, scope)),
    plain,
  );
}
