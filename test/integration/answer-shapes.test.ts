// Every answer of the calendar namespace, for every caller, record kind, read, write and delete (`_fields` and
// `_envelope` too): TEC's keys come first and in TEC's order, ours after them; no internal key of the gateway (its
// write token) in any of them; /doc's record schemas in the same order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, openTarget, type Role, type Target } from '../harness.ts';
import { guard } from '../slack.ts';
import { inOrder, TEC_EMBEDDED_TERM, TEC_EVENT, TEC_KEYS_OF } from '../support/tec-keys.ts';
import { editUpstream, type Json, monthOf, token } from './fixtures.ts';

type Kind = keyof typeof TEC_KEYS_OF;
type Caller = 'anonymous' | 'editor' | 'admin';

interface Answer {
  label: string;
  method: string;
  path: string;
  res: CallResult;
}

const tok = token();
const day = monthOf(2036, 10);
const WINDOW = 'start_date=2036-10-01&end_date=2036-10-31';
/** Fields asked in another order than the record's: WordPress keeps the record's order. */
const EVENT_FIELDS = 'json_ld,event_status,custom_fields,featured,categories,title,id';

let t: Target;
const answers: Answer[] = [];
const cleanup: Array<[string, string]> = [];

async function record(
  label: string,
  method: string,
  path: string,
  as?: Role,
  body?: Json,
): Promise<CallResult> {
  const res = await call(t, method, path, { as, body });
  answers.push({ label: `${label}: ${method} ${path}`, method, path, res });
  return res;
}

