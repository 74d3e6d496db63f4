// Turns what the gateway learns of a change (its own writes, the plugin's notifications, proxied wp/v2 writes, polls)
// into observations of the records' state now, and logs them: the ledger drops what another source logged already.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IndexedEvent } from '../index/columns/rows.ts';
import type { IndexRegistry } from '../index/registry.ts';
import { Periodic } from '../index/schedule.ts';
import { modifiedAfter } from '../index/sync.ts';
import type { Mapping } from '../mapping/schema.ts';
import { nextSlice as nextTurn, sliceOver } from '../pace/turns.ts';
import type { WpClient } from '../wp/client.ts';
import { type Observation, stateOf, stateOfEntry } from './ledger.ts';
import { Settling } from './settle.ts';
import type { ChangeStore } from './store.ts';
import type { ChangeKind } from './types.ts';

/** The post statuses a record exists in for the feed; trash is a deletion. */
const LIVE = ['publish', 'future', 'draft', 'pending', 'private'];
const POST_STATUSES = [...LIVE, 'trash'].join(',');

interface PostState {
  id: number;
  status: string;
  modified_gmt: string;
  password?: string;
  title?: unknown;
  content?: unknown;
  excerpt?: unknown;
  meta?: unknown;
}

interface TermState {
  id: number;
  name: string;
  slug: string;
  description?: string;
  parent?: number;
}

const gmt = (s: string): string => s.replace('T', ' ').slice(0, 19);

/** A post's observation from its status, stamp and password flag (an event's index facets or a wp/v2 read). Pure. */
export function postObservation(
  kind: ChangeKind,
  id: number,
  state: { status: string; modified: string; protected: boolean } | undefined,
): Observation {
  if (!state || !LIVE.includes(state.status)) {
    return { kind, id, version: null, order: state ? gmt(state.modified) : '', public: false };
  }
  const order = gmt(state.modified);
  return {
    kind,
    id,
    version: `${order}~${state.status}~${state.protected ? 1 : 0}`,
    order,
    public: state.status === 'publish' && !state.protected,
  };
}

/** A term's observation: its version is a digest of what it shows (a term has no modified date). Pure. */
export function termObservation(kind: ChangeKind, id: number, term: TermState | undefined): Observation {
  if (!term) return { kind, id, version: null, order: '', public: false };
  const shown = JSON.stringify([term.name, term.slug, term.description ?? '', term.parent ?? 0]);
  const version = createHash('sha256').update(shown).digest('base64url').slice(0, 16);
  return { kind, id, version, order: '', public: true };
}

/** A short digest of what a record shows beyond its stamp: a save within the same second is still a new version. */
const digest = (v: unknown): string =>
  createHash('sha256').update(JSON.stringify(v)).digest('base64url').slice(0, 10);

const eventObservation = (id: number, f: IndexedEvent | undefined): Observation => {
  const o = postObservation(
    'event',
    id,
    f && { status: f.status, modified: f.modifiedGmt, protected: f.protected },
  );
  // The facets the index holds (dates, venue, terms, flags): not the text, which it keeps only for search.
  // The same fields in the same order, whether read one by one or from the index's batches (which add the text).
  if (o.version !== null && f) {
    o.version += `~${digest([f.slug, f.start, f.end, f.categories, f.tags, f.venue, f.organizers, f.featured, f.hidden, f.parent, f.author, f.date, f.hasExcerpt])}`;
  }
  return o;
};

export interface RecorderDeps {
  changes: ChangeStore;
  wp: Pick<WpClient, 'all'>;
  mapping: Mapping;
  indexes: Pick<IndexRegistry, 'all'>;
  warn: (obj: object, msg: string) => void;
}

/** Cache tags (`venue:12`, `term:post_tag:3`) as the records they name, by kind. */
export function recordsOfTags(tags: readonly string[], mapping: Mapping): Map<ChangeKind, number[]> {
  const out = new Map<ChangeKind, number[]>();
  const add = (kind: ChangeKind, id: number) => {
    if (!Number.isInteger(id) || id <= 0) return;
    const ids = out.get(kind) ?? [];
    if (!ids.includes(id)) ids.push(id);
    out.set(kind, ids);
  };
  for (const t of tags) {
    const [a, b, c] = t.split(':');
    if (a === 'event' || a === 'venue' || a === 'organizer') add(a, Number(b));
    else if (a === 'term' && b === mapping.event.categories?.taxonomy) add('category', Number(c));
    else if (a === 'term' && b === mapping.event.tags?.taxonomy) add('tag', Number(c));
  }
  return out;
}

