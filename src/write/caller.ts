// Who may write, shared by events, venues, organizers and terms: the caller WordPress vouches for, and the
// capabilities TEC checks before a write (WordPress still has the last word on the write itself).
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { forbidden } from '../http/errors.ts';
import { type Caller, can } from '../wp/caller.ts';

/** The signed-in caller; an anonymous one is refused (401). */
export async function requireCaller(deps: Deps, ctx: RequestContext): Promise<Caller> {
  const caller = await deps.callers.resolve(ctx);
  if (!caller) throw forbidden(false);
  return caller;
}

/** The caller, who must be able to edit posts of `kind` (403 otherwise). Terms need the events' right. */
export async function requireEditor(
  deps: Deps,
  ctx: RequestContext,
  kind: 'event' | 'venue' | 'organizer',
): Promise<Caller> {
  const caller = await requireCaller(deps, ctx);
  if (!can(caller, deps.site.caps[kind] ?? {}, 'edit_posts')) throw forbidden(true);
  return caller;
}

/** TEC scales the status of events, venues and organizers alike by the *event* post type's publish right. */
export const mayPublish = (deps: Deps, caller: Caller): boolean =>
  can(caller, deps.site.caps.event ?? {}, 'publish_posts');
