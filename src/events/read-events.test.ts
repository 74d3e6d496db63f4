import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { EventIndex } from '../index/event-index.ts';
import { loadMappingSync } from '../mapping/test-support.ts';
import type { WpRequest } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { readEvents } from './read-events.ts';
import type { Visibility } from './visibility.ts';

const tec = loadMappingSync('mappings/tec.json');
const ctx = { credentials: undefined, language: '', client: '127.0.0.1' } as unknown as RequestContext;
const index = { columnsNow: () => ({ hasExcerptOf: () => true }) } as unknown as EventIndex;
const visibility = { editor: false, statuses: ['publish'], ownStatuses: [] } as unknown as Visibility;

/** Deps whose WordPress answers `include=` lists with `answer`, noting which turn of the event loop each began in. */
function depsOf(answer: (ids: number[]) => Promise<WpPost[]>) {
  let turn = 0;
  const tick = () =>
    setImmediate(() => {
      turn++;
      if (turn < 1000) tick();
    });
  tick();
  const began: number[] = [];
  const wp = {
    list: async (req: WpRequest) => {
      began.push(turn);
      const ids = (req.query?.include ?? []) as number[];
      return { items: await answer(ids), total: ids.length, totalPages: 1 };
    },
  };
  return { deps: { wp, mapping: tec } as unknown as Deps, began };
}

const post = (id: number) => ({ id }) as unknown as WpPost;
const ids = Array.from({ length: 450 }, (_, i) => i + 1);

describe('readEvents', () => {
  it('reads a feed’s ids in pages of 100, in order, each page begun in a turn after the one before', async () => {
    const { deps, began } = depsOf(async (page) => page.map(post));
    const read = await readEvents(deps, ctx, index, ids, visibility, undefined);
    expect(read.map((p) => p.id)).toEqual(ids);
    expect(began).toHaveLength(5);
    for (let i = 1; i < began.length; i++) expect(began[i]!).toBeGreaterThan(began[i - 1]!);
  });

  it('fails with the first page that fails, while the next still wait to begin, and leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const note = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', note);
    try {
      const { deps } = depsOf(async (page) => {
        if (page[0] === 1) throw new Error('page 1 failed');
        return page.map(post);
      });
      await expect(readEvents(deps, ctx, index, ids, visibility, undefined)).rejects.toThrow('page 1 failed');
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});