/** How far back each check of what changed reaches before the previous one (saves within the same second). */
const CHECK_OVERLAP_MS = 10_000;

/** The longest run of event digests between two turns of the event loop (ms; 250 warm digests are about 1 ms). */
const EVENT_SLICE_MS = 1;

export class ChangeRecorder {
  readonly #d: RecorderDeps;
  #timers: Periodic[] = [];
  /** Stops the start-up reconciliation's retries (`stop`). */
  #startRetries = new AbortController();
  /** What reads that may have caught a save half done saw, until it is read again (src/changes/settle.ts). */
  readonly #settling = new Settling((kind, held) => this.#recheck(kind, held));

  constructor(deps: RecorderDeps) {
    this.#d = deps;
  }

  /** How many records wait to be read again before they are logged. */
  get settling(): number {
    return this.#settling.size;
  }

  /**
   * What WordPress changed without telling the gateway (no companion plugin), for the kinds the event index does not
   * follow: venues and organizers by `modified_after` every `pollMs`, and every kind but events (the index reconciles
   * those) by comparing ids every `reconcileMs` (hard deletes, terms, which have no modified date).
   */
  start(
    pollMs: number,
    reconcileMs: number,
    logger: { info(o: object, m: string): void; warn(o: object, m: string): void },
  ): void {
    this.#stopChecks();
    let since = Date.now() - CHECK_OVERLAP_MS;
    const poll = new Periodic(
      'Change log check',
      async () => {
        const started = Date.now();
        for (const kind of ['venue', 'organizer'] as const) {
          const read = await this.#read(kind, { modified_after: modifiedAfter(since) });
          await this.#log([...read.values()], false);
        }
        since = started - CHECK_OVERLAP_MS;
      },
      logger,
    );
    const reconcile = new Periodic('Change log reconciliation', () => this.reconcile(KINDS.slice(1)), logger);
    poll.start(pollMs);
    reconcile.start(reconcileMs);
    this.#timers = [poll, reconcile];
  }

  stop(): void {
    this.#stopChecks();
    this.#settling.stop();
    this.#startRetries.abort();
  }

  /**
   * The start-up reconciliation, tried again until one run succeeds or the recorder stops: nothing else logs what
   * changed in events while no gateway ran (the periodic reconciliation leaves events to the index, whose fresh build
   * is no change), so a WordPress call that fails at start must not lose it. Waits `firstRetryMs`, doubling up to a
   * minute, between runs; each failure is logged with the next try's time.
   */
  async reconcileAtStart(logger: { warn(o: object, m: string): void }, firstRetryMs = 1_000): Promise<void> {
    const { signal } = this.#startRetries;
    for (let waitMs = firstRetryMs; !signal.aborted; waitMs = Math.min(waitMs * 2, 60_000)) {
      try {
        await this.reconcile();
        return;
      } catch (err) {
        if (signal.aborted) return;
        logger.warn(
          { err: (err as Error)?.message, retryInMs: waitMs },
          'the change log could not be reconciled with WordPress; trying again',
        );
      }
      await sleep(waitMs, undefined, { signal }).catch(() => {});
    }
  }

  #stopChecks(): void {
    for (const t of this.#timers) t.stop();
    this.#timers = [];
  }

