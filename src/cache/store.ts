// The Redis tier (L2): entries as one binary value each, tag sets, and the stream of invalidations.
//
// Every command touches one key, or keys of one hash slot, so the same code runs on one Redis, a Sentinel's master and
// a Redis Cluster (docs/deploy.md, "Redis HA"):
// - an entry `<prefix>e:<hash>` lives in its own slot (entries spread over the masters);
// - a tag set `<prefix>t:<tag>` lives in its own slot; on a cluster a fill adds the entry to each tag set (one
//   single-key MULTI per tag) before it writes the entry, so an entry is never outside a tag set that names it (on one
//   master, one script writes them all);
// - an invalidation reads the tag sets, then unlinks the entries and the tag sets, one UNLINK per slot;
// - the stream `<prefix>invalidations` is one key: every instance reads it from its last id (stream.ts).
// With replicas (cluster, sentinel) deletions and stream entries are followed by `WAIT 1 100`: what an instance was
// told is done survives the loss of its master, as long as the master has a live replica (a master without one, e.g.
// the replica that just took over, answers after 100 ms and the invalidation still goes on).
import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import { ownBytes } from '../http/answer.ts';
import type { CacheEntry } from './entry.ts';
import { hashedKey } from './key.ts';
import type { RedisClient, RedisLink } from './redis.ts';
import { type InvalidationMessage, InvalidationStream, type StreamListener } from './stream.ts';

export type { InvalidationMessage } from './stream.ts';

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
    // ioredis answers with a view into the socket's read, which other replies share: the body is kept on its own.
    return { ...meta, body: ownBytes(buf.subarray(nl + 1)) };
  } catch {
    return undefined;
  }
}

/** Replicas that must hold a deletion or a stream entry before it counts as done, and how long to wait for them. */
const REPLICAS = 1;
const WAIT_MS = 100;

/** Keys of one node of a cluster, by slot: one UNLINK per slot, one pipeline (and one WAIT) per node. */
function bySlotAndNode(cmd: RedisClient, keys: readonly string[]): Map<string, Map<number, string[]>> {
  const nodes = new Map<string, Map<number, string[]>>();
  for (const k of keys) {
    const slot = calculateSlot(k);
    const node = cmd instanceof Cluster ? (cmd.slots[slot]?.[0] ?? `slot ${slot}`) : '';
    const slots = nodes.get(node) ?? new Map<number, string[]>();
    nodes.set(node, slots);
    const group = slots.get(slot);
    if (group) group.push(k);
    else slots.set(slot, [k]);
  }
  return nodes;
}

/**
 * KEYS[1] the entry, KEYS[2..] its tag sets; ARGV[1] the encoded entry, ARGV[2] its life (ms). Each tag set names the
 * entry and lives at least as long (`GT` keeps a longer life; a new set has none, which `GT` takes for infinite: `NX`).
 */
const FILL = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 2, #KEYS do
  redis.call('SADD', KEYS[i], KEYS[1])
  redis.call('PEXPIRE', KEYS[i], ARGV[2], 'GT')
  redis.call('PEXPIRE', KEYS[i], ARGV[2], 'NX')
end
return 1`;

export class RedisTier {
  readonly #link: RedisLink;
  readonly #prefix: string;
  readonly #replicated: boolean;
  readonly stream: InvalidationStream;

  constructor(link: RedisLink, prefix: string) {
    this.#link = link;
    this.#prefix = prefix;
    this.#replicated = link.mode !== 'standalone';
    this.stream = new InvalidationStream(link, `${prefix}invalidations`, this.#replicated);
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
    const cmd = this.#link.cmd;
    if (!(cmd instanceof Cluster)) {
      // One master: the entry and its tag sets in one script, one command. A MULTI of the same (1 + 3 commands a tag:
      // a list shows 20 to 60 tags) cost this process 1.1 ms of CPU a fill at 25 tags, 2.3 at 60, against 0.2.
      await cmd.eval(
        FILL,
        1 + entry.tags.length,
        ek,
        ...entry.tags.map(this.#tagKey),
        encodeEntry(entry),
        lifeMs,
      );
      return;
    }
    // A cluster: one single-key MULTI per tag set, then the entry, so an entry is never outside a tag set naming it.
    const tagged = (t: string) =>
      cmd
        .multi()
        .sadd(this.#tagKey(t), ek)
        .pexpire(this.#tagKey(t), lifeMs, 'GT')
        .pexpire(this.#tagKey(t), lifeMs, 'NX')
        .exec();
    await Promise.all(entry.tags.map(tagged));
    await cmd.set(ek, encodeEntry(entry), 'PX', lifeMs);
  }

  /** Deletes every entry carrying one of the tags, then the tag sets. */
  async invalidate(tags: string[]): Promise<void> {
    if (!this.up || tags.length === 0) return;
    const cmd = this.#link.cmd;
    const members = await Promise.all(tags.map((t) => cmd.smembers(this.#tagKey(t))));
    // One pipeline per node: the entries and the tag sets (a fill racing this re-adds both, see `set`).
    await this.#unlink([...new Set(members.flat()), ...tags.map(this.#tagKey)]);
  }

  /**
   * Unlinks keys, one UNLINK per slot (Redis Cluster refuses a multi-key command across slots), pipelined per node;
   * with replicas, the pipeline ends with a WAIT (≤ 100 ms) so that a failover right after keeps the deletion.
   */
  async #unlink(keys: readonly string[], on: RedisClient = this.#link.cmd): Promise<number> {
    if (keys.length === 0) return 0;
    const groups: string[][][] =
      on instanceof Cluster
        ? [...bySlotAndNode(on, keys).values()].map((slots) => [...slots.values()])
        : [[[...keys]]];
    const counts = await Promise.all(
      groups.map(async (slots) => {
        const p = on.pipeline();
        for (const g of slots) for (let i = 0; i < g.length; i += 500) p.unlink(...g.slice(i, i + 500));
        if (this.#replicated) p.wait(REPLICAS, WAIT_MS);
        const res = (await p.exec()) ?? [];
        let n = 0;
        for (const [err] of res) if (err) throw err;
        const replies = res.map(([, v]) => Number(v));
        // WAIT's answer (replicas that hold the deletion) is not a failure when 0: a master whose replica died (or
        // just took over) has none, and must still take deletions.
        if (this.#replicated) replies.pop();
        for (const v of replies) n += v;
        return n;
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Deletes every entry and tag set under the prefix on every master (not snapshots, locks nor the stream). */
  async purgeAll(): Promise<number> {
    if (!this.up) return 0;
    let n = 0;
    for (const master of this.#link.masters()) {
      for (const pattern of [`${this.#prefix}e:*`, `${this.#prefix}t:*`]) {
        let cursor = '0';
        do {
          const [next, keys] = await master.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
          cursor = next;
          // Through the cluster client: it sends each slot's keys to the node that serves it now.
          n += await this.#unlink(keys);
        } while (cursor !== '0');
      }
    }
    return n;
  }

  /** Appends an invalidation to the stream (every instance reads it, this one included). */
  publish(msg: InvalidationMessage): Promise<void> {
    return this.stream.append(msg);
  }

  /** Reads the stream from now on, in the background, until the link closes. */
  listen(listener: StreamListener): void {
    this.stream.listen(listener);
  }
}
