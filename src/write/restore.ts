// The undo journal's restore steps: a record a write changed (not made), and the body that puts it back.
//
// A write over several records (a series split in two, an occurrence cut out of its series) writes each change down
// before it sends it. A rollback puts them back, newest first, before it removes what the write made; a process that
// died mid-write leaves them to the sweep. A record changed since by someone else is left as it is (logged): what
// the write sent is compared with what is there, field by field, and a value that is neither what the write sent nor
// what it found was written by someone else.
import type { RequestContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import type { WpPost } from '../wp/types.ts';
import type { Undo, UndoDeps, UndoRestore } from './journal.ts';

export type { UndoRestore } from './journal.ts';

/** A wp/v2 value as compared: `{raw}` texts by their raw text, booleans and numbers as meta text, lists item by item. */
export function norm(v: unknown): string {
  if (v && typeof v === 'object' && !Array.isArray(v) && 'raw' in v) return norm((v as { raw: unknown }).raw);
  if (Array.isArray(v)) return JSON.stringify(v.map(norm));
  if (v === true) return '1';
  if (v === false || v === null || v === undefined) return '';
  return String(v);
}

/** The body keys of `body` as flat `[key, value]` pairs, meta keys as `meta.<key>`. */
export function flat(body: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(body).flatMap(
    ([k, v]): Array<[string, unknown]> =>
      k === 'meta' && v && typeof v === 'object'
        ? Object.entries(v as Record<string, unknown>).map(([m, mv]): [string, unknown] => [`meta.${m}`, mv])
        : [[k, v]],
  );
}

const valueAt = (post: WpPost, key: string): unknown =>
  key.startsWith('meta.')
    ? (post.meta as Record<string, unknown> | undefined)?.[key.slice(5)]
    : (post as Record<string, unknown>)[key];

/** The body that puts `current` back as it was for every key `body` sends. */
export function inverseOf(current: WpPost, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, sent] of flat(body)) {
    let was = valueAt(current, key);
    if (was && typeof was === 'object' && !Array.isArray(was) && 'raw' in was)
      was = (was as { raw: unknown }).raw;
    // A meta key the record did not have reads back as its registered default: writing that back is the same.
    if (was === undefined) was = Array.isArray(sent) ? [] : typeof sent === 'number' ? 0 : '';
    if (key.startsWith('meta.')) {
      out.meta = { ...(out.meta as Record<string, unknown> | undefined), [key.slice(5)]: was };
    } else out[key] = was;
  }
  return out;
}

/** Whether `current` holds, for every key the write sent, either what it sent or what `put` puts back. */
export function stillOurs(current: WpPost, step: UndoRestore): boolean {
  const put = new Map(flat(step.put));
  return flat(step.wrote).every(([key, sent]) => {
    const now = norm(valueAt(current, key));
    return now === norm(sent) || (put.has(key) && now === norm(put.get(key)));
  });
}

/**
 * Puts back the records `undo` changed, newest first, as the caller (when there is one) then as the service.
 * Resolves false when WordPress did not answer (what is left stays in the journal for the sweep).
 */
export async function putBack(deps: UndoDeps, undo: Undo, ctx?: RequestContext): Promise<boolean> {
  while (undo.restores.length) {
    const step = undo.restores.at(-1)!;
    const path = `/wp/v2/${step.restBase}/${step.id}`;
    let current: WpPost | undefined;
    try {
      current = (await deps.wp.request<WpPost>({ path, query: { context: 'edit' }, as: 'service' })).body;
    } catch (err) {
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 410))) return false;
    }
    if (current && !stillOurs(current, step)) {
      deps.log.warn(
        { ...step, write: undo.token },
        'a record this write changed was changed again since: left',
      );
    } else if (current) {
      let done = false;
      for (const as of ctx
        ? ([{ credentials: ctx.credentials }, 'service'] as const)
        : (['service'] as const)) {
        try {
          await deps.wp.update({ path, method: 'POST', body: step.put, as });
          done = true;
          break;
        } catch (err) {
          deps.log.warn({ err, restBase: step.restBase, id: step.id }, 'putting a record back failed');
        }
      }
      if (!done) return false;
    }
    undo.restores.pop();
    await undo.save();
  }
  return true;
}
