// The webhooks' records: subscriptions, queued messages and delivery attempts, as stored and as the ops API shows them.
import type { ChangeAction, ChangeKind } from '../changes/types.ts';

export const KINDS: readonly ChangeKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];
export const ACTIONS: readonly ChangeAction[] = ['created', 'updated', 'deleted'];

/** `event.created` … `tag.deleted`, and `*` for all of them. */
export const EVENT_TYPES: readonly string[] = [...KINDS.flatMap((k) => ACTIONS.map((a) => `${k}.${a}`)), '*'];

/** One endpoint a front-end registered, as stored (its secrets included). */
export interface Subscription {
  id: string;
  url: string;
  types: string[];
  description: string;
  /** Whether changes a public reader may not see are sent too (drafts, private, password-protected). */
  private: boolean;
  enabled: boolean;
  /** Why it was disabled (a 410, five days of failures, an admin), or null. */
  disabled_reason: string | null;
  /** Start of the current run of failed attempts (ms), or null after a success. */
  failing_since: number | null;
  created_ms: number;
  /** `whsec_…`: shown once, when made or rotated. */
  secret: string;
  /** The secret before the last rotation, valid until `previous_until` (ms). */
  previous_secret: string | null;
  previous_until: number | null;
}

/** A subscription as the ops API shows it: never a secret. */
export function publicView(s: Subscription) {
  return {
    id: s.id,
    url: s.url,
    types: s.types,
    description: s.description,
    private: s.private,
    enabled: s.enabled,
    disabled_reason: s.disabled_reason,
    failing_since: s.failing_since === null ? null : new Date(s.failing_since).toISOString(),
    created: new Date(s.created_ms).toISOString(),
    secret_rotating_until: s.previous_until === null ? null : new Date(s.previous_until).toISOString(),
  };
}

/** One payload for one subscription, until it is delivered or given up. `id` is its `webhook-id`. */
export interface Message {
  id: string;
  sub: string;
  /** The payload's bytes, signed as they are sent. */
  body: string;
  created_ms: number;
  /** Attempts made so far. */
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
}

/** One attempt, as the delivery log keeps it (the last 100 per subscription). */
export interface Attempt {
  message: string;
  attempt: number;
  time: string;
  /** HTTP status, or 0 when no answer came (refused, timed out, connection failed). */
  status: number;
  duration_ms: number;
  outcome: Outcome;
  /** The first 1 KB of the answer's body, or why nothing was sent. */
  response: string;
}

export type Outcome = 'success' | 'failure' | 'timeout' | 'refused' | 'gone';
