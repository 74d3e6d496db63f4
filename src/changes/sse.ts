// GET /changes with `Accept: text/event-stream`: the feed as server-sent events, resumable with Last-Event-ID, with a
// heartbeat. A page is read only once the previous one is written out (backpressure): a slow reader holds one page.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, RequestHandler, Response } from 'express';
import { isRedisUnavailable } from '../cache/redis.ts';
import type { RequestContext } from '../context.ts';
import { changesRoutes } from '../contract/changes.ts';
import type { Deps } from '../deps.ts';
import { audienceOf, credentialsOf } from '../http/credentials.ts';
import { internalError, invalidParams, tooManyChangeWaits } from '../http/errors.ts';
import { sendError, toApiError } from '../http/respond.ts';
import { encodeCursor, type Page, readPage } from './feed.ts';
import { tagsOf } from './ledger.ts';
import { cursorOf, seesOf } from './routes.ts';
import type { ChangeKind } from './types.ts';
import { nextChange, type Waits } from './waits.ts';

export interface StreamOptions {
  /** How often a comment goes out while nothing changes (proxies close idle connections). Default 15 s. */
  heartbeatMs?: number;
  /** Items read (and written) at a time. Default 100. */
  pageSize?: number;
  /** The API root of this language root (`rest_url` of the items). */
  apiRoot: (req: Request) => string;
  language: string;
}

/** Whether a request asks for the event stream (a browser's EventSource sends exactly this Accept). */
export const wantsEvents = (req: Request): boolean =>
  req.method === 'GET' && /(^|,)\s*text\/event-stream\b/i.test(req.get('accept') ?? '');

/** One page as server-sent events; the last carries the cursor after the page (what Last-Event-ID resumes from). */
export function eventsOf(page: Page): string {
  const next = encodeCursor(page.next);
  return page.items
    .map(
      (item, i) =>
        `${i === page.items.length - 1 ? `id: ${next}\n` : ''}event: change\ndata: ${JSON.stringify(item)}\n\n`,
    )
    .join('');
}

/** How long a stream waits before reading again after Redis did not answer. */
const STORE_RETRY_MS = 1_000;

export function changesStream(deps: Deps, waits: Waits, o: StreamOptions): RequestHandler {
  const heartbeatMs = o.heartbeatMs ?? 15_000;
  const pageSize = o.pageSize ?? 100;
  const retentionDays = (deps.changes?.retentionMs ?? 0) / 86_400_000;
  return (req, res, next) => {
    if (!wantsEvents(req) || (req.path !== '/' && req.path !== '')) return next();
    stream(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, toApiError(err, deps.log, String(req.get('x-request-id') ?? '')));
      else res.end();
    });
  };

  async function stream(req: Request, res: Response): Promise<void> {
    const store = deps.changes;
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const credentials = credentialsOf(req);
    const ctx: RequestContext = {
      audience: audienceOf(credentials),
      credentials,
      language: o.language,
      requestId: randomUUID(),
      client: req.ip,
      signal: aborted.signal,
    };
    if (!store) throw internalError(ctx.requestId);
    const sees = await seesOf(deps, ctx);
    const since = req.get('last-event-id') ?? req.query.since;
    if (since !== undefined && typeof since !== 'string') {
      throw invalidParams({ since: 'since must be 0, or the next cursor of an answer of this feed.' });
    }
    const parsed = changesRoutes.changes.args.since.schema.safeParse(since);
    let cursor = await cursorOf(store, parsed.success ? parsed.data : since, retentionDays);
    const release = waits.enter(req.ip);
    if (!release) throw tooManyChangeWaits(waits.max);
    try {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // nginx and other proxies would hold the events back in their buffers.
        'X-Accel-Buffering': 'no',
      });
      // A retry delay for EventSource, and a first comment so that the client sees the stream open.
      await write(res, 'retry: 2000\n: connected\n\n');
      const apiRoot = o.apiRoot(req);
      const tags = (k: ChangeKind, id: number) => tagsOf(k, id, store.taxonomy);
      let quietSince = Date.now();
      const heartbeat = async () => {
        if (Date.now() - quietSince < heartbeatMs) return;
        await write(res, ': heartbeat\n\n');
        quietSince = Date.now();
      };
      while (!aborted.signal.aborted) {
        let page: Page;
        try {
          page = await readPage(store, cursor, pageSize, sees, apiRoot, tags);
        } catch (err) {
          // Redis late or down for a moment (a command past its timeout under load, a failover): the stream stays
          // open and reads on from the same cursor, rather than ending and making every reader reconnect.
          if (!isRedisUnavailable(err)) throw err;
          await heartbeat();
          await sleep(STORE_RETRY_MS, undefined, { signal: aborted.signal }).catch(() => {});
          continue;
        }
        cursor = page.next;
        if (page.items.length) {
          await write(res, eventsOf(page));
          quietSince = Date.now();
        }
        if (page.more) continue;
        await heartbeat();
        const wait = Math.min(1_000, heartbeatMs - (Date.now() - quietSince));
        await nextChange((l) => store.follow(l), wait, aborted.signal);
      }
    } finally {
      release();
      res.end();
    }
  }
}

/** Writes a chunk, and waits for the socket to take it when its buffer is full (or for the reader to leave). */
async function write(res: Response, chunk: string): Promise<void> {
  if (res.destroyed) return;
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