async function create(kind: string, body: Json, as: Role = 'admin'): Promise<Json> {
  const res = await record(`${as} creates`, 'POST', `/${kind}`, as, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  cleanup.push([kind, String(res.body.id)]);
  return res.body;
}

const withQuery = (path: string, q: string): string => `${path}${path.includes('?') ? '&' : '?'}${q}`;

beforeAll(async () => {
  t = await openTarget();
  const cat = await create('categories', { name: `Cat ${tok}`, description: 'A category.' });
  const tag = await create('tags', { name: `Tag ${tok}` }, 'editor');
  const event = await create('events', {
    title: `Shapes ${tok}`,
    description: '<p>First line.<br />\nSecond line.</p>',
    start_date: day(3),
    end_date: day(3, '12:00:00'),
    venue: { venue: `Hall ${tok}`, city: 'Valencia', address: 'Muelle 1' },
    organizer: [{ organizer: `Org ${tok}`, email: 'org@example.com' }],
    categories: [cat.id],
    tags: [tag.id],
    event_status: 'postponed',
    event_status_reason: 'Storm',
    cost: '15',
    website: 'https://example.com/shapes',
  });
  const venue = event.venue as Json;
  const organizer = (event.organizer as Json[])[0] as Json;
  cleanup.push(['venues', String(venue.id)], ['organizers', String(organizer.id)]);
  const hidden = await create('events', {
    title: `Protected ${tok}`,
    start_date: day(4),
    end_date: day(4, '11:00'),
  });
  await editUpstream(t, hidden.id as number, { password: 'secret' });

  const reads = [
    `/events?${WINDOW}`,
    `/events/${event.id}`,
    `/events/by-slug/${event.slug}`,
    `/events/${hidden.id}?password=secret`,
    `/venues?search=${tok}`,
    `/venues/${venue.id}`,
    `/venues/by-slug/${venue.slug}`,
    `/organizers?search=${tok}`,
    `/organizers/${organizer.id}`,
    `/organizers/by-slug/${organizer.slug}`,
    `/categories?search=${tok}&hide_empty=false`,
    `/categories/${cat.id}`,
    `/tags?search=${tok}&hide_empty=false`,
    `/tags/${tag.id}`,
  ];
  const callers: Array<[Caller, string]> = [
    ['anonymous', ''],
    ['editor', ''],
    ['admin', ''],
    ['editor', 'context=edit'],
    ['admin', 'context=edit'],
  ];
  for (const [caller, q] of callers) {
    const as = caller === 'anonymous' ? undefined : caller;
    for (const path of reads) await record(caller, 'GET', q ? withQuery(path, q) : path, as);
  }
  for (const path of reads) {
    const fields = path.startsWith('/events')
      ? EVENT_FIELDS
      : 'urls,meta,name,id,website,venue,organizer,global_id';
    await record('anonymous _fields', 'GET', withQuery(path, `_fields=${fields}`));
    await record('admin _envelope', 'GET', withQuery(path, '_envelope=1'), 'admin');
  }

  // The namespace index, /doc and the feeds, to an admin.
  for (const path of ['', '/doc', `/events.ics?${WINDOW}`, `/events/${event.id}.ics`])
    await record('admin', 'GET', path, 'admin');
  // Served from the cache: the same lists again.
  for (const path of reads.filter((p) => !/\/\d+|by-slug/.test(p)))
    await record('anonymous again', 'GET', path);
  // Writes by callers who may not manage terms: a contributor's event with a new venue, organizer and tag name (the
  // companion plugin keeps the token out of what they may not edit), an author's refused term create.
  const drafted = await create(
    'events',
    {
      title: `Draft ${tok}`,
      start_date: day(6),
      end_date: day(6, '11:00'),
      venue: { venue: `Draft hall ${tok}` },
      organizer: [{ organizer: `Draft org ${tok}` }],
      tags: [`drafttag${tok}`],
    },
    'contributor',
  );
  const draftVenue = drafted.venue as Json;
  if (draftVenue?.id) cleanup.push(['venues', String(draftVenue.id)]);
  for (const o of (drafted.organizer as Json[]) ?? []) cleanup.push(['organizers', String(o.id)]);
  for (const tg of (drafted.tags as Json[]) ?? []) cleanup.push(['tags', String(tg.id)]);
  await record('author refused', 'POST', '/tags', 'author', { name: `Refused ${tok}` });
  await record('contributor reads', 'GET', `/events/${drafted.id}?context=edit`, 'contributor');

  // Updates, then deletes of throwaway records (answers as they were), by an admin and an editor.
  await record('admin updates', 'POST', `/categories/${cat.id}`, 'admin', { description: 'Changed.' });
  await record('editor updates', 'POST', `/tags/${tag.id}`, 'editor', { description: 'Changed.' });
  await record('editor updates', 'POST', `/events/${event.id}`, 'editor', { title: `Shapes ${tok} 2` });
  await record('admin updates', 'POST', `/venues/${venue.id}`, 'admin', { city: 'Alicante' });
  await record('admin updates', 'POST', `/organizers/${organizer.id}`, 'admin', { phone: '+34 600' });
  const gone: Array<[string, Json, Role]> = [
    ['categories', { name: `Gone cat ${tok}` }, 'admin'],
    ['tags', { name: `Gone tag ${tok}` }, 'editor'],
    [
      'events',
      {
        title: `Gone ${tok}`,
        start_date: day(5),
        end_date: day(5, '11:00'),
        categories: [cat.id],
        tags: [tag.id],
      },
      'admin',
    ],
    ['venues', { venue: `Gone hall ${tok}` }, 'admin'],
    ['organizers', { organizer: `Gone org ${tok}` }, 'editor'],
  ];
  for (const [kind, body, as] of gone) {
    const made = await create(kind, body, as);
    const res = await record(`${as} deletes`, 'DELETE', `/${kind}/${made.id}`, as);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}, guard(240_000));

afterAll(async () => {
  for (const [kind, id] of cleanup.reverse())
    await call(t, 'DELETE', `/${kind}/${id}`, { as: 'admin' }).catch(() => undefined);
  await t?.close();
});

const LIST_KEY: Record<string, Kind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
  categories: 'categories',
  tags: 'tags',
};

/** The records of an answer with their kind: the route's own, and those an event embeds. */
function recordsOf(a: Answer): Array<{ kind: Kind | 'embedded-term'; rec: Json; where: string }> {
  if (a.res.status >= 300 || typeof a.res.body !== 'object') return [];
  const body = (a.path.includes('_envelope') ? (a.res.body as Json).body : a.res.body) as Json;
  const [, base, rest] = /^\/([a-z]+)(\/[^?]*)?/.exec(a.path) ?? [];
  const kind = LIST_KEY[base as string] as Kind;
  const own = rest || a.method !== 'GET' ? [body] : ((body[base as string] as Json[] | undefined) ?? []);
  const out: Array<{ kind: Kind | 'embedded-term'; rec: Json; where: string }> = [];
  for (const rec of own) {
    out.push({ kind, rec, where: a.label });
    if (kind !== 'event') continue;
    const venues = Array.isArray(rec.venue) ? rec.venue : rec.venue ? [rec.venue] : [];
    for (const v of venues as Json[]) out.push({ kind: 'venue', rec: v, where: `${a.label} (its venue)` });
    for (const o of (rec.organizer as Json[] | undefined) ?? [])
      out.push({ kind: 'organizer', rec: o, where: `${a.label} (its organizer)` });
    for (const term of [...((rec.categories as Json[]) ?? []), ...((rec.tags as Json[]) ?? [])])
      out.push({ kind: 'embedded-term', rec: term, where: `${a.label} (its term)` });
  }
  return out;
}

/** TEC's keys in TEC's order; every key of ours (and WordPress's `_links`) after them, but an event's `json_ld`. */
function expectTecOrder(kind: Kind | 'embedded-term', rec: Json, where: string): void {
  const keys = Object.keys(rec);
  const tec: readonly string[] = kind === 'embedded-term' ? TEC_EMBEDDED_TERM : TEC_KEYS_OF[kind];
  const theirs = keys.filter((k) => tec.includes(k));
  expect(inOrder(theirs, tec), `${where}: TEC's keys out of TEC's order: ${keys}`).toBe(true);
  const lastTec = Math.max(-1, ...theirs.filter((k) => k !== 'json_ld').map((k) => keys.indexOf(k)));
  for (const k of keys.filter((k) => !tec.includes(k)))
    expect(keys.indexOf(k), `${where}: ${k} among TEC's keys: ${keys}`).toBeGreaterThan(lastTec);
  if (kind === 'event' && keys.includes('json_ld')) expect(keys.at(-1), where).toBe('json_ld');
}

describe("TEC's key order", () => {
  it('gathered an answer of each kind, single and list, for each caller, and of each write', () => {
    const seen = new Set(
      answers.flatMap((a) => recordsOf(a).map((r) => `${r.kind}:${a.label.split(/ |:/)[0]}`)),
    );
    const made = new Set(
      answers.flatMap((a) => recordsOf(a).map((r) => `${r.kind}:${a.label.split(':')[0].split(' ')[1]}`)),
    );
    for (const kind of ['event', 'venue', 'organizer', 'categories', 'tags', 'embedded-term']) {
      for (const caller of ['anonymous', 'editor', 'admin'])
        expect(seen, `${kind} as ${caller}`).toContain(`${kind}:${caller}`);
      for (const write of ['creates', 'updates', 'deletes'])
        expect(made, `${kind} ${write}`).toContain(`${kind}:${write}`);
    }
  });

  it('every event record, list and single, read and written, starts with exactly TEC keys in TEC order', () => {
    const prefix = TEC_EVENT.filter((k) => k !== 'json_ld');
    let checked = 0;
    for (const a of answers.filter((a) => !a.path.includes('_fields')))
      for (const r of recordsOf(a).filter((r) => r.kind === 'event')) {
        expect(Object.keys(r.rec).slice(0, prefix.length), r.where).toEqual(prefix);
        checked++;
      }
    expect(checked).toBeGreaterThan(20);
  });

  it('every record of every kind, embedded ones and `_fields` selections too, keeps TEC order with ours after', () => {
    let checked = 0;
    for (const a of answers)
      for (const r of recordsOf(a)) {
        expectTecOrder(r.kind, r.rec, r.where);
        checked++;
      }
    expect(checked).toBeGreaterThan(100);
  });

  it('`_fields` keeps the record order, not the order asked', () => {
    const a = answers.find((a) => /^\/events\/\d+\?_fields/.test(a.path));
    expect(Object.keys(a?.res.body as Json)).toEqual([
      'id',
      'title',
      'featured',
      'categories',
      'custom_fields',
      'event_status',
      'json_ld',
    ]);
  });

  it("/doc's record schemas list TEC's properties first, in TEC's order", async () => {
    const doc = (await call(t, 'GET', '/doc')).body as { components: { schemas: Record<string, Json> } };
    const props = (name: string) => Object.keys(doc.components.schemas[name]?.properties as Json);
    const tecFirst = (keys: string[], tec: readonly string[]) => {
      const theirs = keys.filter((k) => tec.includes(k));
      expect(inOrder(theirs, tec), `${keys}`).toBe(true);
      const head = theirs.filter((k) => k !== 'json_ld');
      expect(keys.filter((k) => k !== 'json_ld').slice(0, head.length)).toEqual(head);
    };
    tecFirst(props('Event'), TEC_KEYS_OF.event);
    expect(props('Event').slice(0, TEC_EVENT.length - 1)).toEqual(TEC_EVENT.slice(0, -1));
    tecFirst(props('Venue'), TEC_KEYS_OF.venue);
    tecFirst(props('Organizer'), TEC_KEYS_OF.organizer);
    tecFirst(props('Term'), TEC_KEYS_OF.categories);
  });
});

describe('no internal key in any answer', () => {
  const INTERNAL = /_?calendar_gateway_write/;

  it('no answer body or header names or carries the write token, for any caller, read, write or delete', () => {
    expect(answers.length).toBeGreaterThan(100);
    for (const a of answers) {
      expect(JSON.stringify(a.res.body), a.label).not.toMatch(INTERNAL);
      a.res.headers.forEach((value, name) => {
        expect(`${name}: ${value}`, a.label).not.toMatch(INTERNAL);
      });
    }
  });

  it("term answers (lists, singles, creates, updates, deletes) carry TEC's empty `meta`", () => {
    let checked = 0;
    for (const a of answers)
      for (const r of recordsOf(a).filter((r) => r.kind === 'categories' || r.kind === 'tags'))
        if ('meta' in r.rec) {
          expect(r.rec.meta, r.where).toEqual([]);
          checked++;
        }
    expect(checked).toBeGreaterThan(20);
    const writes = answers.filter(
      (a) => /^\/(categories|tags)/.test(a.path) && /creates|updates|deletes/.test(a.label),
    );
    expect(writes.length).toBeGreaterThanOrEqual(6);
  });
});
