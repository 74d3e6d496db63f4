// Per-file fixtures for the integration suite: unique tokens, far-future dates, events created through the gateway.
import { expect } from 'vitest';
import { type CallResult, call, type Role, type Target } from '../harness.ts';

export type Json = Record<string, unknown>;
export type EventRecord = Json & { id: number; slug: string; status: string; title: string };

/**
 * A short random token, so fixtures of different files (and runs) never collide. Letters only: WordPress's
 * `the_title` turns digit-x-digit into a multiplication sign, so `4x8` in a token would change the names tests expect.
 */
export const token = (): string =>
  Array.from({ length: 6 }, () => 'abcdefghijklmnopqrstuvwyz'[Math.floor(Math.random() * 25)]).join('');

/** `YYYY-MM` of a far-future month reserved for one file, so its date windows see only its own events. */
export function monthOf(year: number, month: number): (day: number, time?: string) => string {
  const mm = String(month).padStart(2, '0');
  return (day, time = '10:00:00') => `${year}-${mm}-${String(day).padStart(2, '0')} ${time}`;
}

/** Keeps the ids a file created so `afterAll` can trash them. */
export class Fixtures {
  readonly ids: number[] = [];
  readonly t: Target;
  constructor(t: Target) {
    this.t = t;
  }

  /** Creates an event as `as` (admin by default) and fails the test unless it answers 201. */
  async event(body: Json, as: Role = 'admin'): Promise<EventRecord> {
    const res = await call<EventRecord>(this.t, 'POST', '/events', { as, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    this.ids.push(res.body.id);
    return res.body;
  }

  /** Trashes everything this file created (best effort). */
  async cleanup(): Promise<void> {
    await Promise.all(
      this.ids.map((id) => call(this.t, 'DELETE', `/events/${id}`, { as: 'admin' }).catch(() => undefined)),
    );
  }
}

/** Ids of the events of a list answer, in order. */
export const idsOf = (res: CallResult): number[] =>
  ((res.body.events as EventRecord[] | undefined) ?? []).map((e) => e.id);

/** A TEC error body check: code, status, and `data.status` equal to the HTTP status. */
export function expectError(res: CallResult, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect((res.body.data as Json).status).toBe(status);
}

/** Edits a post directly on the upstream WordPress as admin (as an editor in the WordPress admin would). */
export async function editUpstream(t: Target, id: number, body: Json, method = 'POST'): Promise<Json> {
  const res = await fetch(`${t.upstream}/wp/v2/${t.mapping.event.restBase}/${id}`, {
    method,
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: method === 'DELETE' ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  expect(res.status, JSON.stringify(json)).toBe(200);
  const index = await t.gateway.deps.indexes.forLanguage(t.mapping.language.default);
  await index.refresh();
  return json;
}
