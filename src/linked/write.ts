// POST/PUT/PATCH/DELETE on venues and organizers: TEC's rules over wp/v2, with the caller's own credentials.
import { softChange } from '../cache/soft.ts';
import type { RequestContext } from '../context.ts';
import type { LinkedKind } from '../contract/linked.ts';
import { organizerRecord, sentAsIsOf, textFieldsOf, venueRecord } from '../contract/records.ts';
import { publicationDate } from '../dates/index.ts';
import type { Deps } from '../deps.ts';
import { coordinatesSent } from '../geo/venue-write.ts';
import { ApiError, couldNot, forbidden, linkedInTrash, linkedNotAccessible } from '../http/errors.ts';
import { type FieldValue, readRecord, writeRecord } from '../mapping/codec.ts';
import { resolveImage } from '../media/sideload.ts';
import type { Json, SiteInfo } from '../serialize/index.ts';
import type { Caller } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import { refusal, trashFailed } from '../wp/errors.ts';
import { draftSlug } from '../wp/slug.ts';
import type { WpPost } from '../wp/types.ts';
import { mayPublish, requireCaller, requireEditor } from '../write/caller.ts';
import { scaleStatus } from '../write/status.ts';
import { createPost, newUndo, type Undo, undoing } from '../write/undo.ts';
import type { LinkedFacets } from './catalog.ts';
import { mediaOf, readPost, requireId, serialize } from './read.ts';

/** Text fields a write may carry per kind (besides status, author, dates, image and the flags). */
export const TEXT_FIELDS: Record<LinkedKind, string[]> = {
  venue: textFieldsOf(venueRecord),
  organizer: textFieldsOf(organizerRecord),
};
/** What a write stores as sent per kind: names, texts, addresses, contacts, flags, author. */
const SENT: Record<LinkedKind, string[]> = {
  venue: sentAsIsOf(venueRecord),
  organizer: sentAsIsOf(organizerRecord),
};
const US = new Set(['', 'US', 'USA', 'United States', 'United States of America']);

/** TEC stores `_VenueStateProvince` as the State for US (or no) country, else the Province. Pure. */
export function stateProvinceOf(v: { country?: string; state?: string; province?: string }): string {
  return US.has((v.country ?? '').trim()) ? (v.state ?? '') : (v.province ?? '');
}

/** The calendar values of a write: only the arguments that were sent. Pure apart from the clock. */
export function valuesOf(
  kind: LinkedKind,
  a: Record<string, unknown>,
  opts: {
    canPublish: boolean;
    create: boolean;
    /** UPDATE_SEMANTICS=replace: an omitted status is scaled as on create, as TEC's update does. */
    replace?: boolean;
    current?: Record<string, FieldValue>;
    timezone: string;
    now: Date;
  },
): Record<string, FieldValue> {
  const v: Record<string, FieldValue> = {};
  // The arguments are parsed already: each is of its field's type.
  for (const f of SENT[kind]) if (a[f] !== undefined && a[f] !== null) v[f] = a[f] as FieldValue;
  // `image` is resolved by the caller of valuesOf (resolveImage): an id is checked, a URL is uploaded.
  if (a.status !== undefined || opts.create || opts.replace)
    v.status = scaleStatus(a.status as string | undefined, opts.canPublish);
  if (kind === 'venue') Object.assign(v, coordinatesSent(a));
  if (a.date !== undefined) v.date = publicationDate(a.date, opts.timezone, opts.now, 'date');
  if (a.date_utc !== undefined) v.date_utc = publicationDate(a.date_utc, 'UTC', opts.now, 'date_utc');
  if (
    kind === 'venue' &&
    v.stateprovince === undefined &&
    ['country', 'state', 'province'].some((f) => f in v)
  ) {
    const merged = { ...opts.current, ...v } as Record<string, FieldValue>;
    const s = (k: string) => (merged[k] == null ? '' : String(merged[k]));
    v.stateprovince = stateProvinceOf({ country: s('country'), state: s('state'), province: s('province') });
  }
  return v;
}

