// Undoing a failed write: only what carries the write's token is ever removed, never "the record with that name".
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import type { WpResponse } from '../wp/client.ts';
import { WRITE_META, WRITE_QUERY } from '../wp/probe.ts';
import { rollback, Undo } from './undo.ts';

type Row = { id: number; meta?: Record<string, unknown> };

/**
 * WordPress as the rollback sees it: the records per rest base, the lists and reads it answers as the service, and
 * the DELETEs it is sent (the caller's refused when `callerMayDelete` is false, as a contributor's delete of a term).
 */
function fakeDeps(
  records: Record<string, Row[]>,
  opts: { ignoresFilter?: boolean; callerMayDelete?: boolean; writeMeta?: boolean } = {},
) {
  const deleted: string[] = [];
  const asked: Array<Record<string, unknown>> = [];
  const warned: string[] = [];
  const base = (path: string) => path.split('/')[3] ?? '';
  const deps = {
    site: { writeMeta: opts.writeMeta ?? true },
    mapping: {
      event: { restBase: 'tribe_events', tags: { restBase: 'tags' } },
      venue: { restBase: 'tribe_venue' },
      organizer: { restBase: 'tribe_organizer' },
    },
    wp: {
      list: async (req: { path: string; query: Record<string, unknown> }) => {
        asked.push(req.query);
        const rows = records[base(req.path)] ?? [];
        const token = req.query[WRITE_QUERY];
        return {
          items: opts.ignoresFilter ? rows : rows.filter((r) => r.meta?.[WRITE_META] === token),
        };
      },
      request: async (req: { path: string; method?: string; as: unknown }) => {
        const [, , , rb = '', id] = req.path.split('/');
        const row = records[rb]?.find((r) => r.id === Number(id));
        if (!row) throw new ApiError('rest_post_invalid_id', 'Invalid post ID.', 404);
        if (req.method !== 'DELETE') return { status: 200, body: row };
        if (req.as !== 'service' && !opts.callerMayDelete)
          throw new ApiError('rest_cannot_delete', 'Sorry, you are not allowed to delete this term.', 403);
        deleted.push(`${rb}/${id}`);
        records[rb] = (records[rb] ?? []).filter((r) => r !== row);
        return { status: 200, body: {} };
      },
    },
    indexes: { all: () => [] },
    terms: { invalidate: () => {} },
    catalog: { invalidate: () => {} },
    log: { warn: (_: unknown, msg: string) => warned.push(msg), debug: () => {} },
  } as unknown as Deps;
  return { deps, deleted, asked, warned };
}

const lost = (() =>
  Promise.reject(new ApiError('request_aborted', 'The request was aborted.', 499))) as unknown as (
  meta: Record<string, string>,
) => Promise<WpResponse<{ id: number }>>;
const made = (id: number) => async () =>
  ({ status: 201, body: { id } }) as unknown as WpResponse<{ id: number }>;
const caller = { credentials: { kind: 'basic', header: 'Basic x', user: 'contributor' } } as RequestContext;

