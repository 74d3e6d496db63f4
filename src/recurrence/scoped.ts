// Where an event update or delete meets recurrence: what the id names, and the write its scope asks for.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { readEventPost } from '../events/read-post.ts';
import { ApiError, eventNotFound, forbidden } from '../http/errors.ts';
import type { SiteInfo } from '../serialize/index.ts';
import type { Caller } from '../wp/caller.ts';
import type { WpPost } from '../wp/types.ts';
import { deleteScoped } from './delete.ts';
import { isOccurrenceId } from './ids.ts';
import { mapsRecurrence } from './store.ts';
import { scopeOf, targetOf } from './target.ts';
import { updateScoped } from './update.ts';
import type { answerMany, Kit } from './write-answer.ts';

type Answer = Awaited<ReturnType<typeof answerMany>>;

/**
 * An update: answered here when its scope writes more than one post or makes one (an override, a split); otherwise
 * the post the plain update writes (the event itself, an occurrence's override, a series without overrides).
 * `scope` is ignored on an event that does not repeat.
 */
export async function inScope(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  caller: Caller,
  id: number,
  a: Record<string, unknown>,
  body: Record<string, unknown>,
  scope: unknown,
): Promise<{ answer: Answer } | { current: WpPost }> {
  const current = isOccurrenceId(id)
    ? undefined
    : await readEventPost(deps, ctx, id, { context: 'edit' }).catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'event-not-accessible') throw forbidden(true);
        throw err;
      });
  if (!mapsRecurrence(deps)) {
    if (current) return { current };
    throw eventNotFound(id);
  }
  const t = await targetOf(deps, ctx, id, current);
  if (t.kind === 'one-off') return { current: t.post };
  const scoped = await updateScoped(kit, deps, ctx, site, caller, t, scopeOf(t, scope), a, body);
  if (scoped.answer) return { answer: scoped.answer };
  return { current: scoped.post! };
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
  const t = await targetOf(deps, ctx, id).catch((err: unknown) => {
    // A post id's refusals are answered by the plain delete, with TEC's codes for a delete.
    if (err instanceof ApiError && !isOccurrenceId(id) && err.status < 500) return undefined;
    throw err;
  });
  if (!t || t.kind === 'one-off') return undefined;
  return deleteScoped(kit, deps, ctx, site, t, scopeOf(t, scope));
}
