// A wp/v2 write that went through the gateway's own proxy, told as the companion plugin's notification would tell it.
import type { Mapping } from '../mapping/schema.ts';
import type { Change } from './notify.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * `/wp-json/wp/v2/<rest_base>[/<id>]` on the default or a language root; the rest of the path (`/autosaves`) no, but
 * an attachment's `/post-process` (its image sizes made again) yes.
 */
const WP_V2_RECORD = /^\/(?:[a-z]{2}\/)?wp-json\/wp\/v2\/([\w-]+)(?:\/(\d+)(\/post-process)?)?\/?(?:\?|$)/i;

/** WordPress's batch route (5.6+): its sub-requests' writes are applied one by one (src/cache/proxied-batch.ts). */
const BATCH = /^\/(?:[a-z]{2}\/)?wp-json\/batch\/v1\/?(?:\?|$)/i;

/** WordPress's general settings (`/wp/v2/settings`): its title and time zone are in the calendar's answers. */
const SETTINGS = /^\/(?:[a-z]{2}\/)?wp-json\/wp\/v2\/settings\/?(?:\?|$)/i;

/** Whether a request writes the site's settings (src/site/refresh.ts reads them again after it). Pure. */
export const isSettingsWrite = (method: string, url: string): boolean =>
  WRITES.has(method) && method !== 'DELETE' && SETTINGS.test(url);

/** `/wp/v2/users/<id>` or `/wp/v2/users/me`. */
const USER = /^\/(?:[a-z]{2}\/)?wp-json\/wp\/v2\/users\/(\d+|me)\/?(?:\?|$)/i;

/**
 * A user delete: `{id}` when the path names it, `{}` for `users/me`, undefined for any other request. Records show
 * their author, and a deleted user's posts change hands or go (src/site/refresh.ts). Pure.
 */
export function userDeleteOf(method: string, url: string): { id?: number } | undefined {
  const m = method === 'DELETE' ? USER.exec(url) : null;
  if (!m) return undefined;
  return m[1] === 'me' ? {} : { id: Number(m[1]) };
}

/** Whether a request is a batch of writes: its body must be read to tell what they were. Pure. */
export const isBatch = (method: string, url: string): boolean => method === 'POST' && BATCH.test(url);

/** Attachments: events, venues and organizers show them as their `image` (planOf drops the answers showing one). */
const MEDIA = { kind: 'post', type: 'attachment' } as const;

/**
 * The method WordPress's REST server acts on: `?_method=` or `X-HTTP-Method-Override` replace the request's own,
 * whatever it is (WP_REST_Server::serve_request), so a GET can be a DELETE. Pure.
 */
export function effectiveMethod(
  method: string,
  url: string,
  override: string | string[] | undefined,
): string {
  const q = url.indexOf('?');
  const param = q === -1 ? null : new URLSearchParams(url.slice(q + 1)).get('_method');
  const header = Array.isArray(override) ? override[0] : override;
  return (param ?? header ?? method).toUpperCase();
}

/** The post types and taxonomies the mapping reads, by their wp/v2 rest_base. */
function kindsOf(mapping: Mapping): Map<string, Pick<Change, 'kind' | 'type'>> {
  const out = new Map<string, Pick<Change, 'kind' | 'type'>>();
  for (const r of [mapping.event, mapping.venue, mapping.organizer]) {
    out.set(r.restBase, { kind: 'post', type: r.postType });
  }
  for (const t of [mapping.event.categories, mapping.event.tags]) {
    if (t) out.set(t.restBase, { kind: 'term', type: t.taxonomy });
  }
  out.set('media', MEDIA);
  return out;
}

/** Whether a request may be a write to a mapped record: its answer must then be read before it is passed on. Pure. */
export function isMappedWrite(mapping: Mapping, method: string, url: string): boolean {
  if (!WRITES.has(method)) return false;
  if (isBatch(method, url) || isSettingsWrite(method, url) || userDeleteOf(method, url)) return true;
  const m = WP_V2_RECORD.exec(url);
  return !!m && kindsOf(mapping).has(m[1]!) && (!m[3] || m[1] === 'media');
}

/**
 * The change a successful write made, or undefined (not a mapped record, refused, no id): the id comes from the
 * path (update, delete) or from WordPress's answer (create). Pure.
 */
export function changeOfWrite(
  mapping: Mapping,
  method: string,
  url: string,
  status: number,
  body: unknown,
): Change | undefined {
  if (!WRITES.has(method) || status < 200 || status >= 300) return undefined;
  const m = WP_V2_RECORD.exec(url);
  const kind = m && kindsOf(mapping).get(m[1]!);
  if (!m || !kind || (m[3] && kind !== MEDIA)) return undefined;
  const answered = (body as { id?: unknown; previous?: { id?: unknown } } | null) ?? {};
  const id = m[2] !== undefined ? Number(m[2]) : (answered.id ?? answered.previous?.id);
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return undefined;
  const action = method === 'DELETE' ? 'delete' : kind.kind === 'term' ? 'edit' : 'save';
  return { ...kind, id, action };
}