describe('rollback of a create whose answer was lost', () => {
  it("removes what carries the write's token, and no record of the same name made by an editor", async () => {
    const undo = new Undo();
    let sent: Record<string, string> = {};
    await expect(
      undo.create('terms', 'tags', (meta) => {
        sent = meta;
        return lost(meta);
      }),
    ).rejects.toThrow();
    expect(sent).toEqual({ [WRITE_META]: undo.token });
    const { deps, deleted, asked } = fakeDeps({
      tags: [
        { id: 1, meta: { [WRITE_META]: '' } }, // the editor's "Jazz", made a moment before
        { id: 2, meta: { [WRITE_META]: undo.token } }, // the lost create's own
        { id: 3, meta: { [WRITE_META]: 'another-write' } }, // another gateway write's
      ],
    });
    await rollback(deps, undo, caller);
    expect(deleted).toEqual(['tags/2']);
    expect(asked[0]).toMatchObject({ [WRITE_QUERY]: undo.token, context: 'edit' });
    expect(undo.empty).toBe(true);
  });

  it('deletes nothing else when the site ignores the filter and lists every record', async () => {
    const undo = new Undo();
    await expect(undo.create('posts', 'tribe_venue', lost)).rejects.toThrow();
    const { deps, deleted } = fakeDeps(
      {
        tribe_venue: [
          { id: 7, meta: {} },
          { id: 8, meta: { [WRITE_META]: undo.token } },
        ],
      },
      { ignoresFilter: true, callerMayDelete: true },
    );
    await rollback(deps, undo, caller);
    expect(deleted).toEqual(['tribe_venue/8']);
  });

  it('keeps looking while WordPress does not answer the search', async () => {
    const undo = new Undo();
    await expect(undo.create('terms', 'tags', lost)).rejects.toThrow();
    const { deps } = fakeDeps({});
    (deps.wp as { list: unknown }).list = () =>
      Promise.reject(new ApiError('upstream_unavailable', 'down', 503));
    await rollback(deps, undo);
    expect(undo.probes).toMatchObject([{ restBase: 'tags' }]);
  });

  it('waits for a lost create that may still land before it removes anything, and takes it when it lands', async () => {
    const undo = new Undo();
    await undo.create('posts', 'tribe_venue', made(4));
    await expect(undo.create('posts', 'tribe_events', lost)).rejects.toThrow();
    const records: Record<string, Row[]> = { tribe_venue: [{ id: 4, meta: { [WRITE_META]: undo.token } }] };
    const { deps, deleted } = fakeDeps(records, { callerMayDelete: true });
    await rollback(deps, undo, caller);
    // Not found yet: the event may still be on its way, and would link the venue.
    expect(deleted).toEqual([]);
    expect(undo.probes).toHaveLength(1);
    records.tribe_events = [{ id: 9, meta: { [WRITE_META]: undo.token } }];
    await rollback(deps, undo, caller);
    expect(deleted).toEqual(['tribe_events/9', 'tribe_venue/4']);
    expect(undo.empty).toBe(true);
  });

  it('looks once for a create WordPress could not take or answered with a server error: it will not land later', async () => {
    const undo = new Undo();
    const down = () =>
      Promise.reject(new ApiError('upstream_unavailable', 'WordPress cannot be reached.', 503));
    await expect(undo.create('posts', 'tribe_events', down)).rejects.toThrow();
    const { deps } = fakeDeps({});
    await rollback(deps, undo, caller);
    expect(undo.empty).toBe(true);
  });

  it('goes on with the rest once a lost create can no longer land, and watches for it apart', async () => {
    const undo = new Undo();
    await undo.create('posts', 'tribe_venue', made(4));
    await expect(undo.create('posts', 'tribe_events', lost)).rejects.toThrow();
    (undo.probes[0] as { lostAt?: number }).lostAt = Date.now() - 60_000;
    const records: Record<string, Row[]> = { tribe_venue: [{ id: 4, meta: { [WRITE_META]: undo.token } }] };
    const { deps, deleted, warned } = fakeDeps(records, { callerMayDelete: true });
    await rollback(deps, undo, caller);
    // The venue goes now; the event, past the time it could land, is watched for instead of forgotten.
    expect(deleted).toEqual(['tribe_venue/4']);
    expect(undo.probes).toEqual([]);
    expect(undo.late).toMatchObject([{ restBase: 'tribe_events' }]);
    expect(undo.empty).toBe(false);
    // WordPress finishes the create long after: the next sweep's rollback finds it by its token and removes it.
    records.tribe_events = [{ id: 9, meta: { [WRITE_META]: undo.token } }];
    await rollback(deps, undo);
    expect(deleted).toEqual(['tribe_venue/4', 'tribe_events/9']);
    expect(warned.join()).toContain('landed late');
    expect(undo.empty).toBe(true);
  });

  it('leaves a create never seen to the operator when its watch ends, naming its token', async () => {
    const undo = new Undo();
    await expect(undo.create('posts', 'tribe_events', lost)).rejects.toThrow();
    (undo.probes[0] as { lostAt?: number }).lostAt = Date.now() - 60_000;
    const { deps, deleted } = fakeDeps({});
    const errors: string[] = [];
    (deps.log as unknown as { error: unknown }).error = (_: unknown, msg: string) => errors.push(msg);
    await rollback(deps, undo, caller);
    expect(undo.late).toHaveLength(1);
    expect(errors).toEqual([]);
    undo.late[0]!.until = Date.now() - 1;
    await rollback(deps, undo);
    expect(deleted).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(undo.token);
    expect(errors[0]).toContain('left for the operator');
    expect(undo.empty).toBe(true);
  });

  it('logs a lost create for the operator, and deletes nothing, where the site does not register the token', async () => {
    const undo = new Undo(undefined, undefined, undefined, false);
    let sent: Record<string, string> | undefined;
    await expect(
      undo.create('terms', 'tags', (meta) => {
        sent = meta;
        return lost(meta);
      }),
    ).rejects.toThrow();
    expect(sent).toEqual({});
    const { deps, deleted, asked, warned } = fakeDeps(
      { tags: [{ id: 1 }, { id: 2 }] },
      { ignoresFilter: true, writeMeta: false },
    );
    await rollback(deps, undo, caller);
    expect(deleted).toEqual([]);
    expect(asked).toEqual([]);
    expect(warned.join()).toContain('left for the operator');
    expect(undo.empty).toBe(true);
  });
});

