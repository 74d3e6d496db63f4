// What the event index's tests share (event-index.test.ts, event-index-compaction.test.ts): the TEC mapping, a post,
// a WordPress that answers from an array and counts the calls, and an index built over it.
import { readFileSync } from 'node:fs';
import { vi } from 'vitest';
import { type Mapping, mappingSchema } from '../mapping/schema.ts';
import type { WpRequest } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { EventIndex, type IndexClient } from './event-index.ts';
import type { BuildProgress, IndexLogger } from './progress.ts';
export const tec: Mapping = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../../mappings/tec.json', import.meta.url), 'utf8')),
);

export const post = (id: number, over: Partial<WpPost> = {}, meta: Record<string, string> = {}): WpPost => ({
  id,
  date: '2026-01-01T00:00:00',
  date_gmt: '2026-01-01T00:00:00',
  modified: '2026-01-01T00:00:00',
  modified_gmt: '2026-01-01T00:00:00',
  slug: `event-${id}`,
  status: 'publish',
  type: 'tribe_events',
  link: '',
  title: { raw: `Event ${id}`, rendered: '' },
  tribe_events_cat: [],
  tags: [],
  meta: { _EventStartDate: `2026-05-${String(id).padStart(2, '0')} 10:00:00`, ...meta },
  ...over,
});

/** wp/v2 over an array: status CSV, modified_after, include, per_page/page ordered by id. Records every call. */
export class FakeWp implements IndexClient {
  posts: WpPost[];
  calls: WpRequest[] = [];
  /** When set, each list call waits for it (to hold a crawl open). */
  gate: Promise<void> | null = null;
  fail: Error | null = null;

  constructor(posts: WpPost[]) {
    this.posts = posts;
  }

  async request<T>(req: WpRequest) {
    this.calls.push(req);
    if (this.gate) await this.gate;
    if (this.fail) throw this.fail;
    const q = req.query ?? {};
    const statuses = String(q.status ?? 'publish').split(',');
    const after = q.modified_after ? Date.parse(String(q.modified_after)) : null;
    const include = q.include ? String(q.include).split(',').map(Number) : null;
    const matches = this.posts
      .filter((p) => statuses.includes(p.status))
      .filter((p) => after === null || Date.parse(`${p.modified_gmt}Z`) > after)
      .filter((p) => !include || include.includes(p.id))
      .sort((a, b) => a.id - b.id)
      .map((p) => structuredClone(p));
    const perPage = Number(q.per_page ?? 10);
    const page = Number(q.page ?? 1);
    const headers = new Headers({
      'x-wp-total': String(matches.length),
      'x-wp-totalpages': String(Math.ceil(matches.length / perPage)),
    });
    return { status: 200, body: matches.slice((page - 1) * perPage, page * perPage) as T, headers };
  }

  async list<T>(req: WpRequest) {
    const res = await this.request<T[]>(req);
    const total = Number(res.headers.get('x-wp-total'));
    return { items: res.body, total, totalPages: Number(res.headers.get('x-wp-totalpages')) };
  }

  async all<T>(req: WpRequest, onPage?: (done: number, total: number) => void): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const r = await this.list<T>({ ...req, query: { ...req.query, per_page: 100, page } });
      out.push(...r.items);
      onPage?.(out.length, r.total);
      if (page >= r.totalPages) return out;
    }
  }

  edit(id: number, over: Partial<WpPost>, modifiedGmt: string): void {
    const i = this.posts.findIndex((p) => p.id === id);
    this.posts[i] = { ...this.posts[i], ...over, modified_gmt: modifiedGmt };
  }
}

export const quiet: BuildProgress = { start() {}, update() {}, finish() {}, fail() {} };
export const silentLogger = () => ({
  info: vi.fn<IndexLogger['info']>(),
  warn: vi.fn<IndexLogger['warn']>(),
});
export const listAll = { statuses: ['publish'], page: 1, perPage: 100 };

export async function built(posts: WpPost[], overlapMs = 0) {
  const wp = new FakeWp(posts);
  const index = new EventIndex({
    client: wp,
    mapping: tec,
    language: 'es',
    logger: silentLogger(),
    overlapMs,
  });
  await index.build(quiet);
  return { wp, index };
}
