// Everything a handler needs, built once at start-up and passed explicitly.

import type { ReplayGuard } from './cache/notify.ts';
import type { ResponseCache } from './cache/response-cache.ts';
import type { ChangeRecorder } from './changes/recorder.ts';
import type { ChangeStore } from './changes/store.ts';
import type { IndexRegistry } from './index/registry.ts';
import type { LinkedCatalog } from './linked/catalog.ts';
import type { Logger } from './log.ts';
import type { Mapping } from './mapping/schema.ts';
import type { RemoteImages } from './media/remote-image.ts';
import type { Metrics } from './observe/metrics.ts';
import type { PasswordGuesses } from './passwords/guesses.ts';
import type { SeriesLocks } from './recurrence/series-lock.ts';
import type { IdempotencyStore } from './stages/idempotency.ts';
import type { Webhooks } from './webhooks/service.ts';
import type { CallerResolver } from './wp/caller.ts';
import type { WpClient } from './wp/client.ts';
import type { SiteFacts } from './wp/probe.ts';
import type { RecordCache } from './wp/records.ts';
import type { TermCache } from './wp/terms.ts';
import type { UndoJournal } from './write/undo.ts';

export interface Deps {
  mapping: Mapping;
  wp: WpClient;
  site: SiteFacts;
  indexes: IndexRegistry;
  callers: CallerResolver;
  terms: TermCache;
  /** Every venue's and organizer's facets (lists, search, duplicates), kept fresh by change tags. */
  catalog: LinkedCatalog;
  log: Logger;
  /** Fetches images named by URL in writes (TEC's sideloading). */
  images: RemoteImages;
  now: () => Date;
  /** The response cache (absent when CACHE_TTL_SECONDS=0); writes invalidate through it. */
  cache?: ResponseCache;
  /** Public venues and organizers for embedding; present only with the response cache (its tags drop them). */
  records?: RecordCache;
  /** Answers of POSTs sent with an `Idempotency-Key`, kept 24 h (Redis when configured). */
  idempotency?: IdempotencyStore;
  /** Turns of the writes to each recurring series (Redis when configured; this process's alone when absent). */
  seriesLocks?: SeriesLocks;
  /** What writes in progress created, so that a failure or a crash leaves nothing behind (Redis when configured). */
  undo?: UndoJournal;
  /** Change-notification signatures already accepted (shared through Redis when configured). */
  replay?: ReplayGuard;
  /** iCalendar feeds: the most events one holds, and how often subscribers should refresh (the cache's TTL). */
  feed?: { maxEvents: number; refreshSeconds: number };
  /** Wrong post passwords per client and record (absent in tests that build their own Deps: not throttled). */
  passwordGuesses?: PasswordGuesses;
  /** How an update treats omitted fields (UPDATE_SEMANTICS): `merge` (kept, the default) or `replace` (as TEC). */
  updateSemantics?: 'merge' | 'replace';
  /** RECURRENCE_MAX_COUNT: a series' largest COUNT and longest RDATE/EXDATE list (1000 when unset). */
  recurrenceMaxCount?: number;
  /** Prometheus metrics (absent in tests that build their own Deps). */
  metrics?: Metrics;
  /** The change log (src/changes/): the changes feed reads it, the webhooks follow it. */
  changes?: ChangeStore;
  /** Logs what the gateway learns of a change into `changes` (absent in tests that build their own Deps). */
  recorder?: ChangeRecorder;
  /** The start-up reconciliation of the change log with WordPress (tests wait for it). */
  changesReconciled?: Promise<void>;
  /** Outbound webhooks: subscriptions, fan-out of the change log, deliveries (absent in tests that build their own Deps). */
  webhooks?: Webhooks;
}
