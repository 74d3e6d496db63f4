// The answer of a write over several events: the one answered, and every event it changed dropped from caches.
import { linkTags } from '../cache/links.ts';
import { tag } from '../cache/tags.ts';
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { SiteInfo } from '../serialize/index.ts';
import type { Caller } from '../wp/caller.ts';
import type { WpPost } from '../wp/types.ts';
import type { Undo } from '../write/undo.ts';

/**
 * The event write's own steps, passed in by src/events/write.ts (which calls into this folder): the stored values of
 * what was sent, read against `current` (its `claimedValues`), and the answer of a written event (its `respond`).
 */
export interface Kit {
  values(
    deps: Deps,
    ctx: RequestContext,
    caller: Caller,
    a: never,
    body: Record<string, unknown>,
    current: WpPost | undefined,
    undo: Undo,
  ): Promise<Record<string, unknown>>;
  respond(
    deps: Deps,
    ctx: RequestContext,
    site: SiteInfo,
    post: WpPost,
    status: number,
    created?: boolean,
  ): Promise<{ status: number; body: unknown; tags: string[]; soft: boolean }>;
}

/**
 * Answers with `answered` (as a write of one event does) after putting the other events the write `touched` in the
 * index; every one of them is dropped from the caches, hard (a series' occurrences change with it).
 */
export async function answerMany(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  answered: WpPost,
  touched: WpPost[],
  status: number,
  created = false,
) {
  const index = await deps.indexes.forLanguage(ctx.language);
  const tags = new Set<string>();
  for (const p of touched) {
    const before = index.get(p.id);
    const after = index.upsert(p);
    for (const t of linkTags(before, after)) tags.add(t);
    tags.add(tag.event(p.id));
  }
  const r = await kit.respond(deps, ctx, site, answered, status, created);
  return { ...r, tags: [...new Set([...r.tags, ...tags])], soft: false };
}
