// Nested venues and organizers on event writes: ids are checked, objects are created (reusing duplicates).

import { tag } from '../cache/tags.ts';
import type { RequestContext } from '../context.ts';
import { linkedWriteArgs } from '../contract/linked.ts';
import type { Deps } from '../deps.ts';
import { FORMATS } from '../formats.ts';
import { type ApiError, couldNot, invalidParams, notALinkedPost } from '../http/errors.ts';
import { parseArgs } from '../http/parse-args.ts';
import { findDuplicate, valuesOf } from '../linked/write.ts';
import { type FieldValue, writeRecord } from '../mapping/codec.ts';
import { resolveImage } from '../media/sideload.ts';
import type { Caller } from '../wp/caller.ts';
import { draftSlug } from '../wp/slug.ts';
import { createPost, mayHaveWritten, type Undo } from '../write/undo.ts';

export type LinkedKind = 'venue' | 'organizer';

const NAME: Record<LinkedKind, string> = { venue: 'venue', organizer: 'organizer' };
const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || v === 0 || v === '0' || (Array.isArray(v) && v.length === 0);

/** Splits the raw `venue`/`organizer` value into ids and objects to create. */
export function linkedItems(kind: LinkedKind, raw: unknown): Array<number | Record<string, unknown>> {
  if (isEmpty(raw)) return [];
  const items = Array.isArray(raw)
    ? raw
    : typeof raw === 'string' && raw.includes(',')
      ? raw.split(',')
      : typeof raw === 'object' &&
          raw !== null &&
          !Array.isArray(raw) &&
          !(NAME[kind] in raw) &&
          !('id' in raw)
        ? Object.values(raw) // form bodies: organizer[0][organizer]=…
        : [raw];
  return items
    .filter((x) => !isEmpty(x))
    .map((x) => {
      if (Number.isInteger(x) || (typeof x === 'string' && /^\d+$/.test(x.trim()))) return Number(x);
      if (typeof x === 'object' && x !== null && !Array.isArray(x)) return x as Record<string, unknown>;
      throw invalidParams({ [kind]: `${kind} must be an id, or an object with the ${kind}'s fields.` });
    });
}

async function existing(deps: Deps, kind: LinkedKind, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const service = !!deps.wp.options.serviceAuth;
  const res = await deps.wp.list<{ id: number }>({
    path: `/wp/v2/${deps.mapping[kind].restBase}`,
    query: { include: ids, per_page: 100, _fields: 'id', status: service ? 'any' : undefined },
    as: service ? 'service' : 'anonymous',
  });
  return new Set(res.items.map((x) => x.id));
}

/**
 * TEC validates a nested object against the venue/organizer create arguments, and creates it with the same rules as
 * POST /venues and /organizers; so do we, with the same argument definitions and the same value builder.
 */
function nestedValues(
  deps: Deps,
  kind: LinkedKind,
  obj: Record<string, unknown>,
  canPublish: boolean,
): Record<string, FieldValue> {
  const parsed = parseArgs(linkedWriteArgs(kind, false), obj, FORMATS);
  if (!parsed.ok) {
    const why =
      'missing' in parsed
        ? `${parsed.missing.join(', ')} missing`
        : parsed.invalid.map((i) => i.message).join(' ');
    throw invalidParams({ [kind]: `The new ${kind} was refused: ${why}` });
  }
  return valuesOf(kind, parsed.args as Record<string, unknown>, {
    canPublish,
    create: true,
    timezone: deps.site.timezone,
    now: deps.now(),
  });
}

/** Resolves the linked ids of an event write, creating what the caller described; records creations in `undo`. */
export async function resolveLinked(
  deps: Deps,
  ctx: RequestContext,
  caller: Caller,
  kind: LinkedKind,
  raw: unknown,
  status: string,
  undo: Undo,
): Promise<number[]> {
  const items = linkedItems(kind, raw);
  const plainIds = items.filter((x): x is number => typeof x === 'number');
  const objectIds = items
    .filter((x): x is Record<string, unknown> => typeof x === 'object' && 'id' in x && !isEmpty(x.id))
    .map((x) => Number(x.id));
  const known = await existing(deps, kind, [...plainIds, ...objectIds]);
  const missing = plainIds.filter((id) => !known.has(id));
  if (missing.length)
    throw invalidParams({ [kind]: `${kind} has no ${kind} with the id ${missing.join(', ')}.` });
  if (objectIds.some((id) => !Number.isInteger(id) || !known.has(id))) {
    throw notALinkedPost(kind);
  }
  const ids: number[] = [];
  for (const item of items) {
    if (typeof item === 'number') ids.push(item);
    else if ('id' in item && !isEmpty(item.id)) ids.push(Number(item.id));
    else ids.push(await createLinked(deps, ctx, caller, kind, item, status, undo));
  }
  return [...new Set(ids)];
}

async function createLinked(
  deps: Deps,
  ctx: RequestContext,
  caller: Caller,
  kind: LinkedKind,
  obj: Record<string, unknown>,
  status: string,
  undo: Undo,
): Promise<number> {
  const name = obj[NAME[kind]];
  if (name === undefined || name === null || String(name).trim() === '') {
    throw couldNot('create', kind, 'its name is missing', 400, {
      params: { [kind]: `Each new ${kind} needs its ${NAME[kind]}.` },
    });
  }
  // Nested records take the event's status rule: published for publishers, drafts otherwise.
  const values = nestedValues(deps, kind, obj, status === 'publish');
  const slug = draftSlug(values[kind], status, values.slug);
  if (slug) values.slug = slug;
  // The same rule as POST /venues and /organizers: an existing (untrashed) one with the same name and fields.
  const dup = findDuplicate(kind, (await deps.catalog.all(kind, ctx.language)).values(), values);
  if (dup) return dup.id;
  if (typeof obj.image === 'string') {
    const image = await resolveImage(deps, ctx, caller, kind, obj.image.trim(), undo);
    if (image !== undefined) values.image = image;
  }
  const body = { ...writeRecord(deps.mapping, kind, values), status };
  const res = await createPost(deps, ctx, undo, deps.mapping[kind].restBase, body).catch((err: unknown) => {
    // WordPress away is not an argument error: the write is refused as a whole (502/503/504).
    if (mayHaveWritten(err)) throw err;
    const e = err as ApiError;
    throw couldNot('create', kind, e.message, 400, { params: { [kind]: e.message } });
  });
  // The next duplicate check (another event of this write or the next one) must see it.
  deps.catalog.invalidate(kind, [res.body.id]);
  // A new venue or organizer is in its kind's lists: the event's own write tags do not say so (src/cache/tags.ts).
  // A new record hides nothing: a soft drop (src/cache/soft.ts).
  await deps.cache?.invalidate([tag.list(kind), `${kind}:${res.body.id}`], { soft: true });
  return res.body.id;
}
