// The change log in Redis: one stream `<prefix>changes` shared by every instance, trimmed by age (MINID), its
// ledger beside it (the same hash slot), a change appended by one script so instances and sources never log it twice.
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../cache/redis.ts';
import { changeOf, decide, nowGmt, type Observation, stateOf } from './ledger.ts';
import type { LogContext } from './memory-log.ts';
import { type ChangeStore, compareIds, type LedgerPage } from './store.ts';
import type { Change, ChangeKind, LoggedChange } from './types.ts';

/**
 * Trims what is older than the retention (exact MINID), noting the newest id removed under KEYS[3]: a cursor before it
 * lost entries (Redis keeps no such mark: `max-deleted-entry-id` follows XDEL only). ARGV[5]: the minimum id.
 */
const TRIM = `
local old = redis.call('XREVRANGE', KEYS[1], '(' .. ARGV[5], '-', 'COUNT', 1)
if #old > 0 then
  redis.call('SET', KEYS[3], old[1][1])
  redis.call('XTRIM', KEYS[1], 'MINID', ARGV[5])
end
`;

/**
 * The rules of `decide` (src/changes/ledger.ts) in Lua, with the append: the ledger entry is compared and written and
 * the stream entry added in one step, whichever instance or source saw the change first.
 * KEYS: stream, ledger, trimmed mark. ARGV: id, version (`-` gone), order, public, minid, now (gmt), kind, rest_url, tags,
 * force (`1`: a write through the gateway; its entry is marked `|w`, and the same version is logged again only over a
 * write's entry, else only marked).
 */
const OBSERVE = `
${TRIM}
local prev = redis.call('HGET', KEYS[2], ARGV[1])
local pv, po, pp, pw = nil, '', '0', ''
if prev then pv, po, pp, pw = string.match(prev, '^([^|]*)|([^|]*)|(.)|?(w?)$') end
local v, order, pub = ARGV[2], ARGV[3], ARGV[4]
local live = pv ~= nil and pv ~= '-'
local action, was, state
if v == '-' then
  if pv == '-' then return false end
  if order == '' then order = po end
  action, pub, state = 'deleted', '0', '-|' .. order .. '|0'
else
  state = v .. '|' .. order .. '|' .. pub
  if ARGV[10] == '1' then state = state .. '|w' end
  if pv == v then
    if ARGV[10] ~= '1' then return false end
    if pw ~= 'w' then
      redis.call('HSET', KEYS[2], ARGV[1], state)
      return false
    end
  end
  if pv ~= nil and order ~= '' and po ~= '' then
    if pv == '-' and order <= po then return false end
    if pv ~= '-' and order < po then return false end
  end
  action = live and 'updated' or 'created'
end
if live and pp == '1' then was = '1' else was = '0' end
local modified = ARGV[3]
if action == 'deleted' or modified == '' then modified = ARGV[6] end
redis.call('HSET', KEYS[2], ARGV[1], state)
local id = redis.call('XADD', KEYS[1], '*', 'kind', ARGV[7], 'id', ARGV[1],
  'action', action, 'modified_utc', modified, 'rest_url', ARGV[8], 'tags', ARGV[9], 'public', pub, 'was_public', was)
return {id, action, was, modified, pub}
`;

type Entries = Array<[string, string[]]>;

/** A stream entry as a logged change (fields as strings, per src/changes/types.ts). */
export function entryOf(id: string, fields: string[]): LoggedChange {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  const logged: LoggedChange = {
    kind: f.kind as ChangeKind,
    id: Number(f.id),
    action: f.action as LoggedChange['action'],
    modified_utc: f.modified_utc ?? '',
    rest_url: f.rest_url ?? '',
    tags: f.tags ? f.tags.split(',') : [],
    public: f.public === '1',
    cursor: id,
  };
  if (f.was_public !== undefined) logged.was_public = f.was_public === '1';
  return logged;
}

/** How long one follow read blocks: the loop notices a close within this. */
const BLOCK_MS = 2_000;

/** A change as the fields of its stream entry (strings; `tags` comma-joined, booleans as `1`/`0`): see types.ts. */
export function streamFields(change: Change): string[] {
  const c = change as Change & { was_public?: boolean };
  return [
    'kind',
    c.kind,
    'id',
    String(c.id),
    'action',
    c.action,
    'modified_utc',
    c.modified_utc,
    'rest_url',
    c.rest_url,
    'tags',
    c.tags.join(','),
    'public',
    c.public ? '1' : '0',
    ...(c.was_public === undefined ? [] : ['was_public', c.was_public ? '1' : '0']),
  ];
}

export class RedisChangeLog implements ChangeStore {
  readonly retentionMs: number;
  readonly taxonomy: Record<'category' | 'tag', string>;
  readonly #cmd: RedisClient;
  /** A connection of its own for the blocking reads of `follow` (made on first use). */
  readonly #reader: () => RedisClient;
  #follower?: RedisClient;
  readonly #ctx: LogContext;
  readonly key: string;
  readonly #meta: string;
  readonly #listeners = new Set<(c: LoggedChange) => void>();
  #following = false;
  #closed = false;
  #epoch?: Promise<string>;

  constructor(cmd: RedisClient, reader: () => RedisClient, prefix: string, ctx: LogContext) {
    this.#cmd = cmd;
    this.#reader = reader;
    this.#ctx = ctx;
    this.retentionMs = ctx.retentionMs;
    this.taxonomy = ctx.taxonomy;
    this.key = `${prefix}changes`;
    // `{<prefix>changes}`: the ledger hashes to the stream's slot, so one script touches both on a Cluster.
    this.#meta = `{${this.key}}`;
  }

