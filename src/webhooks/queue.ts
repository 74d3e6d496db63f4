// The delivery queue's contract, and its in-process form (no Redis: one instance, lost on restart, documented).
import { randomUUID } from 'node:crypto';
import type { Attempt, Message } from './types.ts';

/** A message an instance holds until its lease ends; `token` proves the lease when the result is written. */
export interface Claimed {
  message: Message;
  token: string;
}

export interface QueueStats {
  /** Messages not yet delivered nor given up. */
  depth: number;
  /** When the oldest of them was made (ms), or null. */
  oldestMs: number | null;
}

/** How long delivered and failed messages stay, for redelivery. */
export const KEEP_FINISHED_MS = 7 * 24 * 3600 * 1000;
/** The delivery log's length per subscription. */
export const LOG_LENGTH = 100;

export interface DeliveryQueue {
  /** Adds messages due at `dueMs`; a message whose id is already queued is not added again. */
  enqueue(messages: Message[], dueMs: number): Promise<number>;
  /** Takes up to `max` due messages for `leaseMs`: a message whose holder dies is due again when its lease ends. */
  claim(nowMs: number, leaseMs: number, max: number): Promise<Claimed[]>;
  /** Writes the result of an attempt, if the lease still holds: due again at `dueMs`, or finished. */
  settle(
    c: Claimed,
    result: { attempts: number; dueMs: number } | { attempts: number; state: 'delivered' | 'failed' },
    nowMs: number,
  ): Promise<boolean>;
  get(id: string): Promise<Message | null>;
  /** Puts a message back in the queue, due now, its attempts counted from 0 again; false when unknown. */
  redeliver(id: string, sub: string, nowMs: number): Promise<boolean>;
  stats(): Promise<QueueStats>;
  /** Forgets finished messages older than KEEP_FINISHED_MS. */
  prune(nowMs: number): Promise<void>;
  logAttempt(sub: string, attempt: Attempt): Promise<void>;
  attempts(sub: string): Promise<Attempt[]>;
}

export class MemoryQueue implements DeliveryQueue {
  readonly #messages = new Map<
    string,
    { m: Message; due: number | null; lease: string | null; done: number | null }
  >();
  readonly #logs = new Map<string, Attempt[]>();

  async enqueue(messages: Message[], dueMs: number): Promise<number> {
    let added = 0;
    for (const m of messages) {
      if (this.#messages.has(m.id)) continue;
      this.#messages.set(m.id, { m, due: dueMs, lease: null, done: null });
      added++;
    }
    return added;
  }

  async claim(nowMs: number, leaseMs: number, max: number): Promise<Claimed[]> {
    const out: Claimed[] = [];
    for (const e of this.#messages.values()) {
      if (out.length >= max) break;
      if (e.due === null || e.due > nowMs) continue;
      e.due = nowMs + leaseMs;
      e.lease = randomUUID();
      out.push({ message: { ...e.m }, token: e.lease });
    }
    return out;
  }

  async settle(
    c: Claimed,
    result: { attempts: number; dueMs: number } | { attempts: number; state: 'delivered' | 'failed' },
    nowMs: number,
  ): Promise<boolean> {
    const e = this.#messages.get(c.message.id);
    if (!e || e.lease !== c.token) return false;
    e.lease = null;
    e.m = { ...e.m, attempts: result.attempts };
    if ('state' in result) {
      e.m.state = result.state;
      e.due = null;
      e.done = nowMs;
    } else e.due = result.dueMs;
    return true;
  }

  async get(id: string): Promise<Message | null> {
    const e = this.#messages.get(id);
    return e ? { ...e.m } : null;
  }

  async redeliver(id: string, sub: string, nowMs: number): Promise<boolean> {
    const e = this.#messages.get(id);
    if (!e || e.m.sub !== sub) return false;
    e.m = { ...e.m, attempts: 0, state: 'pending', created_ms: nowMs };
    e.due = nowMs;
    e.lease = null;
    e.done = null;
    return true;
  }

  async stats(): Promise<QueueStats> {
    let depth = 0;
    let oldestMs: number | null = null;
    for (const e of this.#messages.values()) {
      if (e.m.state !== 'pending') continue;
      depth++;
      if (oldestMs === null || e.m.created_ms < oldestMs) oldestMs = e.m.created_ms;
    }
    return { depth, oldestMs };
  }

  async prune(nowMs: number): Promise<void> {
    for (const [id, e] of this.#messages)
      if (e.done !== null && e.done < nowMs - KEEP_FINISHED_MS) this.#messages.delete(id);
  }

  async logAttempt(sub: string, attempt: Attempt): Promise<void> {
    const log = this.#logs.get(sub) ?? [];
    log.unshift(attempt);
    log.length = Math.min(log.length, LOG_LENGTH);
    this.#logs.set(sub, log);
  }

  async attempts(sub: string): Promise<Attempt[]> {
    return [...(this.#logs.get(sub) ?? [])];
  }
}
