// One event index per language, created and built on first use; concurrent first uses share the one build.
import type { Mapping } from '../mapping/schema.ts';
import { EventIndex, type IndexClient } from './event-index.ts';
import type { BuildProgress, IndexLogger } from './progress.ts';
import type { SnapshotStore } from './snapshot.ts';

export interface IndexRegistryOptions {
  client: IndexClient;
  mapping: Mapping;
  logger?: IndexLogger;
  /** Poll interval started after each build; `false` leaves polling to the caller (tests). Default 5 s. */
  pollMs?: number | false;
  /** Id reconciliation interval. Default 5 min. */
  reconcileMs?: number;
  overlapMs?: number;
  /** Pages the crawl reads at once. Default 2. */
  crawlConcurrency?: number;
  /** Progress display of a build; default: a bar on a terminal, log lines otherwise. */
  progress?: (language: string) => BuildProgress | undefined;
  /** Snapshots in Redis: warm from one instead of crawling, and let one instance crawl at a time. */
  snapshots?: SnapshotStore;
  /** Events a poll, refetch or reconciliation found changed upstream (the response cache drops their answers). */
  onChange?: (language: string, ids: number[], links: string[], soft: boolean) => void;
  /** How far lists of occurrences look ahead by default (months). Default 24. */
  recurrenceWindowMonths?: number;
}

export class IndexRegistry {
  readonly #options: IndexRegistryOptions;
  readonly #ready = new Map<string, Promise<EventIndex>>();
  readonly #built = new Map<string, EventIndex>();
  #stopped = false;

  constructor(options: IndexRegistryOptions) {
    this.#options = options;
  }

  /** The built index of a language. A failed build is forgotten, so the next use tries again. */
  forLanguage(language: string): Promise<EventIndex> {
    let ready = this.#ready.get(language);
    if (!ready) {
      ready = this.#create(language);
      this.#ready.set(language, ready);
      ready.catch(() => {
        if (this.#ready.get(language) === ready) this.#ready.delete(language);
      });
    }
    return ready;
  }

  /** The indexes built so far. */
  all(): EventIndex[] {
    return [...this.#built.values()];
  }

  /** Stops every index's timers (and keeps indexes still building from starting theirs). */
  stop(): void {
    this.#stopped = true;
    for (const index of this.#built.values()) index.stop();
  }

  async #create(language: string): Promise<EventIndex> {
    const {
      client,
      mapping,
      logger,
      overlapMs,
      pollMs = 5_000,
      reconcileMs,
      crawlConcurrency,
      recurrenceWindowMonths,
    } = this.#options;
    const { snapshots, onChange } = this.#options;
    let saveTimer: NodeJS.Timeout | undefined;
    const index: EventIndex = new EventIndex({
      client,
      mapping,
      language,
      logger,
      overlapMs,
      crawlConcurrency,
      recurrenceWindowMonths,
      onChange: (ids, links, soft) => {
        onChange?.(language, ids, links, soft);
        // Keep the shared snapshot close to the index (the writer instance only), at most one save per few seconds.
        if (snapshots && !saveTimer) {
          saveTimer = setTimeout(() => {
            saveTimer = undefined;
            snapshots.save(index).catch(() => {});
          }, 5_000);
          saveTimer.unref();
        }
      },
    });
    const progress = this.#options.progress?.(language);
    if (!snapshots) {
      await index.build(progress);
    } else {
      let loaded = await snapshots.load(language, index);
      if (!loaded) {
        const how = await snapshots.crawlOnce(language, async () => {
          await index.build(progress);
          await snapshots.save(index, { force: true });
        });
        if (how === 'snapshot') loaded = await snapshots.load(language, index);
        // The snapshot another instance saved could not be read: crawl after all.
        if (how === 'snapshot' && !loaded) await index.build(progress);
      }
      if (loaded) {
        // Catch up with what changed since the snapshot (modified_after); reconciliation later finds hard deletes.
        await index.refresh().catch(() => {});
      }
    }
    this.#built.set(language, index);
    if (pollMs !== false && !this.#stopped) index.start(pollMs, reconcileMs);
    return index;
  }
}
