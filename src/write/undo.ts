// What a write created on the way (nested venues, organizers, terms, uploads, the event itself), kept where a crash
// cannot lose it, so that a write that fails, or a process that dies mid-write, leaves nothing behind once
// WordPress answers again. The rule: every create carries the token of its write (WRITE_META, sent in the create
// request itself), and a rollback deletes only what carries that token, read back before each delete (the caller's
// too). A create whose answer never came (WordPress died or timed out) is looked for by its token, never by a title
// or a name. Where the site does not register the token, only ids the creates' own answers named are deleted, and a
// lost create is logged for the operator instead.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { ApiError, aborted } from '../http/errors.ts';
import type { IndexRegistry } from '../index/registry.ts';
import type { LinkedCatalog } from '../linked/catalog.ts';
import type { Logger } from '../log.ts';
import type { Mapping } from '../mapping/schema.ts';
import type { WpClient } from '../wp/client.ts';
import { asCaller, type WpResponse } from '../wp/client.ts';
import type { SiteFacts } from '../wp/probe.ts';
import { WRITE_META } from '../wp/probe.ts';
import type { TermCache } from '../wp/terms.ts';
import type { WpPost } from '../wp/types.ts';
import {
  type Entry,
  type Stamp,
  stepKey,
  type UndoJournal,
  type UndoProbe,
  type UndoStep,
} from './journal.ts';
import { rollback } from './rollback.ts';

export { type Stamp, UNDO_LEASE_MS, UndoJournal, type UndoProbe, type UndoStep } from './journal.ts';
export { rollback } from './rollback.ts';

/**
 * How long after its answer was lost a create may still land: WordPress had the upstream timeout to carry it out,
 * plus slack. Not finding its token before then proves nothing; the rollback waits (the sweep looks again).
 */
/**
 * What undoing a write reads and changes (the gateway's `Deps` has all of it): WordPress, the mapping and the site's
 * facts, the event indexes, the term cache and venue catalog to refresh, the response cache to drop removed events.
 */
export interface UndoDeps {
  wp: WpClient;
  mapping: Mapping;
  site: SiteFacts;
  indexes: IndexRegistry;
  log: Logger;
  terms: TermCache;
  catalog: LinkedCatalog;
  cache?: { forgetEvents(ids: readonly number[]): Promise<void> };
  undo?: UndoJournal;
}
export const landsWithin = (deps: UndoDeps): number => (deps.wp.options?.timeoutMs ?? 10_000) + 5_000;

/**
 * A write that fails now may have been carried out by WordPress: no answer, a server error, a cut body, or the
 * caller hanging up. Only a refusal (a 4xx answer) says nothing was made.
 */
export const mayHaveWritten = (err: unknown): boolean =>
  !(err instanceof ApiError && err.status < 500 && err.status !== 499);

/**
 * A lost create that WordPress may still be carrying out: one it had not finished when the gateway stopped waiting
 * (a timeout, or a call left behind). One it answered with a server error or a cut answer was over; one that could
 * not reach it, or died with it, will never land.
 */
const mayStillLand = (err: unknown): boolean =>
  !(err instanceof ApiError) || err.status === 504 || err.status === 499;

/** Whether the site registers WRITE_META, so that what the gateway creates carries its write's token. */
export const stamps = (deps: Partial<Pick<UndoDeps, 'site'>>): boolean => deps.site?.writeMeta === true;

/** A write's record: in the journal when the gateway has one. */
export const newUndo = (deps: Pick<UndoDeps, 'undo' | 'site'>): Undo =>
  deps.undo?.begin(stamps(deps)) ?? new Undo(undefined, undefined, undefined, stamps(deps));

/** One write's record of what it created. Without a journal (tests' own UndoDeps) it lives in memory only. */
export class Undo {
  readonly posts: UndoStep[] = [];
  readonly terms: UndoStep[] = [];
  readonly probes: UndoProbe[] = [];
  target?: UndoStep;
  readonly gone: number[] = [];
  /** What the write links to without having made it: see {@link claim}. */
  readonly uses: UndoStep[] = [];
  /** What its rollback is about to delete: see {@link rollback}. */
  readonly removing: UndoStep[] = [];
  readonly #id: string;
  readonly #journal?: UndoJournal;
  readonly #stamped: boolean;

  constructor(journal?: UndoJournal, id: string = randomUUID(), e?: Omit<Entry, 'due'>, stamped = true) {
    this.#journal = journal;
    this.#id = id;
    this.#stamped = stamped;
    if (e) {
      this.posts.push(...e.posts);
      this.terms.push(...e.terms);
      this.probes.push(...e.probes);
      this.target = e.target;
      this.gone.push(...(e.gone ?? []));
    }
  }

  /** The token every record this write creates carries (WRITE_META): the write's id. */
  get token(): string {
    return this.#id;
  }

  /**
   * Runs the create `send` with the meta that marks what it makes as this write's, noted first as a probe (written
   * down before WordPress sees it), then as the id it made. A refusal leaves nothing to note; a lost answer leaves
   * the probe. A caller that hung up before the create was sent sends nothing and notes nothing.
   */
  async create<T extends { id: number }>(
    kind: 'posts' | 'terms',
    restBase: string,
    send: (meta: Stamp) => Promise<WpResponse<T>>,
    signal?: AbortSignal,
  ): Promise<WpResponse<T>> {
    if (signal?.aborted) throw aborted();
    const p: UndoProbe = { restBase };
    this.probes.push(p);
    await this.save();
    const forget = () => this.probes.splice(this.probes.indexOf(p), 1);
    let res: WpResponse<T>;
    try {
      res = await send(this.#stamped ? { [WRITE_META]: this.#id } : {});
    } catch (err) {
      if (!mayHaveWritten(err)) forget();
      else if (mayStillLand(err)) p.lostAt = Date.now();
      await this.save();
      throw err;
    }
    forget();
    this[kind].push({ restBase, id: res.body.id });
    await this.save();
    return res;
  }

  /** Nothing made, nothing being made: nothing to undo. */
  get empty(): boolean {
    return !this.posts.length && !this.terms.length && !this.probes.length;
  }

  /** Nothing to keep in the journal: nothing to undo, claimed or being removed. */
  get #idle(): boolean {
    return this.empty && !this.uses.length && !this.removing.length;
  }