/** TEC reuses an existing post (not trashed) whose name and every text field sent are the same. Pure. */
export function findDuplicate(
  kind: LinkedKind,
  items: Iterable<LinkedFacets>,
  values: Record<string, FieldValue>,
): LinkedFacets | undefined {
  const sent = TEXT_FIELDS[kind].filter((f) => f !== 'stateprovince' && typeof values[f] === 'string');
  // MySQL's default collation compares case-insensitively, and TEC's duplicate query relies on it.
  const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  const matches: LinkedFacets[] = [];
  for (const x of items) {
    if (x.status === 'trash') continue;
    if (sent.every((f) => norm(x.values[f]) === norm(String(values[f])))) matches.push(x);
  }
  return matches.sort((p, q) => p.id - q.id)[0];
}

/** A venue or organizer as the public sees it or not (src/cache/soft.ts). */
const viewOf = (post: WpPost) => ({ status: post.status, protected: !!post.password });

/**
 * `before`: the post as it was (undefined for a create). The drop is soft unless the write took the record out of
 * public view (a trash, an unpublish, a password set).
 */
async function respond(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  kind: LinkedKind,
  post: WpPost,
  status: number,
  before?: WpPost,
) {
  deps.catalog.invalidate(kind, [post.id]);
  const body: Json = serialize(deps, kind, post, await mediaOf(deps, ctx, [post]), site, 'write');
  return { status, body, soft: softChange(before && viewOf(before), viewOf(post)) };
}

const failed = (kind: LinkedKind, verb: 'create' | 'update', err: unknown) => {
  const mapped = refusal(err, true);
  // A refusal about one argument (an unknown author) is that argument's error; one about none is TEC's code.
  if (mapped instanceof ApiError && mapped.status === 400 && mapped.code !== 'rest_invalid_param') {
    return couldNot(verb, kind, mapped.message);
  }
  return mapped;
};

export async function createLinked(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  kind: LinkedKind,
  a: Record<string, unknown>,
) {
  const caller = await requireEditor(deps, ctx, kind);
  // TEC scales venue and organizer statuses with the *event* post type's publish capability.
  const canPublish = mayPublish(deps, caller);
  const values = valuesOf(kind, a, {
    canPublish,
    create: true,
    timezone: deps.site.timezone,
    now: deps.now(),
  });
  deps.catalog.invalidate(kind);
  const found = findDuplicate(kind, (await deps.catalog.all(kind, ctx.language)).values(), values);
  // A duplicate that another write made and may still undo is not offered: its rollback would delete the record
  // this answer names. Such a create makes its own instead (an event write claims what it reuses: Undo.claim).
  const dup =
    found && !(await deps.undo?.pending(deps.mapping[kind].restBase))?.has(found.id) ? found : undefined;
  if (dup) {
    // Only a duplicate the caller may read is reused; the service view never answers a caller.
    const post = await readPost(deps, ctx, kind, dup.id, { context: 'edit' })
      .catch(() => readPost(deps, ctx, kind, dup.id))
      .catch(() => undefined);
    if (post) return respond(deps, ctx, site, kind, post, 201);
  }
  const slug = draftSlug(values[kind], values.status, values.slug);
  if (slug) values.slug = slug;
  return write(deps, ctx, caller, kind, a, values, 'create', async (undo) => {
    const record = writeRecord(deps.mapping, kind, values);
    const res = await createPost(deps, ctx, undo, deps.mapping[kind].restBase, record);
    return respond(deps, ctx, site, kind, res.body, 201);
  });
}

/**
 * A venue or organizer write: the image sideloaded first (a refused image is an argument error, as in TEC's
 * validation, so it skips the write's own error mapping), then `send`; a failure removes what either made.
 */
