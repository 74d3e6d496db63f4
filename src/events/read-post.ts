// An event post as the caller may read it: TEC's access rules and error codes, password guesses throttled.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import {
  ApiError,
  eventGone,
  eventNotAccessible,
  eventNotFound,
  notAnEvent,
  passwordProtected,
} from '../http/errors.ts';
import { recordFieldsOf } from '../mapping/codec.ts';
import { asGuesses } from '../passwords/guesses.ts';
import { asCaller } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { withStoredExcerpt } from './excerpt.ts';

const PASSWORD_PROTECTED = passwordProtected().code;

async function isLinkedPost(deps: Deps, ctx: RequestContext, id: number): Promise<boolean> {
  const catalogs = deps.catalog;
  for (const kind of ['venue', 'organizer'] as const) {
    const all = await catalogs.all(kind, ctx.language).catch(() => undefined);
    if (all?.has(id)) return true;
  }
  return false;
}

/**
 * Reads the post with the caller's credentials and maps WordPress's refusal onto TEC's codes:
 * trashed (and the caller may edit it) → 403 event-no-longer-available; not readable → 403 event-not-accessible; unknown → 404.
 * `record`: only the fields a record is made of (`recordFieldsOf`), so WordPress neither builds nor sends the post's
 * `_links` (a revisions count among them); a write's edit-context read, which undo restores from, takes the whole post.
 */
export async function readEventPost(
  deps: Deps,
  ctx: RequestContext,
  id: number,
  opts: { password?: string; context?: 'view' | 'edit'; record?: boolean } = {},
): Promise<WpPost> {
  try {
    const res = await deps.wp.request<WpPost>({
      path: `/wp/v2/${deps.mapping.event.restBase}/${id}`,
      query: {
        context: opts.context ?? 'view',
        password: opts.password,
        ...(opts.record ? { _fields: recordFieldsOf(deps.mapping, 'event') } : {}),
      },
      ...asCaller(ctx),
    });
    return res.body;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'rest_post_incorrect_password') {
      // WordPress refuses any password on a post that has none; TEC ignores it. Read it again without one.
      if (opts.password !== undefined) {
        const plain = await readEventPost(deps, ctx, id, { ...opts, password: undefined });
        if (plain.content?.protected !== true) return plain;
      }
      throw passwordProtected();
    }
    if (err.status === 404) throw (await isLinkedPost(deps, ctx, id)) ? notAnEvent(id) : eventNotFound(id);
    if (err.status === 401 || err.status === 403) {
      if (await trashedForCaller(deps, ctx, id)) {
        throw eventGone(id);
      }
      throw eventNotAccessible(id);
    }
    throw err;
  }
}

/**
 * Whether the caller may see that WordPress holds the post in the trash: asked with the caller's own credentials
 * in edit context (WordPress shows a trashed post to whoever may edit it). Anonymous callers and callers who may
 * not edit it get no answer, so they cannot tell a trashed event from a draft (TEC tells anyone; a deliberate
 * difference).
 */
async function trashedForCaller(deps: Deps, ctx: RequestContext, id: number): Promise<boolean> {
  if (!ctx.credentials) return false;
  try {
    const res = await deps.wp.request<{ status?: string }>({
      path: `/wp/v2/${deps.mapping.event.restBase}/${id}`,
      query: { context: 'edit', _fields: 'status' },
      ...asCaller(ctx),
    });
    return res.body.status === 'trash';
  } catch {
    return false;
  }
}

/** A post read to be answered, and the password that unlocks its protected fields for this caller. */
export interface Shown {
  post: WpPost;
  unlock: string | undefined;
}

/**
 * The event post `id` as the caller may read it, or TEC's refusal: trashed → 403 event-no-longer-available,
 * password-protected without the password → 401. `edit`: TEC lets whoever may edit the event read it in full with
 * `context=edit`, password or not; WordPress decides who may (edit context needs edit_post), and anyone else reads
 * it as usual.
 */
export async function readShown(
  deps: Deps,
  ctx: RequestContext,
  id: number,
  password: string | undefined,
  opts: { edit?: boolean } = {},
): Promise<Shown> {
  const index = await deps.indexes.forLanguage(ctx.language);
  const edited =
    opts.edit && ctx.credentials
      ? await readEventPost(deps, ctx, id, { context: 'edit' }).catch(() => undefined)
      : undefined;
  // A password is a guess at this event: throttled per client (a wrong one is the 403 below readEventPost).
  const read = () =>
    asGuesses(
      deps.passwordGuesses,
      ctx.client,
      password === undefined ? [] : [`event:${id}`],
      () => readEventPost(deps, ctx, id, { password, record: true }),
      { of: () => [], error: (err) => err instanceof ApiError && err.code === PASSWORD_PROTECTED },
    );
  const post = withStoredExcerpt(edited ?? (await read()), index.get(id)?.hasExcerpt);
  if (post.status === 'trash') {
    throw eventGone(id);
  }
  const content = post.content as { protected?: boolean; rendered?: string } | undefined;
  if (content?.protected && !password && !edited) {
    throw passwordProtected();
  }
  return { post, unlock: edited ? (edited.password ?? password) : password };
}
