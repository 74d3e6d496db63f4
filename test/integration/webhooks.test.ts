// Webhooks over the mock and the real WordPress: the gateway's writes reach a public and a private subscription as
// each may see them (a record leaving public view is a deletion to the public one; a draft is nothing to it).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { type Receiver, receiver, until } from '../webhooks/support.ts';
import { Fixtures, monthOf, token } from './fixtures.ts';

let t: Target;
let fx: Fixtures;
const tok = token();
const day = monthOf(2034, 5);
const receivers: Receiver[] = [];

/** Subscribes a new receiver through the ops API as an administrator; resolves it with its verified payloads. */
async function subscribe(isPrivate: boolean) {
  const r = await receiver();
  receivers.push(r);
  const res = await fetch(`${t.gateway.url}/calendar-gateway/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: t.auth.admin, 'content-type': 'application/json' },
    body: JSON.stringify({ url: r.url, types: ['*'], private: isPrivate }),
  });
  expect(res.status).toBe(201);
  const { secret } = (await res.json()) as { secret: string };
  const hook = new Webhook(secret);
  const about = (id: number) =>
    r.deliveries
      .map(
        (d) =>
          hook.verify(d.body, d.headers as Record<string, string>) as { type: string; data: { id: number } },
      )
      .filter((p) => p.data.id === id)
      .map((p) => p.type);
  return { r, about };
}

beforeAll(async () => {
  t = await openTarget({ webhookAllowPrivateTargets: 'true' });
  fx = new Fixtures(t);
  await t.gateway.deps.changesReconciled;
});
afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
  for (const r of receivers) await r.close();
});

describe('webhooks of the gateway’s writes', () => {
  it('tell a public subscription what the public sees, and a private one everything', async () => {
    const pub = await subscribe(false);
    const all = await subscribe(true);
    const ev = await fx.event({
      title: `hook ${tok}`,
      status: 'publish',
      start_date: day(3),
      end_date: day(3, '11:00:00'),
    });
    await until('created, to both', () => pub.about(ev.id).length === 1 && all.about(ev.id).length === 1);
    expect(pub.about(ev.id)).toEqual(['event.created']);
    const draft = await call(t, 'POST', `/events/${ev.id}`, { as: 'admin', body: { status: 'draft' } });
    expect(draft.status).toBe(200);
    await until('the draft, to both', () => pub.about(ev.id).length === 2 && all.about(ev.id).length === 2);
    // Leaving public view is a deletion to the public; the private subscription hears the update as made.
    expect(pub.about(ev.id)).toEqual(['event.created', 'event.deleted']);
    expect(all.about(ev.id)).toEqual(['event.created', 'event.updated']);
    const del = await call(t, 'DELETE', `/events/${ev.id}`, { as: 'admin' });
    expect(del.status).toBe(200);
    await until('the deletion, privately', () => all.about(ev.id).length === 3);
    expect(all.about(ev.id)[2]).toBe('event.deleted');
    // The public was told already: a draft's deletion is nothing to it.
    await new Promise((r) => setTimeout(r, 500));
    expect(pub.about(ev.id)).toEqual(['event.created', 'event.deleted']);
  });
});
