// Which post statuses a caller may list, following TEC: `publish` for the public, every status for editors.
import type { RequestContext } from '../context.ts';
import { POST_STATUSES } from '../contract/events.ts';
import type { Deps } from '../deps.ts';
import { invalidParams } from '../http/errors.ts';
import type { ResourceKind } from '../mapping/schema.ts';
import { can } from '../wp/caller.ts';

/** `any` as WordPress expands it: every status but trash and auto-draft. */
export const ANY: readonly string[] = POST_STATUSES;

export interface Visibility {
  statuses: string[];
  /** What `rest_url` echoes: `publish`, `any`, or the statuses asked for. */
  echo: string;
  editor: boolean;
}

export async function listVisibility(
  deps: Deps,
  ctx: RequestContext,
  kind: ResourceKind,
  requested: string[] | undefined,
): Promise<Visibility> {
  const caller = await deps.callers.resolve(ctx);
  const editor = can(caller, deps.site.caps[kind] ?? {}, 'edit_posts');
  if (!requested)
    return editor
      ? { statuses: [...ANY], echo: 'any', editor }
      : { statuses: ['publish'], echo: 'publish', editor };
  if (!editor) {
    if (requested.length === 1 && requested[0] === 'publish')
      return { statuses: ['publish'], echo: 'publish', editor };
    throw invalidParams({ status: 'Invalid parameter.' });
  }
  const statuses = requested.flatMap((s) => (s === 'any' ? [...ANY] : [s]));
  if (statuses.some((s) => !(ANY as readonly string[]).includes(s) && s !== 'trash')) {
    throw invalidParams({ status: 'Invalid parameter.' });
  }
  return { statuses: [...new Set(statuses)], echo: requested.join(','), editor };
}
