// What a write created on the way (nested venues, organizers, terms, uploads, the event itself), kept where a crash
// cannot lose it, so that a write that fails, or a process that dies mid-write, leaves nothing behind once
// WordPress answers again. The rule: every create carries the token of its write (WRITE_META, sent in the create
// request itself), and a rollback deletes only what carries that token, read back before each delete (the caller's
// too). A create whose answer never came (WordPress died or timed out) is looked for by its token, never by a title
// or a name. Where the site does not register the token, only ids the creates' own answers named are deleted, and a
// lost create is logged for the operator instead.
import type { RequestContext } from '../context.ts';
import { asCaller, type WpResponse } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import type { Stamp, Undo, UndoDeps } from './journal.ts';
import { rollback } from './rollback.ts';

export {
  type Entry,
  landsWithin,
  mayHaveWritten,
  newUndo,
  type Stamp,
  stamps,
  stepKey,
  UNDO_LEASE_MS,
  Undo,
  type UndoDeps,
  UndoJournal,
  type UndoProbe,
  type UndoStep,
} from './journal.ts';
export { rollback } from './rollback.ts';

/**
 * The caller's credentials and language for a create, without the caller's abort signal: a create once sent is seen
 * through even when the caller hangs up, so that its answer says what it made and the rollback removes exactly that.
 * Abandoned, it would be a lost create, which WordPress may carry out after the rollback looked for it. (Undo.create
 * sends nothing once the caller is gone.)
 */
export const creatingAsCaller = (ctx: RequestContext): ReturnType<typeof asCaller> => ({
  ...asCaller(ctx),
  signal: undefined,
});

/** A create's body with the write's token added to its `meta` (unchanged when there is no token to send). */
export const withStamp = (body: Record<string, unknown>, stamp: Stamp): Record<string, unknown> =>
  Object.keys(stamp).length
    ? { ...body, meta: { ...(body.meta as Record<string, unknown> | undefined), ...stamp } }
    : body;

/** Creates a post of `restBase` as the caller, stamped with and noted in `undo` (found by its token if lost). */
export function createPost(
  deps: UndoDeps,
  ctx: RequestContext,
  undo: Undo,
  restBase: string,
  body: Record<string, unknown>,
): Promise<WpResponse<WpPost>> {
  return undo.create(
    'posts',
    restBase,
    (stamp) =>
      deps.wp.request<WpPost>({
        path: `/wp/v2/${restBase}`,
        method: 'POST',
        body: withStamp(body, stamp),
        ...creatingAsCaller(ctx),
      }),
    ctx.signal,
  );
}

/**
 * Runs a write that records its creations in `undo`: when it answers, what it made stays; when it throws, `before`
 * runs (putting back what it changed), what it made is removed, and the error goes out through `map`.
 */
export async function undoing<T>(
  deps: UndoDeps,
  ctx: RequestContext,
  undo: Undo,
  run: () => Promise<T>,
  opts: { before?: () => Promise<void>; map?: (err: unknown) => unknown } = {},
): Promise<T> {
  try {
    const answer = await run();
    await undo.done();
    return answer;
  } catch (err) {
    await opts.before?.();
    await rollback(deps, undo, ctx);
    throw opts.map ? opts.map(err) : err;
  }
}

/** Entries a sweep undoes at once. */
const SWEEP_PARALLEL = 4;

/** Takes the journal's due entries (failed undos, writes whose process died) and undoes them as the service. */
export async function sweep(deps: UndoDeps): Promise<number> {
  const journal = deps.undo;
  if (!journal) return 0;
  const due = await journal.due(Date.now());
  const queue = [...due];
  // A few at a time: after an outage every failed write of the burst is due at once, each a dozen upstream calls.
  await Promise.all(
    Array.from({ length: Math.min(SWEEP_PARALLEL, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [id, e] = next;
        // A create still open when its process died was sent before its last heartbeat (a lease before it was due).
        for (const p of e.probes) p.lostAt ??= e.due - journal.leaseMs;
        await rollback(deps, journal.resume(id, e));
      }
    }),
  );
  return due.length;
}
