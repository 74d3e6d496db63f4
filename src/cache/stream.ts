// The invalidation stream: every instance appends its invalidations to one Redis Stream (trimmed to about
// STREAM_LENGTH entries) and reads it from its last id with a blocking XREAD on a connection of its own. After a
// reconnect or a failover it reads on from that id, so nothing it missed is lost; when the entries after that id are
// gone (trimmed, or a failover lost them), it says so and the caller drops its whole in-process cache.
import type { RedisLink } from './redis.ts';

export interface InvalidationMessage {
  origin: string;
  tags?: string[];
  all?: boolean;
}

export interface StreamListener {
  message(m: InvalidationMessage): void;
  /** Entries this instance had not read are gone: what it holds may be stale. `why` is for the log. */
  gap(why: string): void;
  /**
   * The reader knows where it reads on from (the stream's end when it first looked): what this instance cached
   * before then may have missed an invalidation appended in between.
   */
  started?(): void;
}

/** About how many entries the stream keeps (`MAXLEN ~`): at 10 writes a second, a quarter of an hour. */
export const STREAM_LENGTH = 10_000;
/** How long one XREAD blocks: the reader notices a closed link within this. */
const BLOCK_MS = 2_000;
const REPLICAS = 1;
const WAIT_MS = 100;

/** Stream ids (`<ms>-<seq>`) in order. */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
}

type Entries = Array<[string, string[]]>;

export class InvalidationStream {
  readonly #link: RedisLink;
  readonly key: string;
  readonly #replicated: boolean;
  /** The id of the last entry read; undefined until the first read of the stream's end. */
  #last: string | undefined;
  #listening = false;
  /** For tests and the figures in docs/deploy.md: entries read, of which read late (after a reconnect), and gaps. */
  readonly stats = { read: 0, replayed: 0, gaps: 0, started: false };

  constructor(link: RedisLink, key: string, replicated: boolean) {
    this.#link = link;
    this.key = key;
    this.#replicated = replicated;
  }

  /**
   * Appends one message, trimming the stream to about STREAM_LENGTH entries. With replicas it waits (≤ 100 ms) for
   * one to hold the entry, so that a failover right after does not lose it; a master without a live replica (the
   * replica that just took over) still takes the entry after those 100 ms.
   */
  async append(m: InvalidationMessage): Promise<void> {
    const p = this.#link.cmd
      .pipeline()
      .xadd(this.key, 'MAXLEN', '~', STREAM_LENGTH, '*', 'm', JSON.stringify(m));
    if (this.#replicated) p.wait(REPLICAS, WAIT_MS);
    const res = (await p.exec()) ?? [];
    for (const [err] of res) if (err) throw err;
  }

  /** Starts the background read (once); it ends when the link is closed. */
  listen(l: StreamListener): void {
    if (this.#listening) return;
    this.#listening = true;
    this.#run(l).catch(() => {});
  }

  get #closed(): boolean {
    return this.#link.reader.status === 'end';
  }

  async #edge(which: 'first' | 'last'): Promise<string | undefined> {
    const r = this.#link.reader;
    const got = (
      which === 'first'
        ? await r.xrange(this.key, '-', '+', 'COUNT', 1)
        : await r.xrevrange(this.key, '+', '-', 'COUNT', 1)
    ) as Entries;
    return got[0]?.[0];
  }

  /**
   * Where to read on from after the link failed: from the last id when every entry after it is still there, else
   * (a gap) from the stream's end, after telling the listener. Also what the end of a replay is (for the count).
   */
  async #resume(l: StreamListener): Promise<string | undefined> {
    const first = await this.#edge('first');
    const last = await this.#edge('last');
    const mine = this.#last;
    if (mine === undefined) {
      // Never read before: start at the end (what came before concerns no copy this instance made… unless it filled
      // its cache while Redis was away at start-up: then it cannot know what it missed).
      this.#last = last ?? '0-0';
      this.stats.started = true;
      l.started?.();
      return undefined;
    }
    let why: string | undefined;
    if (last === undefined) {
      if (mine !== '0-0')
        why = 'the invalidation stream is gone (Redis lost its data, or a failover lost it)';
    } else if (compareIds(last, mine) < 0) {
      why = 'the invalidation stream ends before the last entry this instance read (a failover lost entries)';
    } else if (first !== undefined && compareIds(first, mine) > 0 && mine !== '0-0') {
      why = 'entries this instance had not read were trimmed from the invalidation stream';
    }
    if (why) {
      this.stats.gaps++;
      this.#last = last ?? '0-0';
      l.gap(why);
      return undefined;
    }
    return last;
  }

  /** Resolves whether the reader connected within `ms`. */
  #connected(ms: number): Promise<boolean> {
    const r = this.#link.reader;
    if (r.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      r.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  async #run(l: StreamListener): Promise<void> {
    const r = this.#link.reader;
    // Not connected after a second: Redis is away at start-up, and this instance fills its cache meanwhile.
    let failedBefore = !(await this.#connected(1_000));
    let check = true;
    let replayUntil: string | undefined;
    // A lost connection (or cluster node): ioredis sends a cut XREAD again once reconnected, so its answer is checked
    // for a gap before it is used.
    for (const event of ['close', 'reconnecting', 'node error', '-node'])
      r.on(event, () => {
        check = true;
      });
    while (!this.#closed) {
      try {
        if (check) {
          check = false;
          const started = this.#last !== undefined;
          replayUntil = await this.#resume(l);
          // Redis was away when this instance started: it may have cached what others invalidated meanwhile.
          if (!started && failedBefore) {
            this.stats.gaps++;
            l.gap('Redis was unavailable at start-up: invalidations of that time are unknown');
          }
        }
        const from = this.#last!;
        const res = (await r.xread('COUNT', 500, 'BLOCK', BLOCK_MS, 'STREAMS', this.key, from)) as Array<
          [string, Entries]
        > | null;
        if (check) {
          // The connection was lost during this read: its answer counts only if nothing after `from` is gone.
          check = false;
          replayUntil = await this.#resume(l);
          if (this.#last !== from) continue;
        }
        for (const [, entries] of res ?? []) {
          for (const [id, fields] of entries) {
            this.#last = id;
            this.stats.read++;
            if (replayUntil !== undefined && compareIds(id, replayUntil) <= 0) this.stats.replayed++;
            const text = fields[fields.indexOf('m') + 1];
            try {
              if (text) l.message(JSON.parse(text) as InvalidationMessage);
            } catch {
              // A malformed entry is skipped; entries still expire by TTL.
            }
          }
        }
      } catch {
        if (this.#closed) return;
        failedBefore = true;
        check = true;
        await new Promise((resolve) => setTimeout(resolve, 200).unref());
      }
    }
  }
}
