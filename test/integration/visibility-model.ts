// The visibility matrix's model (visibility-matrix.test.ts): callers, statuses and owners, WordPress's read rules as
// an oracle, a GET as a caller (with a body when asked), and the checks every cell makes of an answer.
import { request } from 'node:http';
import { expect } from 'vitest';
import { type CallResult, call, type Role, type Target } from '../harness.ts';
import type { Json } from './fixtures.ts';

export type Caller = 'anonymous' | Role | 'wrong-password';
export type Status = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash' | 'protected';
export type Owner = 'contributor' | 'author' | 'editor';

export const CALLERS: Caller[] = [
  'anonymous',
  'subscriber',
  'contributor',
  'author',
  'editor',
  'admin',
  'wrong-password',
];
export const STATUSES: Status[] = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'protected'];
export const OWNERS: Owner[] = ['contributor', 'author', 'editor'];
export const STATES = [
  'cold',
  'warmed-by-admin',
  'warmed-by-anonymous',
  'after-invalidation',
  'get-body',
  'encoded',
] as const;
export type State = (typeof STATES)[number];
/** Linked-record statuses: a venue of each, linked from a public event. */
export const VENUE_STATUSES = ['publish', 'draft', 'pending', 'private', 'protected'] as const;

export interface Rec {
  id: number;
  slug: string;
  status: Status;
  owner: Owner;
  venue: number;
  organizer: number;
  category: string;
  tag: string;
  /** Words only in the description: seen only by who may read the content. */
  secret: string;
}
export interface VenueRec {
  id: number;
  status: (typeof VENUE_STATUSES)[number];
  event: number;
  secret: string;
}

export const signedIn = (c: Caller): c is Role => c !== 'anonymous' && c !== 'wrong-password';
export const editsOwn = (c: Caller) =>
  c === 'contributor' || c === 'author' || c === 'editor' || c === 'admin';
export const editsOthers = (c: Caller) => c === 'editor' || c === 'admin';

/** May `c` read a record of this status owned by `owner` (WordPress's `read_post`)? */
export function mayRead(c: Caller, status: Status | 'trash', owner: Owner): boolean {
  if (c === 'wrong-password') return false;
  if (status === 'publish' || status === 'protected') return true;
  if (status === 'trash') return false;
  if (editsOthers(c)) return true;
  return c === owner && editsOwn(c);
}

/** The statuses a list shows by default: every status to who may edit events, `publish` to everyone else. */
export const listed = (c: Caller, r: Rec) =>
  r.status !== 'trash' &&
  mayRead(c, r.status, r.owner) &&
  (editsOwn(c) || r.status === 'publish' || r.status === 'protected');

/**
 * Search matches a protected event only for signed-in callers (WordPress's rule for logged-out ones), and only by
 * what every list shows of it: a word of its title (`inTitle`), never one of its blanked description.
 */
export const searchable = (c: Caller, r: Rec, inTitle = true) =>
  listed(c, r) && (r.status !== 'protected' || (signedIn(c) && inTitle));

/** The password of every protected matrix event. */
export const PASSWORD = 'matrix-pw';

/**
 * Whether `c` sees a protected event's venue, organizers, terms and featured flag, which every list shows blanked
 * (issue 30, finding 2): WordPress opens it to who may edit it (editors and admins; an author its own, contributors
 * may not edit a published post) and to whoever sends its password (`password`). A filter, a count, `has_events` or
 * an `event=`/`post=` filter of a linked list matches it on those fields for these callers only.
 */
export const seesFull = (c: Caller, r: Rec, password = false) =>
  r.status !== 'protected' || password || editsOthers(c) || (c === 'author' && r.owner === 'author');

/** `has_events`: linked to an event the caller may read that is not a draft or pending, and whose links it sees. */
export const hasEvents = (c: Caller, r: Rec) =>
  listed(c, r) && ['publish', 'protected', 'future', 'private'].includes(r.status) && seesFull(c, r);

export const mayReadVenue = (c: Caller, v: VenueRec) =>
  v.status === 'protected' ? false : mayRead(c, v.status, 'author');

// ---- requests ---------------------------------------------------------------------------------------------------

