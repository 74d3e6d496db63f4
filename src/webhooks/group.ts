// The change log's Redis Stream read through a consumer group: every change is fanned out by one instance; one
// whose instance died before acknowledging it is claimed by another once it has been idle for a lease.
import { entryOf } from '../changes/redis-log.ts';
import type { LoggedChange } from '../changes/types.ts';
import type { SharedRedis } from '../shared-redis.ts';

export const GROUP = 'webhooks';
const BATCH = 100;

type Entry = [id: string, fields: string[]];

export class GroupReader {
  readonly #r: SharedRedis;
  readonly #consumer: string;
  readonly #minIdleMs: number;
  readonly key: string;
  #ready = false;

  constructor(redis: SharedRedis, consumer: string, minIdleMs: number) {
    this.#r = redis;
    this.#consumer = consumer;
    this.#minIdleMs = minIdleMs;
    this.key = `${redis.prefix}changes`;
  }

  /** The group starts at the log's end the first time: changes made before webhooks existed are not sent. */
  async #ensure(): Promise<void> {
    if (this.#ready) return;
    try {
      await this.#r.cmd.xgroup('CREATE', this.key, GROUP, '$', 'MKSTREAM');
    } catch (err) {
      if (!String((err as Error)?.message).includes('BUSYGROUP')) throw err;
    }
    this.#ready = true;
  }

  /**
   * Hands every change not yet fanned out to `handle`, a batch at a time, and acknowledges each batch once handled:
   * first those an instance that died left pending, then new ones.
   */
  async pump(handle: (changes: LoggedChange[]) => Promise<void>): Promise<void> {
    await this.#ensure();
    const cmd = this.#r.cmd;
    const [, stale] = (await cmd.xautoclaim(
      this.key,
      GROUP,
      this.#consumer,
      this.#minIdleMs,
      '0-0',
      'COUNT',
      BATCH,
    )) as [string, Entry[]];
    if (stale.length) await this.#handle(stale, handle);
    for (;;) {
      const got = (await cmd.xreadgroup(
        'GROUP',
        GROUP,
        this.#consumer,
        'COUNT',
        BATCH,
        'STREAMS',
        this.key,
        '>',
      )) as Array<[string, Entry[]]> | null;
      const entries = got?.[0]?.[1] ?? [];
      if (!entries.length) return;
      await this.#handle(entries, handle);
    }
  }

  async #handle(entries: Entry[], handle: (changes: LoggedChange[]) => Promise<void>): Promise<void> {
    // An entry trimmed away while pending comes back without fields: acknowledged, nothing to send.
    const changes = entries.filter(([, fields]) => fields?.length).map(([id, fields]) => entryOf(id, fields));
    if (changes.length) await handle(changes);
    await this.#r.cmd.xack(this.key, GROUP, ...entries.map((e) => e[0]));
  }
}