  /**
   * Logs what the observations say changed, oldest stamp first (commit order, as far as WordPress tells it); what has
   * no stamp (a term, a deletion found by its absence) last. `settled: false`: they come from a read that may have
   * caught a save half done (a poll, a reconciliation), and a post modified in the last seconds is read again later.
   */
  async #log(observations: Observation[], settled = true): Promise<void> {
    const now = settled ? observations : this.#settling.hold(observations);
    const key = (o: Observation) => o.order || '~';
    const sorted = [...now].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    for (const o of sorted) await this.#d.changes.observe(o);
  }

  /**
   * Records held by the settling, read again now that their saves are over, and logged: an event whose index copy
   * tells nothing new to the log (a write through the gateway or a notification logged that save) needs no read;
   * the others are read from WordPress (events into the indexes, which a poll may have left half saved too). A save
   * begun since the one held waits in turn. Failures are logged, never thrown.
   */
  async #recheck(kind: ChangeKind, held: Map<number, string>): Promise<void> {
    try {
      let ids = [...held.keys()];
      if (kind === 'event') {
        const entries = await this.#d.changes.states(kind, ids);
        const now = this.#events(ids);
        if (!now.length) return;
        ids = ids.filter((_, i) => entries[i] === undefined || stateOfEntry(entries[i]) !== stateOf(now[i]!));
        if (!ids.length) return;
        await Promise.all(this.#d.indexes.all().map((index) => index.refetch(ids)));
      }
      const seen = await this.#observe(kind, ids);
      const same = seen.filter((o) => o.order <= (held.get(o.id) ?? ''));
      await this.#log(same);
      await this.#log(
        seen.filter((o) => !same.includes(o)),
        false,
      );
    } catch (err) {
      this.#d.warn({ err: (err as Error)?.message, kind }, 'changes could not be logged');
    }
  }

  /** Events the index holds now (after a poll, a re-read or a write); one it no longer holds is deleted. */
  async events(ids: readonly number[]): Promise<void> {
    await this.#log(this.#events(ids), false);
  }

  #events(ids: readonly number[]): Observation[] {
    if (!this.#d.indexes.all().length) return [];
    return ids.map((id) => eventObservation(id, this.#held(id)));
  }

  /** The event as the first index that holds it has it (the languages' indexes, in order). */
  #held(id: number, indexes = this.#d.indexes.all()): IndexedEvent | undefined {
    for (const i of indexes) {
      const f = i.get(id);
      if (f !== undefined) return f;
    }
    return undefined;
  }

  /**
   * Venues, organizers or terms as WordPress has them now (one read per 100 records, as the service account), after
   * the venue and organizer catalog's checks found them changed.
   */
  async records(kind: ChangeKind, ids: readonly number[]): Promise<void> {
    await this.#log(await this.#observe(kind, ids), false);
  }

  async #observe(kind: ChangeKind, ids: readonly number[]): Promise<Observation[]> {
    if (kind === 'event') return this.#events(ids);
    const out: Observation[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const now = await this.#read(kind, { include: chunk.join(',') });
      for (const id of chunk) out.push(now.get(id) ?? { kind, id, version: null, order: '', public: false });
    }
    return out;
  }

  /**
   * The records cache tags name (a write's answer, a notification's plan); failures are logged, never thrown. With
   * `only`, records of other kinds are looked at only when the log never heard of them: an event write names its
   * venue, organizers and terms, and only one it created with it is news (no WordPress read for the others).
   * `force`: the records of kind `only` were just written (a write through the gateway).
   */
  async tags(tags: readonly string[], only?: ChangeKind, force = false): Promise<void> {
    const byKind = recordsOfTags(tags, this.#d.mapping);
    const seen = await Promise.all(
      [...byKind].map(async ([kind, all]) => {
        try {
          let ids = all;
          if (only !== undefined && kind !== only) {
            const known = await this.#d.changes.states(kind, all);
            ids = all.filter((_, i) => known[i] === undefined);
          }
          const seen = ids.length ? await this.#observe(kind, ids) : [];
          // The written record itself changed, whatever its version says (see Observation.force).
          return force && kind === only ? seen.map((o) => ({ ...o, force: true })) : seen;
        } catch (err) {
          this.#d.warn({ err: (err as Error)?.message, kind }, 'changes could not be logged');
          return [];
        }
      }),
    );
    await this.#log(seen.flat()).catch((err: unknown) => {
      this.#d.warn({ err: (err as Error)?.message }, 'changes could not be logged');
    });
  }

  /** Every record of a kind as WordPress has it now (statuses the service account may read). */
  async #read(kind: ChangeKind, query: Record<string, string>): Promise<Map<number, Observation>> {
    const { mapping, wp } = this.#d;
    const out = new Map<number, Observation>();
    if (kind === 'category' || kind === 'tag') {
      const tax = kind === 'category' ? mapping.event.categories : mapping.event.tags;
      if (!tax) return out;
      const terms = await wp.all<TermState>({
        path: `/wp/v2/${tax.restBase}`,
        query: { hide_empty: 'false', _fields: 'id,name,slug,description,parent', ...query },
        as: 'service',
      });
      for (const t of terms) out.set(t.id, termObservation(kind, t.id, t));
      return out;
    }
    const source = kind === 'event' ? mapping.event : mapping[kind];
    const posts = await wp.all<PostState>({
      path: `/wp/v2/${source.restBase}`,
      query: {
        context: 'edit',
        status: POST_STATUSES,
        _fields: 'id,status,modified_gmt,password,title,content,excerpt,meta',
        orderby: 'id',
        order: 'asc',
        ...query,
      },
      as: 'service',
    });
    for (const p of posts) {
      const o = postObservation(kind, p.id, {
        status: p.status,
        modified: p.modified_gmt,
        protected: !!p.password,
      });
      if (o.version !== null) o.version += `~${digest([p.title, p.content, p.excerpt, p.meta])}`;
      out.set(p.id, o);
    }
    return out;
  }

  /**
   * The live events the indexes hold, as observations, about `size` at a time (an id the first index holds is its
   * observation). Streamed rather than gathered: a site's 100k observations held at once were 18 MB that every
   * collection of a process's first minute copied, and their digests ran in batches of 250 whatever the time (a cold
   * batch was 32 ms of the first feed's). Yields to the event loop every EVENT_SLICE_MS.
   */
  async *#liveEvents(size: number): AsyncGenerator<Observation[]> {
    const indexes = this.#d.indexes.all();
    let chunk: Observation[] = [];
    let t0 = performance.now();
    for (const [k, index] of indexes.entries()) {
      const snap = index.snapshot();
      if (!snap) continue;
      const earlier = indexes.slice(0, k);
      for (const batch of snap.batches(32)) {
        for (const f of batch) {
          if (this.#held(f.id, earlier) !== undefined) continue;
          const o = eventObservation(f.id, f);
          if (o.version !== null) chunk.push(o);
          if (!sliceOver(t0, EVENT_SLICE_MS)) continue;
          await nextTurn();
          t0 = performance.now();
        }
        if (chunk.length < size) continue;
        yield chunk;
        chunk = [];
        t0 = performance.now();
      }
    }
    if (chunk.length) yield chunk;
  }

  /** An event the ledger holds, if the indexes no longer hold it live: its observation now; else undefined. */
  #eventGone(id: number): Observation | undefined {
    const f = this.#held(id);
    return f && LIVE.includes(f.status) ? undefined : eventObservation(id, f);
  }

  /**
   * What exists now of a kind: its live records, a chunk at a time, and what a ledger entry's record is now (undefined:
   * still live). Events from the index, the rest from WordPress.
   */
  async #current(kind: ChangeKind): Promise<{
    live: AsyncIterable<Observation[]>;
    gone: (id: number) => Observation | undefined;
  }> {
    if (kind === 'event') return { live: this.#liveEvents(1000), gone: (id) => this.#eventGone(id) };
    const now = await this.#read(kind, {});
    const live = [...now.values()].filter((o) => o.version !== null);
    return {
      live: (async function* () {
        for (let i = 0; i < live.length; i += 1000) yield live.slice(i, i + 1000);
      })(),
      gone: (id) => {
        const held = now.get(id);
        return held && held.version !== null
          ? undefined
          : (held ?? { kind, id, version: null, order: '', public: false });
      },
    };
  }

  /**
   * The start-up reconciliation: what changed while no gateway ran is logged by its `modified_gmt`, and what was
   * deleted meanwhile is found by comparing ids with the ledger. A first start fills the ledger and logs nothing.
   */
  async reconcile(kinds: readonly ChangeKind[] = KINDS): Promise<void> {
    const { changes } = this.#d;
    const changed: Observation[] = [];
    for (const kind of kinds) {
      const seeded = await changes.seeded(kind);
      const now = await this.#current(kind);
      for await (const chunk of now.live) {
        if (!seeded) {
          await changes.seed(kind, chunk);
          continue;
        }
        const states = await changes.states(
          kind,
          chunk.map((o) => o.id),
        );
        chunk.forEach((o, k) => {
          if (states[k] === undefined || stateOfEntry(states[k]) !== stateOf(o)) changed.push(o);
        });
        // The in-memory log answers without a turn of the event loop: take one, as Redis's round trip would.
        await nextTurn();
      }
      if (!seeded) {
        await changes.markSeeded(kind);
        continue;
      }
      let cursor = '0';
      do {
        const page = await changes.scan(kind, cursor, 1000);
        for (const [id, state] of page.entries) {
          const gone = state.startsWith('-|') ? undefined : now.gone(id);
          if (gone) changed.push(gone);
        }
        cursor = page.next;
        await nextTurn();
      } while (cursor !== '0');
    }
    // All kinds together, by modified date: commit order across kinds, as far as WordPress tells it.
    await this.#log(changed, false);
  }
}

export const KINDS: readonly ChangeKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];