export const authOf = (t: Target, c: Caller): Record<string, string> => {
  if (c === 'anonymous') return {};
  if (c === 'wrong-password')
    return { Authorization: `Basic ${Buffer.from('editor:wrong-password').toString('base64')}` };
  return { Authorization: t.auth[c] };
};

/** A GET as `c`, with a body when asked (fetch refuses one on GET, so node:http). */
export function getAs(t: Target, c: Caller, path: string, body?: string): Promise<CallResult<Json>> {
  if (body === undefined) return call<Json>(t, 'GET', path, { headers: authOf(t, c) });
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.api}${path}`,
      {
        method: 'GET',
        headers: {
          ...authOf(t, c),
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (ch: Buffer) => {
          text += ch;
        });
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: parsed as Json, headers });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The same query with its letters percent-encoded and its parameters in reverse order. */
export function encoded(path: string): string {
  const [p, q = ''] = path.split('?');
  const enc = (s: string) =>
    s.replace(/[a-z]/g, (ch, i: number) => (i % 2 ? `%${ch.charCodeAt(0).toString(16)}` : ch));
  const parts = q
    .split('&')
    .filter(Boolean)
    .reverse()
    .map((kv) => {
      const [k, v = ''] = kv.split('=');
      return `${enc(k)}=${enc(v)}`;
    });
  return `${p}?${parts.join('&')}`;
}

let invalidations = 0;
/** Fetches `path` as `c` in a cache state; the URL is unique to (caller, state, route) so states do not mix. */
export async function fetchInState(
  m: { t: Target; get: (c: Caller, path: string, body?: string) => Promise<CallResult<Json>>; recs: Rec[] },
  state: State,
  c: Caller,
  route: string,
): Promise<CallResult<Json>> {
  const { t, get, recs } = m;
  const sep = route.includes('?') ? '&' : '?';
  const path = `${route}${sep}_m=${c}-${state}`;
  switch (state) {
    case 'cold':
      return get(c, path);
    case 'warmed-by-admin':
      await get('admin', path);
      return get(c, path);
    case 'warmed-by-anonymous':
      await get('anonymous', path);
      return get(c, path);
    case 'after-invalidation': {
      await get('anonymous', path);
      // A write through the gateway drops every answer that showed a matrix event or list.
      const first = recs.find((r) => r.status === 'publish');
      if (first) {
        invalidations++;
        await call(t, 'PATCH', `/events/${first.id}`, {
          as: 'admin',
          body: { excerpt: `Edit ${invalidations}` },
        });
      }
      return get(c, path);
    }
    case 'get-body':
      await get('anonymous', path, JSON.stringify({ status: 'any', search: '', per_page: 1, password: 'x' }));
      return get(
        c,
        path,
        JSON.stringify({ status: 'any', include: recs.map((r) => r.id).join(','), context: 'edit' }),
      );
    case 'encoded':
      await get('anonymous', path);
      return get(c, encoded(path));
  }
}

// ---- checks ---------------------------------------------------------------------------------------------------

export const idsIn = (res: CallResult<Json>, key: string): number[] =>
  ((res.body?.[key] as Array<{ id: number }> | undefined) ?? []).map((x) => x.id);

/** Nothing of a record the caller may not read: not its id, title token or secret words. */
export function expectNothingOf(res: CallResult<Json>, hidden: Rec[], label: string): void {
  const text = JSON.stringify(res.body);
  for (const r of hidden) {
    expect(text, `${label}: secret of ${r.status}/${r.owner}`).not.toContain(r.secret);
  }
}

export function expectWrongPassword(res: CallResult<Json>, label: string): void {
  expect(res.status, label).toBe(401);
  expect(res.body.code, label).toBe('incorrect_password');
}

/** A list answer: exactly `expected` ids, total and pages counted over them alone, no hidden secret anywhere. */
export function expectList(res: CallResult<Json>, key: string, expected: number[], label: string): void {
  expect(res.status, `${label} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
  expect(idsIn(res, key).sort(), label).toEqual([...expected].sort());
  expect(Number(res.headers.get('x-tec-total')), label).toBe(expected.length);
  expect(res.body.total, label).toBe(expected.length);
}
