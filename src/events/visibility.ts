// Which post statuses a caller may list, following TEC: `publish` for the public, every status for editors.
import type { RequestContext } from '../context.ts';
import { POST_STATUSES } from '../contract/events.ts';
import type { Deps } from '../deps.ts';
import { invalidParams } from '../http/errors.ts';
import type { SeesProtected } from '../index/query.ts';
import type { ResourceKind } from '../mapping/schema.ts';
import { type Caller, can, type TypeCaps } from '../wp/caller.ts';

/** `any` as WordPress expands it: every status but trash and auto-draft. */
export const ANY: readonly string[] = POST_STATUSES;

export interface Visibility {
  /** Statuses listed whoever wrote the record. */
  statuses: string[];
  /**
   * Statuses listed only for the caller's own records (`author`): a contributor's drafts, an author's private
   * events. WordPress needs `edit_others_posts` (future, draft, pending) and `read_private_posts` (private) to
   * read anyone else's, so totals, pages, search and filters count only these.
   */
  ownStatuses: string[];
  author?: number;
  /** What `rest_url` echoes: `publish`, `any`, or the statuses asked for. */
  echo: string;
  editor: boolean;
  /**
   * The password-protected records the caller sees in full without a password: those WordPress opens to it in edit
   * context (anyone's to who may edit others' published records, its own to who may edit its own published ones).
   */
  seesProtected: SeesProtected;
}

/** Whom WordPress opens a protected record to in edit context, without its password (`edit_post`). Pure. */
export function editorsOfProtected(caller: Caller | null, caps: TypeCaps): SeesProtected {
  if (!can(caller, caps, 'edit_published_posts')) return {};
  return can(caller, caps, 'edit_others_posts') ? { all: true } : { own: caller?.id };
}

/** Statuses that need `edit_others_posts` to be read on someone else's record (`read_private_posts` for private). */
const OTHERS_EDIT = new Set(['future', 'draft', 'pending', 'trash']);

/** Splits statuses into those the caller may read on anyone's record and those only on their own. Pure. */
export function splitReadable(
  statuses: readonly string[],
  caller: Caller | null,
  caps: TypeCaps,
): { statuses: string[]; ownStatuses: string[] } {
  const all: string[] = [];
  const own: string[] = [];
  for (const s of statuses) {
    if (s === 'publish') all.push(s);
    else if (
      s === 'private' ? can(caller, caps, 'read_private_posts') : can(caller, caps, 'edit_others_posts')
    )
      all.push(s);
    else if (OTHERS_EDIT.has(s) || s === 'private') own.push(s);
  }
  return { statuses: all, ownStatuses: can(caller, caps, 'edit_posts') ? own : [] };
}

export async function listVisibility(
  deps: Deps,
  ctx: RequestContext,
  kind: ResourceKind,
  requested: string[] | undefined,
): Promise<Visibility> {
  const caller = await deps.callers.resolve(ctx);
  const caps = deps.site.caps[kind] ?? {};
  const editor = can(caller, caps, 'edit_posts');
  const of = (statuses: readonly string[], echo: string): Visibility => ({
    ...splitReadable(statuses, caller, caps),
    author: caller?.id,
    echo,
    editor,
    seesProtected: editorsOfProtected(caller, caps),
  });
  if (!requested) return editor ? of(ANY, 'any') : of(['publish'], 'publish');
  if (!editor) {
    if (requested.length === 1 && requested[0] === 'publish') return of(['publish'], 'publish');
    throw invalidParams({ status: `status may only be publish for callers who cannot edit ${kind}s.` });
  }
  const statuses = requested.flatMap((s) => (s === 'any' ? [...ANY] : [s]));
  if (statuses.some((s) => !(ANY as readonly string[]).includes(s) && s !== 'trash')) {
    throw invalidParams({ status: `status must be any, trash or one of: ${ANY.join(', ')}.` });
  }
  return of([...new Set(statuses)], requested.join(','));
}

/** Whether a record with this status and author is one the caller may read, by the rule of {@link Visibility}. */
export const visibleTo = (v: Pick<Visibility, 'statuses' | 'ownStatuses' | 'author'>) => {
  const all = new Set(v.statuses);
  const own = new Set(v.ownStatuses);
  return (status: string, author: number): boolean =>
    all.has(status) || (v.author !== undefined && own.has(status) && author === v.author);
};

/** The part of a visibility limited to some statuses, as an index query takes it (`statuses`, `ownStatuses`, `author`). */
export function readableOf(
  v: Pick<Visibility, 'statuses' | 'ownStatuses' | 'author' | 'seesProtected'>,
  statuses: readonly string[],
): { statuses: string[]; ownStatuses: string[]; author?: number; seesProtected: SeesProtected } {
  const wanted = new Set(statuses);
  return {
    statuses: v.statuses.filter((s) => wanted.has(s)),
    ownStatuses: v.ownStatuses.filter((s) => wanted.has(s)),
    author: v.author,
    seesProtected: v.seesProtected,
  };
}
