// The Redis tier (L2): entries as one binary value each, tag sets, pub/sub of invalidations.
import type { CacheEntry } from './entry.ts';
import { hashedKey } from './key.ts';
import type { RedisLink } from './redis.ts';

/** `{meta JSON}\n{body bytes}`: one GET returns everything, and the body is never decoded or re-encoded. */
export function encodeEntry(e: CacheEntry): Buffer {
  const meta = JSON.stringify({
    etag: e.etag,
    status: e.status,
    headers: e.headers,
    storedAt: e.storedAt,
    tags: e.tags,
  });
  return Buffer.concat([Buffer.from(`${meta}\n`), e.body]);
}

export function decodeEntry(buf: Buffer): CacheEntry | undefined {
  const nl = buf.indexOf(10);
  if (nl < 0) return undefined;
  try {
    const meta = JSON.parse(buf.subarray(0, nl).toString('utf8'));
    return { ...meta, body: buf.subarray(nl + 1) };
  } catch {
    return undefined;
  }
}

export interface InvalidationMessage {
  origin: string;
  tags?: string[];
  all?: boolean;
}

export class RedisTier {
  readonly #link: RedisLink;
  readonly #prefix: string;
  readonly channel: string;

  constructor(link: RedisLink, prefix: string) {
    this.#link = link;
    this.#prefix = prefix;
    this.channel = `${prefix}invalidate`;
  }

  get up(): boolean {
    return this.#link.up();
  }

  #entryKey = (key: string) => `${this.#prefix}e:${hashedKey(key)}`;
  #tagKey = (tag: string) => `${this.#prefix}t:${tag}`;

  async get(key: string): Promise<CacheEntry | undefined> {
    if (!this.up) return undefined;
    const buf = await this.#link.cmd.getBuffer(this.#entryKey(key));
    return buf ? decodeEntry(buf) : undefined;
  }

  /** Stores an entry and adds it to its tag sets; all expire with the entry's whole life (fresh + stale). */
  async set(key: string, entry: CacheEntry, lifeMs: number): Promise<void> {
    if (!this.up) return;
    const ek = this.#entryKey(key);
    const m = this.#link.cmd.multi().set(ek, encodeEntry(entry), 'PX', lifeMs);
    for (const t of entry.tags) m.sadd(this.#tagKey(t), ek).pexpire(this.#tagKey(t), lifeMs, 'GT');
    // A new tag set has no TTL, which `GT` treats as infinite: give it one.
    for (const t of entry.tags) m.pexpire(this.#tagKey(t), lifeMs, 'NX');
    await m.exec();
  }

  /** Deletes every entry carrying one of the tags, and the tag sets. */
  async invalidate(tags: string[]): Promise<void> {
    if (!this.up || tags.length === 0) return;
    const p = this.#link.cmd.pipeline();
    for (const t of tags) p.smembers(this.#tagKey(t));
    const res = (await p.exec()) ?? [];
    const keys = new Set<string>();
    for (const [err, members] of res) if (!err) for (const k of members as string[]) keys.add(k);
    const del = [...keys, ...tags.map(this.#tagKey)];
    for (let i = 0; i < del.length; i += 500) await this.#link.cmd.unlink(...del.slice(i, i + 500));
  }

  /** Deletes every entry and tag set under the prefix (not snapshots or locks). */
  async purgeAll(): Promise<number> {
    if (!this.up) return 0;
    let n = 0;
    for (const pattern of [`${this.#prefix}e:*`, `${this.#prefix}t:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await this.#link.cmd.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        if (keys.length) n += await this.#link.cmd.unlink(...keys);
      } while (cursor !== '0');
    }
    return n;
  }

  async publish(msg: InvalidationMessage): Promise<void> {
    if (!this.up) return;
    await this.#link.cmd.publish(this.channel, JSON.stringify(msg));
  }

  async subscribe(onMessage: (msg: InvalidationMessage) => void): Promise<void> {
    this.#link.sub.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      try {
        onMessage(JSON.parse(text) as InvalidationMessage);
      } catch {
        // A malformed message is ignored; entries still expire by TTL.
      }
    });
    await this.#link.sub.subscribe(this.channel);
  }
}
