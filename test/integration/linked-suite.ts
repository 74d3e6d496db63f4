// The behaviour venues and organizers share, run by venues.test.ts and organizers.test.ts for their own kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, openTarget, type Role, type Target } from '../harness.ts';
import { expectError, Fixtures, type Json, token } from './fixtures.ts';
import { linkedWrites } from './linked-writes.ts';

export type Kind = 'venue' | 'organizer';
export type LinkedRecord = Json & { id: number; slug: string; status: string };

/** What a suite needs to know about its kind: the name key, the route and a field every record carries. */
export interface KindInfo {
  kind: Kind;
  plural: 'venues' | 'organizers';
  /** A text field that is searched and can be updated on its own (`city`, `phone`). */
  field: string;
}

/** Shared state of one test file: the target, its token and what it created. */
export class LinkedFixtures {
  readonly tok = token();
  readonly created: number[] = [];
  t!: Target;
  events!: Fixtures;

  readonly info: KindInfo;

  constructor(info: KindInfo) {
    this.info = info;
  }

  async open(): Promise<void> {
    this.t = await openTarget();
    this.events = new Fixtures(this.t);
  }

  /** Creates a venue/organizer through the gateway and fails the test unless it answers 201. */
  async create(body: Json, as: Role = 'admin'): Promise<LinkedRecord> {
    const res = await this.call('POST', '', { as, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    if (!this.created.includes(res.body.id)) this.created.push(res.body.id);
    return res.body;
  }

  /** One call below `/venues` or `/organizers`. */
  call(
    method: string,
    path: string,
    opts: Parameters<typeof call>[3] = {},
  ): Promise<CallResult<LinkedRecord>> {
    return call<LinkedRecord>(this.t, method, `/${this.info.plural}${path}`, opts);
  }

  list(query: string, as?: Role): Promise<CallResult> {
    return call(this.t, 'GET', `/${this.info.plural}?${query}`, { as });
  }

  /** Writes directly on the upstream WordPress as admin (as the WordPress admin would). */
  async upstream(method: string, path: string, body?: Json): Promise<Json> {
    const res = await fetch(`${this.t.upstream}/wp/v2/${this.t.mapping[this.info.kind].restBase}${path}`, {
      method,
      headers: { Authorization: this.t.auth.admin, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as Json;
    expect(res.status, JSON.stringify(json)).toBeLessThan(300);
    return json;
  }

  /** Removes everything the file created: events to the trash, venues/organizers for good (shared WordPress). */
  async cleanup(): Promise<void> {
    await this.events?.cleanup();
    await Promise.all(
      this.created.map((id) => this.upstream('DELETE', `/${id}?force=true`).catch(() => undefined)),
    );
    await this.t?.close();
  }
}

export const idsOf = (res: CallResult, plural: string): number[] =>
  ((res.body[plural] as LinkedRecord[] | undefined) ?? []).map((r) => r.id);

/** The tests every kind passes: lists, filters, single routes, writes, errors and visibility. */
export function linkedSuite(info: KindInfo): LinkedFixtures {
  const fx = new LinkedFixtures(info);
  const { kind, plural, field } = info;
  const ids = (res: CallResult) => idsOf(res, plural);
  const name = (label: string) => `${label} ${fx.tok}`;
  // Publication dates set the list order (newest first): a is the newest.
  let a: LinkedRecord; // linked to a published upcoming event
  let b: LinkedRecord; // linked to a published past event only
  let c: LinkedRecord; // linked to a draft event only
  let d: LinkedRecord; // linked to nothing
  let draft: LinkedRecord; // a draft, linked to a published event
  let upcoming: Json;
  let withDraft: Json;

  const link = (rec: LinkedRecord) => (kind === 'venue' ? { venue: rec.id } : { organizer: [rec.id] });

  beforeAll(async () => {
    await fx.open();
    d = await fx.create({ [kind]: name('Delta'), [field]: `d-${fx.tok}`, date: '2020-01-01 10:00:00' });
    c = await fx.create({ [kind]: name('Gamma'), [field]: `c-${fx.tok}`, date: '2020-01-02 10:00:00' });
    b = await fx.create({ [kind]: name('Bravo'), [field]: `b-${fx.tok}`, date: '2020-01-03 10:00:00' });
    a = await fx.create({
      [kind]: name('Alpha'),
      [field]: `a-${fx.tok}`,
      description: `About alpha-${fx.tok}.`,
      date: '2020-01-04 10:00:00',
    });
    draft = await fx.create({ [kind]: name('Draft'), status: 'draft', date: '2020-01-05 10:00:00' });
    upcoming = await fx.events.event({
      title: name('Upcoming'),
      start_date: '2031-05-01 10:00:00',
      end_date: '2031-05-01 12:00:00',
      ...link(a),
    });
    await fx.events.event({
      title: name('Past'),
      start_date: '2020-05-01 10:00:00',
      end_date: '2020-05-01 12:00:00',
      ...link(b),
    });
    await fx.events.event({
      title: name('Unpublished'),
      status: 'draft',
      start_date: '2031-05-02 10:00:00',
      end_date: '2031-05-02 12:00:00',
      ...link(c),
    });
    withDraft = await fx.events.event({
      title: name('With draft'),
      start_date: '2031-05-03 10:00:00',
      end_date: '2031-05-03 12:00:00',
      ...link(draft),
    });
  });

  afterAll(async () => {
    await fx.cleanup();
  });

  describe(`GET /${plural}: envelope, order and paging`, () => {
    it('lists public records newest first with the envelope keys in TEC order and X-TEC headers', async () => {
      const res = await fx.list(`search=${fx.tok}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([a.id, b.id, c.id, d.id]);
      expect(Object.keys(res.body)).toEqual([plural, 'rest_url', 'total', 'total_pages']);
      expect(res.body.total).toBe(4);
      expect(res.body.total_pages).toBe(1);
      expect(res.headers.get('x-tec-total')).toBe('4');
      expect(res.headers.get('x-tec-totalpages')).toBe('1');
      expect(String(res.body.rest_url)).toContain(`/${plural}/?`);
    });

    it('pages with per_page, links next and previous pages and keeps the filters in them', async () => {
      const first = await fx.list(`search=${fx.tok}&per_page=3`);
      expect(ids(first)).toEqual([a.id, b.id, c.id]);
      expect(Object.keys(first.body)).toEqual([plural, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(first.body.total_pages).toBe(2);
      const next = String(first.body.next_rest_url);
      expect(next).toContain('page=2');
      expect(next).toContain(`search=${fx.tok}`);
      const second = await fetch(next).then((r) => r.json() as Promise<Json>);
      expect(idsOf({ status: 200, body: second, headers: new Headers() }, plural)).toEqual([d.id]);
      expect(second).not.toHaveProperty('next_rest_url');
      expect(String(second.previous_rest_url)).not.toMatch(/[?&]page=/);
    });

    it(`answers 404 ${kind}-archive-page-not-found past the last page`, async () => {
      expectError(await fx.list(`search=${fx.tok}&per_page=3&page=3`), 404, `${kind}-archive-page-not-found`);
    });

    it('answers 200 with an empty list and zero totals on page 1 without results', async () => {
      const res = await fx.list(`search=nothing-${fx.tok}`);
      expect(res.status).toBe(200);
      expect(res.body[plural]).toEqual([]);
      expect(res.body.total).toBe(0);
      expect(res.body.total_pages).toBe(0);
      expect(res.headers.get('x-tec-total')).toBe('0');
    });

    it('returns 10 records by default and caps per_page at 50', async () => {
      const res = await fx.list('per_page=500', 'admin');
      expect(res.status).toBe(200);
      const total = Number(res.body.total);
      expect((res.body[plural] as unknown[]).length).toBe(Math.min(total, 50));
      expect(res.body.total_pages).toBe(Math.ceil(total / 50));
      const byDefault = await fx.list('', 'admin');
      expect((byDefault.body[plural] as unknown[]).length).toBe(Math.min(total, 10));
    });

    it.each([
      'page=0',
      'page=-2',
      'page=x',
      'per_page=0',
      'per_page=abc',
      'search=',
      'event=abc',
      'event=0',
      'status=',
    ])('refuses %s with 400 rest_invalid_param', async (q) => {
      expectError(await fx.list(q), 400, 'rest_invalid_param');
    });
  });

  describe(`GET /${plural}: filters`, () => {
    it(`searches the name, the description and the ${field}`, async () => {
      expect(ids(await fx.list(`search=${encodeURIComponent(`Bravo ${fx.tok}`)}`))).toEqual([b.id]);
      expect(ids(await fx.list(`search=alpha-${fx.tok}`))).toEqual([a.id]);
      expect(ids(await fx.list(`search=c-${fx.tok}`))).toEqual([c.id]);
    });

    it('searches case-insensitively', async () => {
      expect(ids(await fx.list(`search=D-${fx.tok.toUpperCase()}`))).toEqual([d.id]);
    });

    it('lists only what an event links to with event=ID, and refuses an id that is not an event', async () => {
      expect(ids(await fx.list(`event=${upcoming.id}`))).toEqual([a.id]);
      expectError(await fx.list(`event=${a.id}`), 400, 'rest_invalid_param');
      expectError(await fx.list('event=999999999'), 400, 'rest_invalid_param');
    });

    it('has_events=true keeps records linked to an event that is not a draft or pending', async () => {
      expect(ids(await fx.list(`search=${fx.tok}&has_events=true`))).toEqual([a.id, b.id]);
      expect(ids(await fx.list(`search=${fx.tok}&has_events=1`))).toEqual([a.id, b.id]);
    });

    it.each(['false', '0', 'no'])(
      'has_events=%s keeps exactly the others: linked to no event, or only to a draft',
      async (v) => {
        expect(ids(await fx.list(`search=${fx.tok}&has_events=${v}`))).toEqual([c.id, d.id]);
      },
    );

    it('only_with_upcoming=true keeps records linked to an upcoming public event; false disables the filter', async () => {
      expect(ids(await fx.list(`search=${fx.tok}&only_with_upcoming=true`))).toEqual([a.id]);
      expect(ids(await fx.list(`search=${fx.tok}&only_with_upcoming=false`))).toEqual([
        a.id,
        b.id,
        c.id,
        d.id,
      ]);
    });

    it('intersects filters', async () => {
      expect(ids(await fx.list(`search=b-${fx.tok}&has_events=1`))).toEqual([b.id]);
      expect(ids(await fx.list(`search=b-${fx.tok}&only_with_upcoming=1`))).toEqual([]);
    });
  });

  describe(`GET /${plural}: status and visibility`, () => {
    it('never lists a draft to an anonymous caller and refuses any other status from one', async () => {
      expect(ids(await fx.list(`search=${fx.tok}&status=publish`))).toEqual([a.id, b.id, c.id, d.id]);
      expectError(await fx.list(`search=${fx.tok}&status=draft`), 400, 'rest_invalid_param');
      expectError(await fx.list(`search=${fx.tok}&status=any`), 400, 'rest_invalid_param');
    });

    it('lists every status to an editor by default and filters by the statuses asked', async () => {
      expect(ids(await fx.list(`search=${fx.tok}`, 'editor'))).toEqual([draft.id, a.id, b.id, c.id, d.id]);
      expect(ids(await fx.list(`search=${fx.tok}&status=draft`, 'editor'))).toEqual([draft.id]);
      expectError(await fx.list(`search=${fx.tok}&status=bogus`, 'editor'), 400, 'rest_invalid_param');
    });

    it('refuses a subscriber any status but publish, as for anonymous callers', async () => {
      expectError(await fx.list(`search=${fx.tok}&status=draft`, 'subscriber'), 400, 'rest_invalid_param');
      expect(ids(await fx.list(`search=${fx.tok}`, 'subscriber'))).toEqual([a.id, b.id, c.id, d.id]);
    });

    it('never shows an anonymous caller a draft embedded in an event; an editor sees it', async () => {
      const key = kind === 'venue' ? 'venue' : 'organizer';
      const anon = await call(fx.t, 'GET', `/events/${withDraft.id}`);
      expect(anon.status).toBe(200);
      expect(anon.body[key]).toEqual([]);
      expect(JSON.stringify(anon.body)).not.toContain('Draft');
      const listed = await call(
        fx.t,
        'GET',
        `/events?start_date=2031-05-03&end_date=2031-05-03&search=${fx.tok}`,
      );
      expect(JSON.stringify(listed.body)).not.toContain(`Draft ${fx.tok}`);
      const editor = await call(fx.t, 'GET', `/events/${withDraft.id}`, { as: 'editor' });
      const embedded = kind === 'venue' ? (editor.body.venue as Json) : (editor.body.organizer as Json[])[0];
      expect(embedded?.id).toBe(draft.id);
    });
  });

  describe(`GET /${plural}/{id} and by-slug`, () => {
    it('answers the record with json_ld and global ids, without rest_url', async () => {
      const res = await fx.call('GET', `/${a.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(a.id);
      expect(res.body[kind]).toBe(name('Alpha'));
      expect(res.body[field]).toBe(`a-${fx.tok}`);
      expect(res.body.status).toBe('publish');
      expect(typeof res.body.author).toBe('string');
      expect(res.body.json_ld).toBeTypeOf('object');
      expect(res.body.global_id).toMatch(new RegExp(`\\?id=${a.id}$`));
      expect(res.body.global_id_lineage).toEqual([res.body.global_id]);
      expect(res.body).not.toHaveProperty('rest_url');
      expect(res.body.date).toBe('2020-01-04 10:00:00');
    });

    it('leaves empty fields out, as TEC does', async () => {
      const res = await fx.call('GET', `/${d.id}`);
      expect(res.body).not.toHaveProperty('excerpt');
      expect(res.body).not.toHaveProperty('description');
      expect(res.body).not.toHaveProperty('image');
      expect(res.body).not.toHaveProperty('website');
    });

    it('does not include json_ld in list items', async () => {
      const res = await fx.list(`search=a-${fx.tok}`);
      expect((res.body[plural] as Json[])[0]).not.toHaveProperty('json_ld');
    });

    it('answers by slug like by id', async () => {
      const res = await fx.call('GET', `/by-slug/${a.slug}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(a.id);
    });

    it('answers 400 rest_invalid_param for an unknown id, an event id or an unknown slug', async () => {
      expectError(await fx.call('GET', '/999999999'), 400, 'rest_invalid_param');
      expectError(await fx.call('GET', `/${upcoming.id}`), 400, 'rest_invalid_param');
      expectError(await fx.call('GET', `/by-slug/no-such-${fx.tok}`), 400, 'rest_invalid_param');
      // WordPress would read ` ` or `a,b` as a list of slugs, or as no filter at all: neither names a record.
      for (const odd of ['%20', `a%2C${fx.tok}`, `${fx.tok}%20x`])
        expectError(await fx.call('GET', `/by-slug/${odd}`), 400, 'rest_invalid_param');
      expectError(
        await fx.call('PATCH', '/by-slug/%20', { as: 'admin', body: {} }),
        400,
        'rest_invalid_param',
      );
    });

    it('answers 404 rest_no_route for a non-numeric id', async () => {
      expectError(await fx.call('GET', '/abc'), 404, 'rest_no_route');
    });

    it(`answers 403 ${kind}-not-accessible for a draft to anonymous callers and subscribers; editors read it`, async () => {
      expectError(await fx.call('GET', `/${draft.id}`), 403, `${kind}-not-accessible`);
      expectError(await fx.call('GET', `/${draft.id}`, { as: 'subscriber' }), 403, `${kind}-not-accessible`);
      const res = await fx.call('GET', `/${draft.id}`, { as: 'editor' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('draft');
    });
  });

  linkedWrites(fx, () => ({ b, d }));

  return fx;
}
