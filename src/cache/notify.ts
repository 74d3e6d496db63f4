// Change notifications from the companion plugin: HMAC verification, freshness, and what each change invalidates.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Mapping } from '../mapping/schema.ts';
import type { SharedRedis } from '../shared-redis.ts';
import { countBound, EXACT_CLOCK } from './count-bound.ts';
import { tag } from './tags.ts';

/** Header carrying `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const SIGNATURE_HEADER = 'x-calendar-gateway-signature';

export const sign = (raw: Buffer | string, secret: string): string =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** Constant-time comparison of the signature header with the body's HMAC. */
export function verifySignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = Buffer.from(sign(raw, secret));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface Change {
  kind: 'post' | 'term';
  id: number;
  /** Post type (posts) or taxonomy (terms). */
  type: string;
  /** `save`, `status`, `trash`, `delete`, `meta` (posts); `create`, `edit`, `delete` (terms). */
  action: string;
}

export interface Notification {
  /** Unix seconds when the plugin signed it. */
  time: number;
  changes: Change[];
}

export type ParseResult =
  | { ok: true; notification: Notification }
  | { ok: false; status: number; reason: string };

/** Parses a verified body; a notification older (or newer) than `maxSkewSeconds` is a replay and is refused. */
export function parseNotification(raw: Buffer, nowSeconds: number, maxSkewSeconds = 300): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, status: 400, reason: 'body is not JSON' };
  }
  const n = json as Partial<Notification> | null;
  if (!n || typeof n.time !== 'number' || !Array.isArray(n.changes)) {
    return { ok: false, status: 400, reason: 'body must be {time, changes: [...]}' };
  }
  if (Math.abs(nowSeconds - n.time) > maxSkewSeconds) {
    return {
      ok: false,
      status: 401,
      reason: `timestamp is more than ${maxSkewSeconds} s away from the gateway's clock`,
    };
  }
  const changes = n.changes.filter(
    (c): c is Change =>
      !!c &&
      (c.kind === 'post' || c.kind === 'term') &&
      Number.isInteger(c.id) &&
      c.id > 0 &&
      typeof c.type === 'string' &&
      typeof c.action === 'string',
  );
  return { ok: true, notification: { time: n.time, changes } };
}

export interface Plan {
  /** Events to re-read into the index (saved, status/meta changed, trashed, or deleted: a re-read finds them gone). */
  events: number[];
  /** Cache tags to drop. */
  tags: string[];
  /** Whether any term changed (the term lists used by filters must be reloaded). */
  terms: boolean;
}

/** What a notification means for this mapping; post types and taxonomies it does not map are ignored. */
export function planOf(n: Notification, mapping: Mapping): Plan {
  const events = new Set<number>();
  const tags = new Set<string>();
  let terms = false;
  const taxonomies = [mapping.event.categories?.taxonomy, mapping.event.tags?.taxonomy].filter(Boolean);
  for (const c of n.changes) {
    if (c.kind === 'post' && c.type === mapping.event.postType) {
      events.add(c.id);
      tags.add(tag.event(c.id)).add(tag.list('event'));
    } else if (c.kind === 'post' && c.type === mapping.venue.postType) {
      tags.add(tag.venue(c.id)).add(tag.list('venue'));
    } else if (c.kind === 'post' && c.type === mapping.organizer.postType) {
      tags.add(tag.organizer(c.id)).add(tag.list('organizer'));
    } else if (c.kind === 'post' && c.type === 'attachment') {
      // An image: the answers showing it (src/cache/tags.ts) and its public copy (src/wp/records.ts). A deleted
      // one also leaves the posts that had it as their featured image (wp_delete_attachment), which show no image.
      tags.add(tag.media(c.id));
    } else if (c.kind === 'term' && taxonomies.includes(c.type)) {
      terms = true;
      // Term filters are answered from the index by term id, so lists change too.
      tags.add(tag.term(c.type, c.id)).add(tag.list('term')).add(tag.list('event'));
    }
  }
  return { events: [...events].sort((a, b) => a - b), tags: [...tags].sort(), terms };
}

/**
 * Signatures already accepted, for twice the skew window: a signed body is applied once, by whichever instance gets
 * it first. With Redis the set is shared by every instance and survives their restarts; without it (or while Redis
 * is down) it is this process's memory.
 */
export class ReplayGuard {
  readonly #memory: LRUCache<string, true>;
  readonly #redis?: SharedRedis;
  readonly #ttlMs: number;

  constructor(windowSeconds: number, redis?: SharedRedis) {
    this.#ttlMs = 2 * windowSeconds * 1000;
    this.#memory = new LRUCache({ ...countBound(10_000), ttl: this.#ttlMs, ...EXACT_CLOCK });
    this.#redis = redis;
  }

  /** True the first time a signature is offered (anywhere, with Redis); false for a replay. */
  async first(signature: string): Promise<boolean> {
    const id = createHash('sha256').update(signature).digest('base64url');
    if (this.#memory.has(id)) return false;
    this.#memory.set(id, true);
    const r = this.#redis;
    if (!r?.up()) return true;
    const set = await r.cmd
      .set(`${r.prefix}notify-seen:${id}`, '1', 'PX', this.#ttlMs, 'NX')
      .catch(() => 'OK');
    return set === 'OK';
  }
}
