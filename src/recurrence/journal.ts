// The steps of a write over several events, each written down in the undo journal before it is sent.
//
// A create is stamped and noted as every create is (src/write/undo.ts); a change to an event the write did not make
// is noted with the body that puts it back (src/write/restore.ts), and so is a move to the trash. A write that fails
// part way, or a process that dies, is rolled back from these notes: no half-split series, no EXDATE without its
// override removed.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { asCaller } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { inverseOf, type UndoRestore } from '../write/restore.ts';
import { mayHaveWritten, type Undo } from '../write/undo.ts';

/** Runs `send`, noted first as `step`; a refusal (nothing written) takes the note back. */
async function noted<T>(undo: Undo, step: UndoRestore, send: () => Promise<T>): Promise<T> {
  undo.restores.push(step);
  await undo.save();
  try {
    return await send();
  } catch (err) {
    if (!mayHaveWritten(err)) {
      undo.restores.splice(undo.restores.indexOf(step), 1);
      await undo.save();
    }
    throw err;
  }
}

/** Updates an event the write did not make, as the caller; a rollback puts back what `body` changed. */
export async function changeEvent(
  deps: Deps,
  ctx: RequestContext,
  undo: Undo,
  current: WpPost,
  body: Record<string, unknown>,
): Promise<WpPost> {
  const restBase = deps.mapping.event.restBase;
  const step = { restBase, id: current.id, wrote: body, put: inverseOf(current, body) };
  return noted(undo, step, async () => {
    const res = await deps.wp.update<WpPost>({
      path: `/wp/v2/${restBase}/${current.id}`,
      method: 'POST',
      body,
      ...asCaller(ctx),
    });
    return res.body;
  });
}

/** Moves an event to the trash, as the caller; a rollback gives it back its status and slug. */
export async function trashEvent(
  deps: Deps,
  ctx: RequestContext,
  undo: Undo,
  current: WpPost,
): Promise<WpPost> {
  const restBase = deps.mapping.event.restBase;
  // WordPress adds `__trashed` to the slug of a post it trashes: the slug goes back too.
  const step = {
    restBase,
    id: current.id,
    wrote: { status: 'trash' },
    put: { status: current.status, slug: current.slug },
  };
  return noted(undo, step, async () => {
    const res = await deps.wp.request<WpPost>({
      path: `/wp/v2/${restBase}/${current.id}`,
      method: 'DELETE',
      ...asCaller(ctx),
    });
    return res.body;
  });
}
