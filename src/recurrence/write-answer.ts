// The answer of a write over several events: the one answered, and every event it changed dropped from caches.
import { linkTags } from '../cache/links.ts';
import { tag } from '../cache/tags.ts';
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { claimedValues, respond } from '../events/write.ts';
import type { SiteInfo } from '../serialize/index.ts';
import type { WpPost } from '../wp/types.ts';

/** The event write's own steps, passed in by src/events/write.ts (which calls into this folder). */
export interface Kit {
  values: typeof claimedValues;
  respond: typeof respond;
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