  #ledgerKey(kind: ChangeKind): string {
    return `${this.#meta}:ledger:${kind}`;
  }

  #now(): Date {
    return this.#ctx.now?.() ?? new Date();
  }

  #minId(): string {
    return String(Math.max(0, this.#now().getTime() - this.retentionMs));
  }

  epoch(): Promise<string> {
    this.#epoch ??= (async () => {
      const key = `${this.#meta}:epoch`;
      await this.#cmd.set(key, randomBytes(6).toString('base64url'), 'NX');
      const e = await this.#cmd.get(key);
      if (!e) throw new Error('change log epoch could not be read');
      return e;
    })();
    this.#epoch.catch(() => {
      this.#epoch = undefined;
    });
    return this.#epoch;
  }

  async append(change: Change): Promise<LoggedChange> {
    const fields = streamFields(change);
    await this.#trim();
    const id = await this.#cmd.xadd(this.key, '*', ...fields);
    return entryOf(id!, fields);
  }

  async observe(o: Observation): Promise<LoggedChange | null> {
    // The same rules as `decide`, checked here first so that most repeats cost one HGET, not a script.
    const prev = (await this.#cmd.hget(this.#ledgerKey(o.kind), String(o.id))) ?? undefined;
    const d = decide(prev, o);
    if (!d) return null;
    const c = changeOf(o, { ...d, action: d.action ?? 'updated' }, { ...this.#ctx, now: this.#now() });
    const res = (await this.#cmd.eval(
      OBSERVE,
      3,
      this.key,
      this.#ledgerKey(o.kind),
      this.#trimmedKey,
      String(o.id),
      o.version ?? '-',
      o.order,
      o.version !== null && o.public ? '1' : '0',
      this.#minId(),
      nowGmt(this.#now()),
      o.kind,
      c.rest_url,
      c.tags.join(','),
      o.force ? '1' : '0',
    )) as [string, string, string, string, string] | null;
    if (!res) return null;
    const [id, action, was, modified, pub] = res;
    return {
      ...c,
      action: action as LoggedChange['action'],
      was_public: was === '1',
      public: pub === '1',
      modified_utc: modified,
      cursor: id,
    };
  }

  async read(cursor: string, limit: number): Promise<LoggedChange[]> {
    const from = cursor === '0' ? '-' : `(${cursor}`;
    const entries = (await this.#cmd.xrange(this.key, from, '+', 'COUNT', limit)) as Entries;
    return entries.map(([id, fields]) => entryOf(id, fields));
  }

  get #trimmedKey(): string {
    return `${this.#meta}:trimmed`;
  }

  #trim(): Promise<unknown> {
    return this.#cmd.eval(
      `${TRIM} return 1`,
      3,
      this.key,
      this.#ledgerKey('event'),
      this.#trimmedKey,
      '',
      '',
      '',
      '',
      this.#minId(),
    );
  }

  async head(): Promise<string> {
    const last = (await this.#cmd.xrevrange(this.key, '+', '-', 'COUNT', 1)) as Entries;
    if (last[0]) return last[0][0];
    return (await this.#cmd.get(this.#trimmedKey)) ?? '0';
  }

  async expired(cursor: string): Promise<boolean> {
    // Trim now, so that the answer does not depend on when the last append trimmed.
    await this.#trim();
    const trimmed = await this.#cmd.get(this.#trimmedKey);
    return trimmed !== null && compareIds(cursor, trimmed) < 0;
  }

  async scan(kind: ChangeKind, cursor: string, count: number): Promise<LedgerPage> {
    const [next, flat] = await this.#cmd.hscan(this.#ledgerKey(kind), cursor, 'COUNT', count);
    const entries: Array<[number, string]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) entries.push([Number(flat[i]), flat[i + 1]!]);
    return { entries, next };
  }

  async states(kind: ChangeKind, ids: number[]): Promise<Array<string | undefined>> {
    if (!ids.length) return [];
    const got = await this.#cmd.hmget(this.#ledgerKey(kind), ...ids.map(String));
    return got.map((s) => s ?? undefined);
  }

  async seeded(kind: ChangeKind): Promise<boolean> {
    return (await this.#cmd.hexists(`${this.#meta}:seeded`, kind)) === 1;
  }

  async seed(kind: ChangeKind, observations: Observation[]): Promise<void> {
    const key = this.#ledgerKey(kind);
    for (let i = 0; i < observations.length; i += 1000) {
      const p = this.#cmd.pipeline();
      for (const o of observations.slice(i, i + 1000)) p.hsetnx(key, String(o.id), stateOf(o));
      for (const [err] of (await p.exec()) ?? []) if (err) throw err;
    }
  }

  async markSeeded(kind: ChangeKind): Promise<void> {
    await this.#cmd.hset(`${this.#meta}:seeded`, kind, nowGmt(this.#now()));
  }

  follow(listener: (change: LoggedChange) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#following) {
      this.#following = true;
      this.#run().catch(() => {});
    }
    return () => this.#listeners.delete(listener);
  }

  /** Reads what any instance appends, from the stream's end when first called, on a connection of its own. */
  async #run(): Promise<void> {
    let last: string | undefined;
    while (!this.#closed) {
      try {
        this.#follower ??= this.#reader();
        last ??= await this.head();
        const res = (await this.#follower.xread('BLOCK', BLOCK_MS, 'STREAMS', this.key, last)) as Array<
          [string, Entries]
        > | null;
        for (const [, entries] of res ?? []) {
          for (const [id, fields] of entries) {
            last = id;
            const c = entryOf(id, fields);
            for (const l of this.#listeners) l(c);
          }
        }
      } catch {
        if (this.#closed) return;
        // Redis away: try again shortly; `last` keeps the place, so nothing appended meanwhile is missed.
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#follower?.disconnect();
  }
}
