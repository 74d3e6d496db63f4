// A calendar of thousands of events: the index crawls it in bounded parallel pages, resumes a failed crawl where it
// stopped, catches up with thousands of changes in one poll, and lists them as WordPress stores them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventIndex, type IndexClient } from '../../src/index/event-index.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { guard } from '../slack.ts';

const COUNT = 3000;
let t: Target;
const tag = `Bulk${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  t = await openTarget();
  await t.bulkEvents(COUNT, tag);
}, guard(600_000));

afterAll(async () => {
  await t.removeBulk(tag);
  await t.close();
}, guard(600_000));

/** The gateway's WordPress client, counting the crawl's page requests in flight and failing one page on demand. */
function watched(failPage: { at: number | null }) {
  const wp = t.gateway.deps.wp;
  const pages: number[] = [];
  let inFlight = 0;
  let most = 0;
  const client: IndexClient = {
    all: (req, onPage, parallel) => wp.all(req, onPage, parallel),
    request: (req) => wp.request(req),
    list: async (req) => {
      const page = Number(req.query?.page ?? 1);
      pages.push(page);
      most = Math.max(most, ++inFlight);
      try {
        if (page === failPage.at) throw new Error('WordPress went away');
        return await wp.list(req);
      } finally {
        inFlight--;
      }
    },
  };
  return { client, pages, most: () => most, inFlight: () => inFlight };
}

describe('a calendar of thousands of events', { timeout: guard(600_000) }, () => {
  it('is crawled 3 pages at a time, and a failed crawl resumes at the page it stopped', async () => {
    const fail = { at: 7 as number | null };
    const w = watched(fail);
    const index = new EventIndex({
      client: w.client,
      mapping: t.mapping,
      language: t.mapping.language.default,
      logger: { info() {}, warn() {} },
      crawlConcurrency: 3,
    });
    await expect(index.build()).rejects.toThrow('WordPress went away');
    // The failed batch's other pages had settled before the failure was reported: none is left in flight.
    expect(w.inFlight()).toBe(0);
    const before = w.pages.length;
    fail.at = null;
    await index.build();
    const again = w.pages.slice(before);
    // Page 1 and the pages completed before the failure are not read again.
    expect(Math.min(...again)).toBeGreaterThan(4);
    expect(w.most()).toBe(3);
    expect(index.size).toBeGreaterThanOrEqual(COUNT);
    const mine = index.query({ statuses: ['publish'], search: tag, page: 1, perPage: 10_000 });
    expect(mine.total).toBe(COUNT);
    index.stop();
  });

  it('catches up with thousands of new events in one poll and lists them in start order, paged', async () => {
    const gatewayIndex = await t.gateway.deps.indexes.forLanguage(t.mapping.language.default);
    await gatewayIndex.refresh();
    const first = await call(
      t,
      'GET',
      `/events?search=${tag}&per_page=50&start_date=2031-01-01&end_date=2031-12-31`,
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('x-tec-total')).toBe(String(COUNT));
    expect(first.headers.get('x-tec-totalpages')).toBe(String(COUNT / 50));
    const titles = (first.body.events as { title: string }[]).map((e) => e.title);
    expect(titles.slice(0, 3)).toEqual([`${tag} event 0`, `${tag} event 1`, `${tag} event 2`]);
    const last = await call(
      t,
      'GET',
      `/events?search=${tag}&per_page=50&page=${COUNT / 50}&start_date=2031-01-01&end_date=2031-12-31`,
    );
    expect((last.body.events as { title: string }[]).at(-1)?.title).toBe(`${tag} event ${COUNT - 1}`);
    // A 30-day window (start on or after its first day, end on or before its last) holds 719 of them: one starts
    // each hour, and the one starting at 23:00 on the last day ends after it.
    const month = await call(
      t,
      'GET',
      `/events?search=${tag}&per_page=1&start_date=2031-02-01 00:00:00&end_date=2031-03-02 23:59:59`,
    );
    expect(month.headers.get('x-tec-total')).toBe('719');
  });
});