describe('what the service account deletes', () => {
  it("deletes an answered create the caller may not delete only once it has read the write's token on it", async () => {
    const undo = new Undo();
    await undo.create('terms', 'tags', made(5));
    await undo.create('terms', 'tags', made(6));
    const { deps, deleted, warned } = fakeDeps({
      tags: [
        { id: 5, meta: { [WRITE_META]: undo.token } },
        // Its answer named it, but it does not carry the token (changed since): the service leaves it.
        { id: 6, meta: { [WRITE_META]: '' } },
      ],
    });
    await rollback(deps, undo, caller);
    expect(deleted).toEqual(['tags/5']);
    expect(warned.join()).toContain('does not carry its write token');
    expect(undo.empty).toBe(true);
  });

  it('deletes with the caller’s credentials too only what carries the token: WordPress may answer a racing term create with the older term', async () => {
    const undo = new Undo();
    await undo.create('terms', 'tags', made(3));
    const { deps, deleted } = fakeDeps(
      { tags: [{ id: 3, meta: { [WRITE_META]: '' } }] },
      { callerMayDelete: true },
    );
    await rollback(deps, undo, caller);
    expect(deleted).toEqual([]);
    expect(undo.empty).toBe(true);
  });

  it('notes no step for a term create refused as term_exists (the term is someone else’s)', async () => {
    const undo = new Undo();
    const exists = () =>
      Promise.reject(
        new ApiError('term_exists', 'A term with the name provided already exists in this taxonomy.', 400),
      );
    await expect(undo.create('terms', 'tags', exists)).rejects.toThrow();
    expect(undo.empty).toBe(true);
  });
});

describe('a caller who hung up before the create was sent', () => {
  it('sends nothing and notes nothing', async () => {
    const undo = new Undo();
    let sent = false;
    const gone = AbortSignal.abort();
    await expect(
      undo.create(
        'posts',
        'tribe_events',
        async () => {
          sent = true;
          return made(1)();
        },
        gone,
      ),
    ).rejects.toMatchObject({ status: 499 });
    expect(sent).toBe(false);
    expect(undo.empty).toBe(true);
  });
});
