// The writes venues and organizers share (create, update, delete, a protected record's search, edits made in
// WordPress), run by linkedSuite (linked-suite.ts) for its kind.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness.ts';
import { guard } from '../slack.ts';
import { within } from './cache-support.ts';
import { expectError, type Json, token } from './fixtures.ts';
import { idsOf, type LinkedFixtures, type LinkedRecord } from './linked-suite.ts';

/** `seeded`: records the suite made before its tests (b: linked to a past event only; d: linked to nothing). */
export function linkedWrites(fx: LinkedFixtures, seeded: () => { b: LinkedRecord; d: LinkedRecord }): void {
  const { kind, plural, field } = fx.info;
  const ids = (res: Parameters<typeof idsOf>[0]) => idsOf(res, plural);
  const name = (label: string) => `${label} ${fx.tok}`;
  const link = (rec: LinkedRecord) => (kind === 'venue' ? { venue: rec.id } : { organizer: [rec.id] });

  describe(`POST /${plural}`, () => {
    it('creates a published record for an editor with 201 and the record', async () => {
      const rec = await fx.create({ [kind]: name('Created'), [field]: `new-${fx.tok}` }, 'editor');
      expect(rec.status).toBe('publish');
      expect(rec[kind]).toBe(name('Created'));
      expect(rec).not.toHaveProperty('json_ld');
      expect((await fx.call('GET', `/${rec.id}`)).status).toBe(200);
    });

    it('renders the name through the_title, as TEC does: dimensions, quotes, dashes and ellipses', async () => {
      const rec = await fx.create({ [kind]: `Room 4x8 "Main" -- it's ${fx.tok}...` }, 'editor');
      const want = `Room 4&#215;8 &#8220;Main&#8221; &#8212; it&#8217;s ${fx.tok}&#8230;`;
      expect(rec[kind]).toBe(want);
      expect((await fx.call('GET', `/${rec.id}`)).body[kind]).toBe(want);
    });

    it('scales statuses for a contributor: draft by default, pending instead of publish', async () => {
      const plain = await fx.create({ [kind]: name('Contrib one') }, 'contributor');
      expect(plain.status).toBe('draft');
      const asked = await fx.create({ [kind]: name('Contrib two'), status: 'publish' }, 'contributor');
      expect(asked.status).toBe('pending');
    });

    it('returns the existing record with 201 for a duplicate with the same name and fields', async () => {
      const again = await fx.call('POST', '', {
        as: 'admin',
        body: { [kind]: name('Bravo'), [field]: `b-${fx.tok}` },
      });
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(seeded().b.id);
      const other = await fx.create({ [kind]: name('Bravo'), [field]: `other-${fx.tok}` });
      expect(other.id).not.toBe(seeded().b.id);
    });

    it('answers 401 rest_forbidden to anonymous callers and 403 to subscribers', async () => {
      expectError(await fx.call('POST', '', { body: { [kind]: name('Nope') } }), 401, 'rest_forbidden');
      expectError(
        await fx.call('POST', '', { as: 'subscriber', body: { [kind]: name('Nope') } }),
        403,
        'rest_forbidden',
      );
    });

    it('answers a signed-in caller 400 rest_missing_callback_param without a name, before checking permissions', async () => {
      const res = await fx.call('POST', '', { as: 'subscriber', body: { [field]: 'x' } });
      expectError(res, 400, 'rest_missing_callback_param');
      expect((res.body.data as Json).params).toEqual([kind]);
      // An anonymous write is refused before anything of it is read (TEC answers 400 too; docs/differences.md).
      expectError(await fx.call('POST', '', { body: { [field]: 'x' } }), 401, 'rest_forbidden');
    });

    it.each([
      ['an empty name', { [kind]: '' }],
      ['a website that is not a URL', { [kind]: 'W', website: 'not a url' }],
      ['an unknown status', { [kind]: 'S', status: 'bogus' }],
      ['an unparseable date', { [kind]: 'D', date: 'not a date at all' }],
      ['a non-numeric image', { [kind]: 'I', image: 'picture' }],
    ])('answers 400 rest_invalid_param for %s', async (_label, body) => {
      expectError(await fx.call('POST', '', { as: 'admin', body }), 400, 'rest_invalid_param');
    });

    it.each([
      ['author', { author: 99999999 }],
      ['author', { author: 'foo' }],
      ['date', { date: 'foo' }],
      ['date_utc', { date_utc: 'foo' }],
      ['status', { status: 'kinda_thinking_about_it' }],
    ])('names %s in data.params when it is refused, on create and update', async (param, bad) => {
      const created = await fx.call('POST', '', { as: 'admin', body: { [kind]: name('Refused'), ...bad } });
      expectError(created, 400, 'rest_invalid_param');
      expect(Object.keys((created.body.data as Json).params as Json)).toEqual([param]);
      const rec = await fx.create({ [kind]: name(`Target ${param}`) });
      const updated = await fx.call('POST', `/${rec.id}`, { as: 'admin', body: bad });
      expectError(updated, 400, 'rest_invalid_param');
      expect(Object.keys((updated.body.data as Json).params as Json)).toEqual([param]);
    });

    it('gives a draft its slug, as TEC does; by slug it is refused to anonymous callers and read by admins', async () => {
      const rec = await fx.create({ [kind]: name('Drafted slug'), status: 'draft' });
      expect(rec.status).toBe('draft');
      expect(rec.slug).toBe(`drafted-slug-${fx.tok}`);
      expectError(await fx.call('GET', `/by-slug/${rec.slug}`), 403, `${kind}-not-accessible`);
      const admin = await fx.call('GET', `/by-slug/${rec.slug}`, { as: 'admin' });
      expect(admin.status).toBe(200);
      expect(admin.body.id).toBe(rec.id);
    });

    it('names the name in data.params when an update empties it', async () => {
      const rec = await fx.create({ [kind]: name('Named') });
      const res = await fx.call('POST', `/${rec.id}`, { as: 'admin', body: { [kind]: '' } });
      expectError(res, 400, 'rest_invalid_param');
      expect(Object.keys((res.body.data as Json).params as Json)).toEqual([kind]);
    });

    it('accepts a form-encoded body', async () => {
      const res = await fx.call('POST', '', {
        as: 'admin',
        form: { [kind]: name('Form'), [field]: `form-${fx.tok}` },
      });
      expect(res.status).toBe(201);
      fx.created.push(res.body.id);
      expect(res.body[field]).toBe(`form-${fx.tok}`);
    });
  });

  describe(`POST/PUT/PATCH /${plural}/{id} and by-slug`, () => {
    it.each(['POST', 'PUT', 'PATCH'])('%s changes only the fields sent', async (method) => {
      const rec = await fx.create({
        [kind]: name(`Upd ${method}`),
        [field]: `keep-${fx.tok}`,
        description: 'Kept.',
      });
      const res = await fx.call(method, `/${rec.id}`, {
        as: 'editor',
        body: { [kind]: name(`Renamed ${method}`) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body[kind]).toBe(name(`Renamed ${method}`));
      expect(res.body[field]).toBe(`keep-${fx.tok}`);
      expect(String(res.body.description)).toContain('Kept.');
      expect(res.body.status).toBe('publish');
    });

    it('updates by slug', async () => {
      const rec = await fx.create({ [kind]: name('By slug') });
      const res = await fx.call('PATCH', `/by-slug/${rec.slug}`, {
        as: 'admin',
        body: { [field]: `slugged-${fx.tok}` },
      });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(rec.id);
      expect(res.body[field]).toBe(`slugged-${fx.tok}`);
    });

    it('empties a field sent as an empty string, and it then disappears from the record', async () => {
      const rec = await fx.create({ [kind]: name('Emptied'), [field]: `gone-${fx.tok}` });
      const res = await fx.call('POST', `/${rec.id}`, { as: 'admin', body: { [field]: '' } });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty(field);
    });

    it('answers 400 for an unknown id or slug, 401 to anonymous callers and 403 to subscribers', async () => {
      expectError(
        await fx.call('POST', '/999999999', { as: 'admin', body: { [field]: 'x' } }),
        400,
        'rest_invalid_param',
      );
      expectError(
        await fx.call('POST', `/by-slug/none-${fx.tok}`, { as: 'admin', body: { [field]: 'x' } }),
        400,
        'rest_invalid_param',
      );
      expectError(
        await fx.call('POST', `/${seeded().d.id}`, { body: { [field]: 'x' } }),
        401,
        'rest_forbidden',
      );
      expectError(
        await fx.call('POST', `/${seeded().d.id}`, { as: 'subscriber', body: { [field]: 'x' } }),
        403,
        'rest_forbidden',
      );
      expect((await fx.call('GET', `/${seeded().d.id}`)).body[field]).toBe(`d-${fx.tok}`);
    });

    it('shows a change in every event that embeds the record', async () => {
      const rec = await fx.create({ [kind]: name('Embedded'), [field]: `before-${fx.tok}` });
      const event = await fx.events.event({
        title: name('Embedding'),
        start_date: '2031-06-01 10:00:00',
        end_date: '2031-06-01 11:00:00',
        ...link(rec),
      });
      const embedded = async () => {
        const res = await call(fx.t, 'GET', `/events/${event.id}`);
        return kind === 'venue' ? (res.body.venue as Json) : (res.body.organizer as Json[])[0];
      };
      expect((await embedded())?.[field]).toBe(`before-${fx.tok}`);
      expect(
        (await fx.call('PATCH', `/${rec.id}`, { as: 'admin', body: { [field]: `after-${fx.tok}` } })).status,
      ).toBe(200);
      expect((await embedded())?.[field]).toBe(`after-${fx.tok}`);
    });
  });

  describe(`GET /${plural}: search of a password-protected record`, () => {
    let locked: Json;
    const secret = `hush-${fx.tok}`;

    beforeAll(async () => {
      const meta = (fx.t.mapping[kind].fields as Record<string, { meta?: string } | undefined>)[field]?.meta;
      // Made in the WordPress admin, protected from the start: the catalog never held it unprotected.
      locked = await fx.upstream('POST', '', {
        title: name('Vault'),
        content: `Whisper ${fx.tok}.`,
        status: 'publish',
        password: 'sesame',
        meta: { [meta ?? '']: secret },
      });
      fx.created.push(Number(locked.id));
      // Seen by the catalog (its next use asks WordPress what changed): found by its name, which anyone may read.
      await within(
        5_000,
        async () =>
          ids(await fx.list(`search=${encodeURIComponent(name('Vault'))}`, 'subscriber')).length > 0,
      );
    });

    it(`matches its name for every caller, and never its ${field} or description, which every list blanks`, async () => {
      for (const as of [undefined, 'subscriber', 'editor', 'admin'] as const) {
        expect(ids(await fx.list(`search=${encodeURIComponent(name('Vault'))}`, as)), as).toEqual([
          locked.id,
        ]);
        expect(ids(await fx.list(`search=${encodeURIComponent(secret)}`, as)), as).toEqual([]);
        expect(ids(await fx.list(`search=${encodeURIComponent(`Whisper ${fx.tok}`)}`, as)), as).toEqual([]);
      }
    });

    it(`blanks its ${field} in the list it is found in`, async () => {
      const res = await fx.list(`search=${encodeURIComponent(name('Vault'))}`, 'subscriber');
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(JSON.stringify(res.body)).not.toContain('Whisper');
    });

    it(`shows its ${field} in a list to whoever sends its password, as an event list does (issue 30)`, async () => {
      const found = `search=${encodeURIComponent(name('Vault'))}`;
      const right = await fx.list(`${found}&password=sesame`);
      expect(ids(right)).toEqual([locked.id]);
      expect(JSON.stringify(right.body)).toContain(secret);
      expect(JSON.stringify(right.body)).toContain('Whisper');
      // A wrong one opens nothing, and the opened answer is kept for nobody else.
      for (const query of [`${found}&password=open-up`, found]) {
        const res = await fx.list(query);
        expect(ids(res), query).toEqual([locked.id]);
        expect(JSON.stringify(res.body), query).not.toContain(secret);
        expect(JSON.stringify(res.body), query).not.toContain('Whisper');
      }
    });
  });

  describe('changes made in WordPress directly', () => {
    it('show in lists within seconds, without any purge', async () => {
      const rec = await fx.create({ [kind]: name('Admin edit') });
      const title = name(`Edited in admin ${token()}`);
      await fx.upstream('POST', `/${rec.id}`, { title });
      const deadline = Date.now() + guard(10_000);
      let found: number[] = [];
      while (Date.now() < deadline) {
        found = ids(await fx.list(`search=${encodeURIComponent(title)}`));
        if (found.length) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(found).toEqual([rec.id]);
      expect((await fx.call('GET', `/${rec.id}`)).body[kind]).toBe(title);
    });
  });

  describe(`DELETE /${plural}/{id} and by-slug`, () => {
    it(`trashes with 200 and the record, then answers 410 ${kind}-is-in-trash`, async () => {
      const rec = await fx.create({ [kind]: name('Trashed') });
      const res = await fx.call('DELETE', `/${rec.id}`, { as: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(rec.id);
      expect(res.body.status).toBe('trash');
      expectError(await fx.call('DELETE', `/${rec.id}`, { as: 'admin' }), 410, `${kind}-is-in-trash`);
      expect(ids(await fx.list(`search=${encodeURIComponent(name('Trashed'))}`))).toEqual([]);
    });

    it('trashes by slug', async () => {
      const rec = await fx.create({ [kind]: name('Slug trash') });
      const res = await fx.call('DELETE', `/by-slug/${rec.slug}`, { as: 'editor' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('trash');
    });

    it('answers 400 for an unknown id to signed-in callers; anonymous ones get 401 before any lookup', async () => {
      expectError(await fx.call('DELETE', '/999999999', { as: 'subscriber' }), 400, 'rest_invalid_param');
      // TEC validates first and answers 400 here; the gateway refuses anonymous writes before reading them
      // (docs/differences.md).
      expectError(await fx.call('DELETE', '/999999999'), 401, 'rest_forbidden');
      expectError(await fx.call('DELETE', `/${seeded().d.id}`), 401, 'rest_forbidden');
      expectError(await fx.call('DELETE', `/${seeded().d.id}`, { as: 'subscriber' }), 403, 'rest_forbidden');
      expect((await fx.call('GET', `/${seeded().d.id}`)).status).toBe(200);
    });
  });
}
