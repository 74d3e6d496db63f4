// One page of the changes feed for one caller: the cursor, an initial sync from the ledger, then the log's entries as
// that caller may see them (a record leaving their view is a deletion to them, one entering it a creation).
import { restUrlOf } from './ledger.ts';
import { KINDS } from './recorder.ts';
import type { ChangeStore } from './store.ts';
import { isStreamId } from './store.ts';
import type { ChangeAction, ChangeKind, LoggedChange } from './types.ts';

/** What the feed answers of one change. */
export interface FeedItem {
  kind: ChangeKind;
  id: number;
  action: ChangeAction;
  /** `null` in an initial sync for a category or tag (terms have no modified date). */
  modified_utc: string | null;
  rest_url: string;
  tags: string[];
}

/** Where a reader is: the log's position, and in an initial sync which kind's ledger and where in it. */
export interface Cursor {
  epoch: string;
  pos: string;
  sync?: { kind: number; scan: string };
}

export function encodeCursor(c: Cursor): string {
  const parts = [c.epoch, c.pos, ...(c.sync ? [String(c.sync.kind), c.sync.scan] : [])];
  return Buffer.from(parts.join('.')).toString('base64url');
}

/** A cursor as the feed made it, or undefined (not one of ours). */
export function decodeCursor(s: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(s)) return undefined;
  const parts = Buffer.from(s, 'base64url').toString('utf8').split('.');
  const [epoch, pos, kind, scan] = parts;
  if (!epoch || !/^[A-Za-z0-9_-]+$/.test(epoch) || !pos || !isStreamId(pos)) return undefined;
  if (parts.length === 2) return { epoch, pos };
  if (parts.length !== 4 || !/^\d$/.test(kind!) || Number(kind) >= KINDS.length || !/^\d+$/.test(scan!))
    return undefined;
  return { epoch, pos, sync: { kind: Number(kind), scan: scan! } };
}

/** Whether a caller sees the records of a kind that the public does not (drafts, private, protected). */
export type Sees = (kind: ChangeKind) => boolean;

/**
 * A logged change as one caller sees it, or null when it is none of theirs. For a caller who does not see a kind's
 * non-public records: public → not public is a deletion, not public → public a creation, never public nothing. Pure.
 */
export function viewOf(c: LoggedChange, sees: Sees, apiRoot: string): FeedItem | null {
  let action = c.action;
  if (!sees(c.kind)) {
    const was = c.was_public ?? c.public;
    if (!was && !c.public) return null;
    if (was && !c.public) action = 'deleted';
    else if (!was && c.public) action = 'created';
  }
  return {
    kind: c.kind,
    id: c.id,
    action,
    modified_utc: c.modified_utc,
    rest_url: restUrlOf(apiRoot, c.kind, c.id),
    tags: c.tags,
  };
}

export interface Page {
  items: FeedItem[];
  next: Cursor;
  /** Whether more is there to read right now (a reader goes on at once instead of waiting). */
  more: boolean;
}

/** How many log entries one page may pass over for a caller who sees few of them, per item asked for. */
const SCAN_FACTOR = 10;

export async function readPage(
  store: ChangeStore,
  from: Cursor,
  limit: number,
  sees: Sees,
  apiRoot: string,
  tagsOf: (kind: ChangeKind, id: number) => string[],
): Promise<Page> {
  if (from.sync) return syncPage(store, from, limit, sees, apiRoot, tagsOf);
  const items: FeedItem[] = [];
  let pos = from.pos;
  let scanned = 0;
  let more = false;
  while (items.length < limit && scanned < limit * SCAN_FACTOR) {
    const batch = await store.read(pos, limit);
    scanned += batch.length;
    for (const c of batch) {
      pos = c.cursor;
      const item = viewOf(c, sees, apiRoot);
      if (item) items.push(item);
      if (items.length === limit) break;
    }
    more = batch.length === limit;
    if (!more) break;
  }
  // Stopped early with a full page: whether more follows is only known by looking.
  if (more && items.length === limit) more = (await store.read(pos, 1)).length > 0;
  return { items, next: { epoch: from.epoch, pos }, more };
}

/** An initial sync: every record the caller may see now, from the ledger, kind by kind (no deletions). */
async function syncPage(
  store: ChangeStore,
  from: Cursor,
  limit: number,
  sees: Sees,
  apiRoot: string,
  tagsOf: (kind: ChangeKind, id: number) => string[],
): Promise<Page> {
  const items: FeedItem[] = [];
  let { kind, scan } = from.sync!;
  while (kind < KINDS.length && items.length < limit) {
    const k = KINDS[kind]!;
    const page = await store.scan(k, scan, limit - items.length);
    for (const [id, state] of page.entries) {
      const [v, order, pub] = state.split('|');
      if (v === '-' || (pub !== '1' && !sees(k))) continue;
      items.push({
        kind: k,
        id,
        action: 'created',
        modified_utc: order || null,
        rest_url: restUrlOf(apiRoot, k, id),
        tags: tagsOf(k, id),
      });
    }
    scan = page.next;
    if (scan === '0') kind++;
  }
  const done = kind >= KINDS.length;
  return {
    items,
    next: done ? { epoch: from.epoch, pos: from.pos } : { ...from, sync: { kind, scan } },
    more: true,
  };
}
