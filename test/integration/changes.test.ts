// The changes feed over the mock and the real WordPress: what the gateway's own writes, proxied wp/v2 writes and
// edits made in WordPress put in the change log, and what `/changes` answers each caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedChange } from '../../src/changes/types.ts';
import { call, eventually, openTarget, type Target } from '../harness.ts';
import { editUpstream, Fixtures, monthOf, token } from './fixtures.ts';

let t: Target;
let fx: Fixtures;
const tok = token();
const day = monthOf(2034, 2);

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  await t.gateway.deps.changesReconciled;
});
afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

/** What the log holds after `cursor`, for one record. */
async function logged(cursor: string, kind: string, id: number): Promise<LoggedChange[]> {
  const all = await t.gateway.deps.changes!.read(cursor, 10_000);
  return all.filter((c) => c.kind === kind && c.id === id);
}

describe('the change log hears of every change once', () => {
  it("logs the gateway's own create, update and delete of an event, once each", async () => {
    const from = await t.gateway.deps.changes!.head();
    const ev = await fx.event({ title: `log ${tok}`, start_date: day(3), end_date: day(3, '11:00:00') });
    const up = await call(t, 'POST', `/events/${ev.id}`, { as: 'admin', body: { title: `log2 ${tok}` } });
    expect(up.status).toBe(200);
    const del = await call(t, 'DELETE', `/events/${ev.id}`, { as: 'admin' });
    expect(del.status).toBe(200);
    // The plugin's notification (real WordPress) and the index's poll may hear of the same changes: still once.
    await t.gateway.deps.indexes.all()[0]!.refresh();
    const got = await logged(from, 'event', ev.id);
    expect(got.map((c) => c.action)).toEqual(['created', 'updated', 'deleted']);
    expect(got[0]).toMatchObject({ public: true, tags: [`event:${ev.id}`, 'list:event'] });
    expect(got[0]!.rest_url).toMatch(new RegExp(`/wp-json/calendar/events/v1/events/${ev.id}$`));
  });

  it('logs an edit made in WordPress once the index polls it', async () => {
    const ev = await fx.event({ title: `wp ${tok}`, start_date: day(4), end_date: day(4, '11:00:00') });
    const from = await t.gateway.deps.changes!.head();
    await editUpstream(t, ev.id, { status: 'draft' });
    const got = await eventually(
      () => logged(from, 'event', ev.id),
      (x) => x.length > 0,
    );
    expect(got).toMatchObject([{ action: 'updated', public: false, was_public: true }]);
  });
});
