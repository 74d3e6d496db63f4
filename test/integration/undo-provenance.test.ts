// Issue 19: a write whose caller hangs up while a create is on its way removes only what that write made (the
// records carrying its token), never an editor's term, venue or organizer of the same name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aborted, upstreamTimeout } from '../../src/http/errors.ts';
import type { WpRequest } from '../../src/wp/client.ts';
import { WRITE_META, WRITE_QUERY } from '../../src/wp/probe.ts';
import { call, openTarget, type Role, type Target } from '../harness.ts';
import { guard } from '../slack.ts';
import { type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2034, 5);
let t: Target;
/** Records this file made straight in WordPress (rest base, id), removed at the end. */
const made: Array<[string, number]> = [];

beforeAll(async () => {
  t = await openTarget();
});

afterAll(async () => {
  for (const [rb, id] of made.reverse()) await wp('DELETE', `${rb}/${id}?force=true`).catch(() => undefined);
  await t?.close();
});

/** A wp/v2 call straight to WordPress, as an editor working in the admin (or `as`). */
async function wp(method: string, path: string, body?: Json, as: Role = 'editor') {
  const res = await fetch(`${t.upstream}/wp/v2/${path}`, {
    method,
    headers: { Authorization: t.auth[as], 'Content-Type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json & { id: number } };
}

/**
 * POSTs an event as `as` and hangs up when the gateway's create to `restBase` reaches WordPress's door; `meanwhile`
 * runs then: an editor's edit made while the create is on its way. The create goes on as fetch would take it: sent
 * with the caller's abort signal, it is abandoned when the caller hangs up (WordPress carries it out all the same,
 * and its answer is lost); sent without, it is seen through. `lose` loses its answer in any case, as a WordPress
 * that timed out would. Resolves when the gateway's undo is over.
 */
async function hangUpDuring(
  restBase: string,
  body: Json,
  as: Role,
  meanwhile: () => Promise<void> = async () => {},
  lose = false,
) {
  const client = t.gateway.deps.wp;
  const original = client.request.bind(client);
  const hangUp = new AbortController();
  let sentOn!: () => void;
  const done = new Promise<void>((r) => {
    sentOn = r;
  });
  client.request = (async (req: WpRequest) => {
    if (req.method !== 'POST' || req.path !== `/wp/v2/${restBase}`) return original(req);
    client.request = original;
    hangUp.abort();
    const signal = req.signal;
    if (signal && !signal.aborted)
      await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    // The gateway sees the hang-up (the socket's close) before the create's answer comes.
    else await new Promise((r) => setTimeout(r, 200));
    await meanwhile();
    try {
      const answer = original({ ...req, signal: undefined });
      if (signal || lose) {
        await answer.catch(() => undefined);
        throw signal ? aborted() : upstreamTimeout();
      }
      return await answer;
    } finally {
      sentOn();
    }
  }) as typeof client.request;
  const res = await fetch(`${t.api}/events`, {
    method: 'POST',
    headers: { Authorization: t.auth[as], 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: hangUp.signal,
  }).catch((err: unknown) => err);
  client.request = original;
  expect(res).toBeInstanceOf(Error);
  await done;
  await settled();
}

/** Waits until the gateway has no write left in its undo journal (the rollback after the hang-up is over). */
async function settled() {
  await expect.poll(() => t.gateway.deps.undo?.size(), { timeout: guard(10_000), interval: 50 }).toBe(0);
}

const tags = () => t.mapping.event.tags?.restBase ?? 'tags';

describe.each(['categories', 'tags'] as const)(
  'a caller hanging up while a term create of %s is on its way',
  (which) => {
    it("leaves the editor's term of the same name, and the editor's blog post keeps it", async () => {
      const tax = t.mapping.event[which];
      if (!tax) return;
      const name = `Editor ${which} ${tok}`;
      // The gateway's copy of the terms is loaded before the editor adds one: it does not know the new term.
      await t.gateway.deps.terms.all(tax, t.mapping.language.default);
      const term = await wp('POST', tax.restBase, { name });
      expect(term.status).toBe(201);
      made.push([tax.restBase, term.body.id]);
      // The editor's blog post uses it (no event does): where the taxonomy is attached to blog posts (tags on the
      // real WordPress; the mock has no blog posts).
      const post = await wp('POST', 'posts', {
        title: `Blog ${tok}`,
        status: 'publish',
        [tax.restBase]: [term.body.id],
      });
      if (post.status === 201) made.push(['posts', post.body.id]);
      const blog =
        post.status === 201 && (post.body[tax.restBase] as number[] | undefined)?.includes(term.body.id);

      await hangUpDuring(
        tax.restBase,
        {
          title: `Contributor ${which} ${tok}`,
          start_date: day(3),
          end_date: day(3, '12:00:00'),
          [which]: [name],
        },
        'contributor',
      );

      const after = await wp('GET', `${tax.restBase}/${term.body.id}?context=edit`);
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      expect(after.body.name).toBe(name);
      if (blog) {
        const tagged = await wp('GET', `posts/${post.body.id}?context=edit`);
        expect(tagged.body[tax.restBase]).toContain(term.body.id);
      }
    });
  },
);

describe.each(['venue', 'organizer'] as const)(
  'a caller hanging up while a nested %s create is on its way',
  (kind) => {
    it(`removes its own ${kind}, and leaves the editor's ${kind} of the same title made meanwhile`, async () => {
      const title = `Same ${kind} ${tok}`;
      const restBase = t.mapping[kind].restBase;
      let editors: number | undefined;
      await hangUpDuring(
        restBase,
        {
          title: `Contributor ${kind} ${tok}`,
          start_date: day(4),
          end_date: day(4, '12:00:00'),
          [kind]: kind === 'venue' ? { venue: title } : [{ organizer: title }],
        },
        'contributor',
        async () => {
          // The editor makes one of the same title while the contributor's create is on its way.
          const r = await wp('POST', restBase, { title, status: 'publish' });
          expect(r.status).toBe(201);
          editors = r.body.id;
          made.push([restBase, r.body.id]);
        },
      );

      const all = await wp(
        'GET',
        `${restBase}?search=${encodeURIComponent(title)}&status=any&context=edit`,
        undefined,
        'admin',
      );
      const rows = all.body as unknown as Array<{ id: number; meta: Record<string, unknown> }>;
      // The editor's stays; the contributor's own (its token) is gone: no orphan either.
      expect(rows.map((r) => r.id)).toEqual([editors]);
      expect(rows[0]?.meta[WRITE_META]).toBe('');
    });
  },
);

describe('a nested venue create whose answer is lost (WordPress timed out)', () => {
  it("is found by its write's token and removed; the editor's venue of the same title made meanwhile stays", async () => {
    const title = `Lost venue ${tok}`;
    const restBase = t.mapping.venue.restBase;
    let editors: number | undefined;
    await hangUpDuring(
      restBase,
      { title: `Lost ${tok}`, start_date: day(7), end_date: day(7, '12:00:00'), venue: { venue: title } },
      'contributor',
      async () => {
        const r = await wp('POST', restBase, { title, status: 'publish' });
        expect(r.status).toBe(201);
        editors = r.body.id;
        made.push([restBase, r.body.id]);
      },
      true,
    );
    const all = await wp(
      'GET',
      `${restBase}?search=${encodeURIComponent(title)}&status=any&context=edit`,
      undefined,
      'admin',
    );
    expect((all.body as unknown as Array<{ id: number }>).map((r) => r.id)).toEqual([editors]);
  });
});

describe('the write token', () => {
  it('is stored with what the gateway creates, found by the list filter, and never shown to readers', async () => {
    const res = await call<Json & { id: number; venue: { id: number } }>(t, 'POST', '/events', {
      as: 'admin',
      body: {
        title: `Stamped ${tok}`,
        start_date: day(5),
        end_date: day(5, '12:00:00'),
        status: 'publish',
        venue: { venue: `Stamped venue ${tok}`, status: 'publish' },
        tags: [`Stamped tag ${tok}`],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const events = t.mapping.event.restBase;
    made.push([events, res.body.id], [t.mapping.venue.restBase, res.body.venue.id]);
    const edit = await wp('GET', `${events}/${res.body.id}?context=edit`, undefined, 'admin');
    const stamp = (edit.body.meta as Json)[WRITE_META];
    expect(stamp).toMatch(/^[0-9a-f-]{36}$/);
    const tag = (edit.body[tags()] as number[])[0] as number;
    made.push([tags(), tag]);
    // Everything that write created, and nothing else, carries its token.
    for (const [rb, id, extra] of [
      [events, res.body.id, '&status=any'],
      [t.mapping.venue.restBase, res.body.venue.id, '&status=any'],
      [tags(), tag, '&hide_empty=false'],
    ] as const) {
      const found = await wp('GET', `${rb}?${WRITE_QUERY}=${stamp}&context=edit${extra}`, undefined, 'admin');
      expect((found.body as unknown as Array<{ id: number }>).map((r) => r.id)).toEqual([id]);
    }
    // Anonymous readers of wp/v2 and of the gateway never see it.
    const anon = await fetch(`${t.upstream}/wp/v2/${events}/${res.body.id}`).then((r) => r.text());
    expect(anon).not.toContain(WRITE_META);
    const anonTag = await fetch(`${t.upstream}/wp/v2/${tags()}/${tag}`).then((r) => r.text());
    expect(anonTag).not.toContain(WRITE_META);
    const through = await call(t, 'GET', `/events/${res.body.id}`, { as: 'admin' });
    expect(JSON.stringify(through.body)).not.toContain(WRITE_META);
    expect(JSON.stringify(through.body)).not.toContain(String(stamp));
  });
});

describe('a tag an editor added that the gateway has not read yet', () => {
  it("is the tag the event gets, and stays the editor's", async () => {
    const tax = t.mapping.event.tags;
    if (!tax) return;
    await t.gateway.deps.terms.all(tax, t.mapping.language.default);
    const name = `Known later ${tok}`;
    const term = await wp('POST', tax.restBase, { name });
    expect(term.status).toBe(201);
    made.push([tax.restBase, term.body.id]);
    const res = await call<Json & { id: number; tags: Array<{ id: number }> }>(t, 'POST', '/events', {
      as: 'contributor',
      body: { title: `Uses it ${tok}`, start_date: day(6), end_date: day(6, '12:00:00'), tags: [name] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push([t.mapping.event.restBase, res.body.id]);
    expect(res.body.tags.map((x) => x.id)).toEqual([term.body.id]);
  });
});