async function write<T>(
  deps: Deps,
  ctx: RequestContext,
  caller: Caller,
  kind: LinkedKind,
  a: Record<string, unknown>,
  values: Record<string, FieldValue>,
  verb: 'create' | 'update',
  send: (undo: Undo) => Promise<T>,
  target?: number,
): Promise<T> {
  const undo = newUndo(deps);
  // An update's image stays when its answer is lost (WordPress may have saved it).
  if (target !== undefined) undo.target = { restBase: deps.mapping[kind].restBase, id: target };
  let sideloaded = false;
  return undoing(
    deps,
    ctx,
    undo,
    async () => {
      // `image`: an id must be an image attachment, a URL becomes an uploaded attachment (recorded in `undo`).
      if (typeof a.image === 'string') {
        const image = await resolveImage(deps, ctx, caller, kind, a.image, undo);
        if (image !== undefined) values.image = image;
      }
      sideloaded = true;
      return send(undo);
    },
    { map: (err) => (sideloaded ? failed(kind, verb, err) : err) },
  );
}

/** The current post as its editor sees it; refusals are `rest_forbidden` (TEC checks `edit_post` first). */
async function current(deps: Deps, ctx: RequestContext, kind: LinkedKind, id: number): Promise<WpPost> {
  return readPost(deps, ctx, kind, id, { context: 'edit' }).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === linkedNotAccessible(kind, id).code) throw forbidden(true);
    throw err;
  });
}

/** TEC's values for what a venue or organizer update omits (tec-contract.md §5), where the mapping stores them. */
function replacedLinked(deps: Deps, kind: LinkedKind): Record<string, unknown> {
  const fields = deps.mapping[kind].fields as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of ['show_map', 'show_map_link']) if (kind === 'venue' && fields[f]) out[f] = true;
  if (fields.image) out.image = '';
  return out;
}

const definedOf = (a: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined));

export async function updateLinked(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  kind: LinkedKind,
  id: number,
  a: Record<string, unknown>,
) {
  await requireId(deps, ctx, kind, id);
  const caller = await requireCaller(deps, ctx);
  const post = await current(deps, ctx, kind, id);
  const canPublish = mayPublish(deps, caller);
  const replace = deps.updateSemantics === 'replace';
  // UPDATE_SEMANTICS=replace: what TEC's update does with an omitted map flag (true), image (removed) and status.
  const args = replace ? { ...replacedLinked(deps, kind), ...definedOf(a) } : a;
  const values = valuesOf(kind, args, {
    canPublish,
    create: false,
    replace,
    current: readRecord(deps.mapping, kind, post) as Record<string, FieldValue>,
    timezone: deps.site.timezone,
    now: deps.now(),
  });
  return write(
    deps,
    ctx,
    caller,
    kind,
    args,
    values,
    'update',
    async () => {
      const res = await deps.wp.update<WpPost>({
        path: `/wp/v2/${deps.mapping[kind].restBase}/${id}`,
        method: 'POST',
        body: writeRecord(deps.mapping, kind, values),
        ...asCaller(ctx),
      });
      return respond(deps, ctx, site, kind, res.body, 200, post);
    },
    id,
  );
}

export async function deleteLinked(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  kind: LinkedKind,
  id: number,
) {
  await requireId(deps, ctx, kind, id);
  await requireCaller(deps, ctx);
  const post = await current(deps, ctx, kind, id);
  if (post.status === 'trash') throw linkedInTrash(kind, id);
  try {
    const res = await deps.wp.request<WpPost>({
      path: `/wp/v2/${deps.mapping[kind].restBase}/${id}`,
      method: 'DELETE',
      ...asCaller(ctx),
    });
    return await respond(deps, ctx, site, kind, res.body, 200, post);
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'rest_already_trashed' || err.status === 410))
      throw linkedInTrash(kind, id);
    if (trashFailed(err)) throw couldNot('delete', kind, undefined, 500);
    throw refusal(err, true);
  }
}
