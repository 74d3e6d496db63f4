// The visibility matrix's cells of the changes feed (test/integration/visibility-matrix.test.ts calls these): an
// initial sync holds exactly the records the caller may see, and the changes since the matrix was made tell a caller
// who does not see drafts only of what was public (leaving public view as a deletion), never of the rest.
import { expect } from 'vitest';
import { type CallResult, call, type Target } from '../harness.ts';

type Json = Record<string, unknown>;
interface Item {
  kind: string;
  id: number;
  action: string;
}

export interface FeedCell {
  kind: 'event' | 'venue';
  id: number;
  /** Whether the caller may see it now (in an initial sync). */
  visible: boolean;
  /** Whether the public could ever see it since the matrix began (then its changes reach a public caller). */
  everPublic: boolean;
}

/** The whole feed from `since` as the caller with these headers (its initial sync for `0`). */
export async function drainFeed(
  t: Target,
  since: string,
  headers: Record<string, string>,
): Promise<{ res: CallResult<Json>; items: Item[]; next: string }> {
  const items: Item[] = [];
  let cursor = since;
  for (let i = 0; i < 100; i++) {
    const res = await call<Json>(t, 'GET', `/changes?since=${cursor}&limit=500`, { headers });
    if (res.status !== 200) return { res, items, next: cursor };
    items.push(...(res.body.items as Item[]));
    cursor = res.body.next as string;
    if (!res.body.has_more) return { res, items, next: cursor };
  }
  throw new Error('the changes feed never ended');
}

/**
 * Checks one caller's view of the feed over the matrix's records; resolves how many cells it checked. `full`: the
 * caller sees drafts, private and protected records (an editor); `rejected`: its credentials are wrong (401).
 */
export async function checkFeed(
  t: Target,
  o: {
    since: string;
    headers: Record<string, string>;
    cells: FeedCell[];
    full: boolean;
    rejected: boolean;
    label: string;
  },
): Promise<number> {
  const sync = await drainFeed(t, '0', o.headers);
  if (o.rejected) {
    expect(sync.res.status, o.label).toBe(401);
    return o.cells.length;
  }
  expect(sync.res.status, `${o.label} ${JSON.stringify(sync.res.body).slice(0, 200)}`).toBe(200);
  const key = (k: string, id: number) => `${k}:${id}`;
  const synced = new Set(sync.items.map((x) => key(x.kind, x.id)));
  const log = (await drainFeed(t, o.since, o.headers)).items;
  for (const c of o.cells) {
    const label = `${o.label} ${c.kind} ${c.id}`;
    expect(synced.has(key(c.kind, c.id)), `${label} in the initial sync`).toBe(c.visible);
    const actions = log.filter((x) => x.kind === c.kind && x.id === c.id).map((x) => x.action);
    if (!o.full && !c.everPublic) expect(actions, `${label}: never public, never told`).toEqual([]);
    // The last word on a record says whether the caller may see it now.
    if (actions.length)
      expect(actions.at(-1) !== 'deleted', `${label} last action ${actions.join(',')}`).toBe(c.visible);
    else expect(c.visible, `${label}: visible but never told`).toBe(false);
  }
  return o.cells.length * 2;
}
