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

  /**
   * Trashes everything this file created, newest first and one at a time, each delete tried again while the gateway or
   * WordPress sheds load (429/5xx, a dropped connection), then reads each from WordPress: one still live is trashed
   * there and named in the log. Deletes in a burst left an endless weekly series in a later file's month twice (CI:
   * geo's May 2037 lists): first a delete refused unseen, then (deletes four at a time, all answered) the series a
   * `scope=following` split made, deleted beside its own override, whose delete edits the series. What cannot be
   * trashed fails the file that made it, not the next one to read the calendar.
   */
  async cleanup(): Promise<void> {
    const left: string[] = [];
    for (const id of [...this.ids].reverse()) {
      const outcome = await this.#trash(id);
      if (outcome) left.push(`${id}: ${outcome}`);
    }
    for (const id of this.ids) {
      const status = await this.#upstreamStatus(id);
      if (status === undefined || status === 'trash') continue;
      console.warn(`fixture ${id} was ${status} after its delete answered; trashed in WordPress`);
      await editUpstream(this.t, id, {}, 'DELETE');
    }
    if (left.length)
      throw new Error(`fixtures not trashed (they would show in later files' windows): ${left.join('; ')}`);
  }

  /** The post's status as WordPress holds it, undefined once it is deleted. */
  async #upstreamStatus(id: number): Promise<string | undefined> {
    const res = await fetch(`${this.t.upstream}/wp/v2/${this.t.mapping.event.restBase}/${id}?context=edit`, {
      headers: { Authorization: this.t.auth.admin },
    });
    const body = (await res.json().catch(() => ({}))) as { status?: string };
    return res.status === 404 || res.status === 410 ? undefined : (body.status ?? `HTTP ${res.status}`);
  }

  /** Trashes one event: undefined once it is gone (trashed now or before, or deleted), else the last answer. */
  async #trash(id: number): Promise<string | undefined> {
    let last = '';
    for (let attempt = 0; attempt < 6; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      const res = await call(this.t, 'DELETE', `/events/${id}`, { as: 'admin' }).catch((e: Error) => e);
      if (res instanceof Error) {
        last = res.message;
        continue;
      }
      if (res.status < 300 || res.status === 404 || res.status === 410) return undefined;
      last = `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
      if (res.status !== 429 && res.status < 500) return last;
    }
    return last;
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
