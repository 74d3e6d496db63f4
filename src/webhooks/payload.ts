// What one change becomes for one subscription: whether it is sent, as which type, and the thin payload's bytes.
import { createHash } from 'node:crypto';
import type { ChangeAction, LoggedChange } from '../changes/types.ts';
import type { Subscription } from './types.ts';

export const typeOf = (kind: string, action: ChangeAction): string => `${kind}.${action}`;

/** Whether a subscription takes a type: it names it, or `*`. */
export const wants = (s: Subscription, type: string): boolean =>
  s.types.includes('*') || s.types.includes(type);

/**
 * The action a subscription is told of, or null for none. A private subscription hears every change as it was
 * made. A public one hears only what an anonymous reader could see: a record leaving that view (made draft or
 * private, given a password, deleted) is a deletion if the public saw it before (`wasPublic`), and nothing if not.
 */
export function actionFor(change: LoggedChange, s: Subscription, wasPublic: boolean): ChangeAction | null {
  if (s.private) return change.action;
  if (change.public && change.action !== 'deleted') return change.action;
  return wasPublic ? 'deleted' : null;
}

/**
 * The payload (Standard Webhooks' `type`, `timestamp`, `data`): where the record is and how to revalidate it, never
 * what it holds; a deletion says what the record was (kind, id, URL, tags).
 */
export function payloadOf(change: LoggedChange, action: ChangeAction, nowMs: number): string {
  return JSON.stringify({
    type: typeOf(change.kind, action),
    timestamp: new Date(nowMs).toISOString(),
    data: {
      kind: change.kind,
      id: change.id,
      rest_url: change.rest_url,
      modified_utc: change.modified_utc,
      tags: change.tags,
    },
  });
}

/**
 * The `webhook-id` of a change sent to a subscription: the same whenever the change is fanned out again (after a
 * crash), so the queue adds it once, and a receiver can drop what it already had.
 */
export function messageId(subscription: string, cursor: string): string {
  return `msg_${createHash('sha256').update(`${subscription}\n${cursor}`).digest('base64url').slice(0, 27)}`;
}