  /**
   * Claims `links`, the records the write is about to link to, less what it made itself; resolves to those of them
   * another write's rollback is deleting. Two writes to one shared journal, each writing down its own intent before
   * reading the other's (a claim here, a removal in {@link rollback}): whichever reads second sees the first, so a
   * rollback never deletes a record a write has claimed and found not being removed. Without a journal, or with
   * Redis down, the claim holds in this process only.
   */
  async claim(links: readonly UndoStep[]): Promise<UndoStep[]> {
    const own = new Set([...this.posts, ...this.terms].map(stepKey));
    const uses = links.filter((s) => !own.has(stepKey(s)));
    this.uses.splice(0, this.uses.length, ...uses);
    if (!this.#journal || !uses.length) return [];
    await this.save();
    // Redis failing here: the write's look at what still exists (src/events/write.ts) is what is left.
    const others = await this.#journal.others(this.#id).catch(() => undefined);
    return uses.filter((s) => others?.removing.has(stepKey(s)));
  }

  /** Writes the entry down; due after the lease (a crash), or at `due` (a failure left steps to retry). */
  async save(due?: number): Promise<void> {
    const j = this.#journal;
    if (!j) return;
    // Nothing noted: nothing to keep alive either.
    j.live(this, due === undefined && !this.#idle);
    if (this.#idle) return j.drop(this.#id);
    const { posts, terms, probes, target, gone, uses, removing } = this;
    const entry = { posts, terms, probes, target, gone, uses, removing };
    await j.put(this.#id, { ...entry, due: due ?? Date.now() + j.leaseMs });
    // Left for a later sweep: at its due time, not once a claim taken now runs out.
    if (due !== undefined) await j.release(this.#id);
  }

  /** `restBase:id` keys of what other writes claim (read after this undo wrote down what it is removing). */
  async claimedByOthers(): Promise<Set<string>> {
    return this.#journal ? (await this.#journal.others(this.#id)).uses : new Set();
  }

  /** The write is answered: what it made stays. */
  async done(): Promise<void> {
    this.#journal?.live(this, false);
    await this.#journal?.drop(this.#id);
  }
}

/**
 * The caller's credentials and language for a create, without the caller's abort signal: a create once sent is seen
 * through even when the caller hangs up, so that its answer says what it made and the rollback removes exactly that.
 * Abandoned, it would be a lost create, which WordPress may carry out after the rollback looked for it. (Undo.create
 * sends nothing once the caller is gone.)
 */
export const creatingAsCaller = (ctx: RequestContext): ReturnType<typeof asCaller> => ({
  ...asCaller(ctx),
  signal: undefined,
});

/** A create's body with the write's token added to its `meta` (unchanged when there is no token to send). */
export const withStamp = (body: Record<string, unknown>, stamp: Stamp): Record<string, unknown> =>
  Object.keys(stamp).length
    ? { ...body, meta: { ...(body.meta as Record<string, unknown> | undefined), ...stamp } }
    : body;

/** Creates a post of `restBase` as the caller, stamped with and noted in `undo` (found by its token if lost). */
export function createPost(
  deps: UndoDeps,
  ctx: RequestContext,
  undo: Undo,
  restBase: string,
  body: Record<string, unknown>,
): Promise<WpResponse<WpPost>> {
  return undo.create(
    'posts',
    restBase,
    (stamp) =>
      deps.wp.request<WpPost>({
        path: `/wp/v2/${restBase}`,
        method: 'POST',
        body: withStamp(body, stamp),
        ...creatingAsCaller(ctx),
      }),
    ctx.signal,
  );
}

/**
 * Runs a write that records its creations in `undo`: when it answers, what it made stays; when it throws, `before`
 * runs (putting back what it changed), what it made is removed, and the error goes out through `map`.
 */
export async function undoing<T>(
  deps: UndoDeps,
  ctx: RequestContext,
  undo: Undo,
  run: () => Promise<T>,
  opts: { before?: () => Promise<void>; map?: (err: unknown) => unknown } = {},
): Promise<T> {
  try {
    const answer = await run();
    await undo.done();
    return answer;
  } catch (err) {
    await opts.before?.();
    await rollback(deps, undo, ctx);
    throw opts.map ? opts.map(err) : err;
  }
}

/** Entries a sweep undoes at once. */
const SWEEP_PARALLEL = 4;

/** Takes the journal's due entries (failed undos, writes whose process died) and undoes them as the service. */
export async function sweep(deps: UndoDeps): Promise<number> {
  const journal = deps.undo;
  if (!journal) return 0;
  const due = await journal.due(Date.now());
  const queue = [...due];
  // A few at a time: after an outage every failed write of the burst is due at once, each a dozen upstream calls.
  await Promise.all(
    Array.from({ length: Math.min(SWEEP_PARALLEL, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [id, e] = next;
        // A create still open when its process died was sent before its last heartbeat (a lease before it was due).
        for (const p of e.probes) p.lostAt ??= e.due - journal.leaseMs;
        await rollback(deps, journal.resume(id, e));
      }
    }),
  );
  return due.length;
}
