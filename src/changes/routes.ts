// Binds GET /changes: a page of the feed for this caller, waiting for the next change when asked (feed=longpoll).

import type { RequestContext } from '../context.ts';
import { changesRoutes } from '../contract/changes.ts';
import type { Deps } from '../deps.ts';
import { changesCursorExpired, internalError, invalidParams, tooManyChangeWaits } from '../http/errors.ts';
import { type Binding, bind } from '../http/handler.ts';
import { can } from '../wp/caller.ts';
import { type Cursor, decodeCursor, encodeCursor, type Page, readPage, type Sees } from './feed.ts';
import { tagsOf } from './ledger.ts';
import type { ChangeStore } from './store.ts';
import type { ChangeKind } from './types.ts';
import { nextChange, type Waits } from './waits.ts';

/** Which kinds' non-public records the caller may read: all of them (editors), else none (the public's view). */
export async function seesOf(deps: Deps, ctx: RequestContext): Promise<Sees> {
  const caller = await deps.callers.resolve(ctx);
  const full = new Set<ChangeKind>(['category', 'tag']);
  for (const kind of ['event', 'venue', 'organizer'] as const) {
    const caps = deps.site.caps[kind] ?? {};
    if (can(caller, caps, 'edit_others_posts') && can(caller, caps, 'read_private_posts')) full.add(kind);
  }
  return (kind) => full.has(kind);
}

/** Where `since` starts: an initial sync for none or `0`; else the cursor, unless it is not ours (400) or too old (410). */
export async function cursorOf(
  store: ChangeStore,
  since: string | undefined,
  retentionDays: number,
): Promise<Cursor> {
  const epoch = await store.epoch();
  if (since === undefined || since === '' || since === '0') {
    return { epoch, pos: await store.head(), sync: { kind: 0, scan: '0' } };
  }
  const c = decodeCursor(since);
  if (!c) throw invalidParams({ since: 'since must be 0, or the next cursor of an answer of this feed.' });
  if (c.epoch !== epoch || (await store.expired(c.pos))) throw changesCursorExpired(retentionDays);
  return c;
}

/** The body of a page: its items, the cursor to go on from, and whether more is there now. */
export const bodyOf = (p: Page) => ({ items: p.items, next: encodeCursor(p.next), has_more: p.more });

/** How often a waiting reader looks at the log even without a word from `follow` (a lost wake-up costs this much). */
const RECHECK_MS = 1_000;

export function changesBindings(deps: Deps, waits: Waits): Binding[] {
  const retentionDays = (deps.changes?.retentionMs ?? 0) / 86_400_000;
  return [
    bind(
      changesRoutes.changes,
      async (i) => {
        const store = deps.changes;
        if (!store) throw internalError(i.ctx.requestId);
        const sees = await seesOf(deps, i.ctx);
        const limit = i.args.limit ?? 100;
        const tags = (k: ChangeKind, id: number) => tagsOf(k, id, store.taxonomy);
        const from = await cursorOf(store, i.args.since, retentionDays);
        let page = await readPage(store, from, limit, sees, i.site.apiRoot, tags);
        if (i.args.feed === 'longpoll' && page.items.length === 0 && !page.more) {
          const release = waits.enter(i.ctx.client);
          if (!release) throw tooManyChangeWaits(waits.max);
          try {
            const end = Date.now() + (i.args.timeout ?? 30) * 1000;
            // Changes this caller may not see wake it too: it reads on and waits again until its time is up.
            while (page.items.length === 0 && Date.now() < end && !i.ctx.signal.aborted) {
              await nextChange((l) => store.follow(l), Math.min(RECHECK_MS, end - Date.now()), i.ctx.signal);
              page = await readPage(store, page.next, limit, sees, i.site.apiRoot, tags);
            }
          } finally {
            release();
          }
        }
        return { body: bodyOf(page), headers: { 'cache-control': 'no-store' } };
      },
      // Never shared: each caller's view differs, and a cursor's answer changes as the log grows.
      { cache: false },
    ),
  ];
}
