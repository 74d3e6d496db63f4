// Visibility of series in lists of occurrences (issue 31, rows of the visibility matrix for series and overrides):
// occurrences take the series' status and password; a filter on what a password blanks matches a protected series
// only for who sees it in full; `series=` of a series the caller may not read is as unknown as a missing one.
// Runs against the mock and the real WordPress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Role, type Target } from '../harness.ts';
import { type EventRecord, editUpstream, Fixtures, type Json, token } from './fixtures.ts';

const tok = token();
let t: Target;
let fx: Fixtures;
const made = {} as Record<'publish' | 'draft' | 'private' | 'protected', EventRecord>;
const WINDOW = 'start_date=2044-03-01&end_date=2044-03-31&per_page=50';

const list = (query: string, as?: Role) => call(t, 'GET', `/events?${WINDOW}&${query}`, { as });
const seriesOf = (res: { body: Json }) =>
  ((res.body.events as EventRecord[] | undefined) ?? []).map((e) => e.series_id as number);
const count = (ids: number[], id: number) => ids.filter((x) => x === id).length;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  for (const [i, kind] of (['publish', 'draft', 'private', 'protected'] as const).entries()) {
    made[kind] = await fx.event({
      title: `Series ${kind} ${tok}`,
      description: `Secret ${tok}desc.`,
      start_date: `2044-03-0${i + 1} 18:00:00`,
      end_date: `2044-03-0${i + 1} 19:00:00`,
      timezone: 'Europe/Madrid',
      categories: ['jazz'],
      status: kind === 'protected' ? 'publish' : kind,
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
    });
  }
  // The gateway writes no password: set upstream, as an editor in the admin would.
  await editUpstream(t, made.protected.id, { password: 'matrix-series' });
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

describe('series in the visibility matrix', () => {
  it('lists the occurrences of the series each caller may read, counted over them alone', async () => {
    const anon = await list(`search=${tok}`);
    expect(anon.status).toBe(200);
    expect(count(seriesOf(anon), made.publish.id)).toBe(3);
    // WordPress searches a protected post only for signed-in callers.
    expect(count(seriesOf(anon), made.protected.id)).toBe(0);
    expect(seriesOf(anon)).not.toContain(made.draft.id);
    expect(seriesOf(anon)).not.toContain(made.private.id);
    expect(anon.body.total).toBe(3);
    const admin = await list(`search=${tok}`, 'admin');
    for (const kind of ['publish', 'draft', 'private', 'protected'] as const)
      expect(count(seriesOf(admin), made[kind].id), kind).toBe(3);
    expect(admin.body.total).toBe(12);
    const subscriber = await list(`search=${tok}`, 'subscriber');
    expect(subscriber.body.total).toBe(6);
    expect(seriesOf(subscriber)).not.toContain(made.draft.id);
  });

  it('matches a protected series on its blanked fields only for who sees it in full', async () => {
    const anon = await list('categories=jazz');
    expect(count(seriesOf(anon), made.publish.id)).toBe(3);
    expect(seriesOf(anon)).not.toContain(made.protected.id);
    const opened = await list('categories=jazz&password=matrix-series');
    expect(count(seriesOf(opened), made.protected.id)).toBe(3);
    const admin = await list('categories=jazz', 'admin');
    expect(count(seriesOf(admin), made.protected.id)).toBe(3);
    // Its description is blanked in every list: no one finds it by a word of it.
    const described = await list(`search=${tok}desc`, 'admin');
    expect(seriesOf(described)).not.toContain(made.protected.id);
  });

  it('answers series= only for a series the caller may read', async () => {
    for (const kind of ['draft', 'private'] as const) {
      const r = await list(`series=${made[kind].id}`);
      expect(r.status, kind).toBe(400);
      expect(Object.keys((r.body.data as Json).params as Json)).toEqual(['series']);
      expect(JSON.stringify(r.body)).not.toContain(tok);
      const admin = await list(`series=${made[kind].id}`, 'admin');
      expect(admin.body.total, kind).toBe(3);
    }
    expect((await list(`series=${made.protected.id}`)).body.total).toBe(3);
  });
});
