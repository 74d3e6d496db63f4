// Undoing a write whose answer was lost: what a probe finds, and what it must leave alone.
import { describe, expect, it } from 'vitest';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import type { WpResponse } from '../wp/client.ts';
import { rollback, Undo } from './undo.ts';

/** WordPress as the rollback sees it: a list answer per rest base, and the DELETEs it is sent. */
function fakeDeps(listed: Record<string, Array<Record<string, unknown>>>) {
  const deleted: string[] = [];
  const deps = {
    mapping: {
      event: { restBase: 'tribe_events' },
      venue: { restBase: 'tribe_venue' },
      organizer: { restBase: 'tribe_organizer' },
    },
    wp: {
      list: async (req: { path: string }) => ({ items: listed[req.path.split('/').pop()!] ?? [] }),
      request: async (req: { path: string; method?: string }) => {
        if (req.method === 'DELETE') deleted.push(req.path.replace('/wp/v2/', ''));
        return { status: 200, body: {} };
      },
    },
    indexes: { all: () => [] },
    terms: { invalidate: () => {} },
    catalog: { invalidate: () => {} },
    log: { warn: () => {}, debug: () => {} },
  } as unknown as Deps;
  return { deps, deleted };
}

const lost = () => Promise.reject(new ApiError('upstream_timeout', 'WordPress did not answer in time.', 504));

describe('rollback of a create whose answer was lost', () => {
  it('removes the record made while the create was on its way, not one made before or after by others', async () => {
    const undo = new Undo();
    await expect(
      undo.create(
        'posts',
        { restBase: 'tribe_events', search: 'Gala', title: 'Gala' },
        lost as () => Promise<WpResponse<{ id: number }>>,
      ),
    ).rejects.toThrow();
    const [probe] = undo.probes;
    expect(probe?.until).toBeDefined();
    const at = (iso: string, s: number) =>
      new Date(Date.parse(`${iso}Z`) + s * 1000).toISOString().slice(0, 19);
    const { deps, deleted } = fakeDeps({
      tribe_events: [
        { id: 1, title: { raw: 'Gala' }, modified_gmt: at(probe!.since, -60) }, // an older event of the same name
        { id: 2, title: { raw: 'Gala' }, modified_gmt: at(probe!.since, 1) }, // the lost create
        { id: 3, title: { raw: 'Gala' }, modified_gmt: at(probe!.until!, 30) }, // a retry made after the failure
        { id: 4, title: { raw: 'Gala dinner' }, modified_gmt: at(probe!.since, 1) }, // another title
      ],
    });
    await rollback(deps, undo);
    expect(deleted).toEqual(['tribe_events/2']);
    expect(undo.empty).toBe(true);
  });

  it('keeps looking while WordPress does not answer the search', async () => {
    const undo = new Undo();
    await expect(
      undo.create('terms', { restBase: 'tags', search: 'jazz', term: 'jazz' }, lost as never),
    ).rejects.toThrow();
    const { deps } = fakeDeps({});
    (deps.wp as { list: unknown }).list = () =>
      Promise.reject(new ApiError('upstream_unavailable', 'down', 503));
    await rollback(deps, undo);
    expect(undo.probes.map((p) => p.term)).toEqual(['jazz']);
  });
});
