// An update's organizers in the order sent: wp/v2 stores a list meta's rows so that a reordered list reads back in
// another order unless it is cleared first (src/events/write.ts's update).
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { readField } from '../mapping/codec.ts';
import type { WpPost } from '../wp/types.ts';

/**
 * wp/v2 keeps the organizer rows that stay in place and appends new ones after them, so `[25]` rewritten as
 * `[24, 25]` would read back `[25, 24]`. When the order sent differs from that, the rows are cleared first.
 * Returns how to put the old list back if the update then fails.
 */
export async function keepOrganizerOrder(
  deps: Deps,
  ctx: RequestContext,
  id: number,
  current: WpPost,
  payload: Record<string, unknown>,
): Promise<(() => Promise<void>) | undefined> {
  const src = deps.mapping.event.fields.organizer;
  const meta = payload.meta as Record<string, unknown> | undefined;
  if (!src || !('meta' in src) || src.format !== 'int-list' || !Array.isArray(meta?.[src.meta]))
    return undefined;
  const wanted = (meta[src.meta] as number[]).map(Number);
  const old = readField(current, src) as number[];
  const kept = old.filter((v) => wanted.includes(v));
  const predicted = [...kept, ...wanted.filter((v) => !old.includes(v))];
  if (predicted.join(',') === wanted.join(',') || kept.length === 0) return undefined;
  const write = (value: number[]) =>
    deps.wp.request({
      path: `/wp/v2/${deps.mapping.event.restBase}/${id}`,
      method: 'POST',
      body: { meta: { [src.meta]: value } },
      as: { credentials: ctx.credentials },
      signal: ctx.signal,
    });
  await write([]);
  return async () => {
    await write(old);
  };
}
