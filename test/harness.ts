// Opens the integration target of the current project: a gateway in front of the mock or the real WordPress.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inject, vi } from 'vitest';
import { buildSeed } from '../mocks/seed-data.ts';
import { startMockWordPress } from '../mocks/wordpress/index.ts';
import { configSchema } from '../src/config.ts';
import { type Gateway, loadMapping, startGateway } from '../src/gateway.ts';
import type { Mapping } from '../src/mapping/schema.ts';
import type { WpRequest } from '../src/wp/client.ts';
import './setup/wordpress.ts';
import { upstreamDeadlineMs } from './slack.ts';

export type Role = 'admin' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface Target {
  kind: 'mock' | 'wordpress';
  mapping: Mapping;
  gateway: Gateway;
  /** `http://127.0.0.1:PORT/wp-json/calendar/events/v1` */
  api: string;
  /** The REST root of the upstream WordPress (for edits made "in the WordPress admin"). */
  upstream: string;
  /** `Authorization` header values per user. */
  auth: Record<Role, string>;
  /**
   * Adds `count` published events straight to the upstream's storage (as a bulk import would: no REST, no
   * notification), titled `<tag> event <i>`, starting an hour apart from 2031-01-01 10:00. Resolves their ids.
   */
  bulkEvents(count: number, tag: string): Promise<number[]>;
  /** Deletes the events `bulkEvents` added with `tag`. */
  removeBulk(tag: string): Promise<void>;
  close(): Promise<void>;
}

const MOCK_PASSWORD = 'mock-application-password';
const BULK_SCRIPT = fileURLToPath(new URL('../wordpress/php/bulk-events.php', import.meta.url));

export async function openTarget(
  overrides: {
    pollIntervalMs?: number;
    trustProxy?: string;
    updateSemantics?: 'merge' | 'replace';
    jsonpEnabled?: 'true' | 'false';
    /**
     * Failed sign-ins allowed (src/auth/throttle.ts). Unthrottled unless given: other files sign in wrong on purpose
     * (the visibility matrix's wrong password) and test the refusal, not the throttle.
     */
    authFailures?: { perAddress: number; perUserAddress: number; perUser: number };
    /** Webhook receivers of the tests listen on loopback. */
    webhookAllowPrivateTargets?: 'true';
    /** The mock serves each call this long after it arrives (MockWordPressOptions.latencyMs); WordPress takes its own. */
    upstreamLatencyMs?: number;
  } = {},
): Promise<Target> {
  const target = inject('target');
  const mapping = await loadMapping(target.mapping);
  let upstreamUrl: string;
  let password: string;
  let closeUpstream = async () => {};
  let bulkEvents: Target['bulkEvents'];
  let removeBulk: Target['removeBulk'];
  if (target.kind === 'mock') {
    upstreamUrl = `http://wordpress-${Math.random().toString(36).slice(2, 8)}.test/wp-json`;
    password = MOCK_PASSWORD;
    const mock = startMockWordPress({
      mapping,
      baseUrl: upstreamUrl,
      seed: buildSeed(mapping, new Date()),
      usersPassword: password,
      latencyMs: overrides.upstreamLatencyMs,
    });
    closeUpstream = async () => mock.close();
    const store = mock.mock.store;
    bulkEvents = async (count, tag) => {
      const base = Date.UTC(2031, 0, 1, 10);
      const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
      return Array.from({ length: count }, (_, i) => {
        const start = wall(base + i * 3_600_000);
        const end = wall(base + i * 3_600_000 + 5_400_000);
        return store.insertPost({
          type: mapping.event.postType,
          status: 'publish',
          author: 1,
          title: `${tag} event ${i}`,
          content: `<p>Bulk ${tag} body ${i}.</p>`,
          meta: {
            _EventStartDate: [start],
            _EventEndDate: [end],
            _EventStartDateUTC: [start],
            _EventEndDateUTC: [end],
            _EventTimezone: ['UTC'],
            _cg_bulk: [tag],
          },
        }).id;
      });
    };
    removeBulk = async (tag) => {
      for (const p of [...store.posts.values()]) if (p.meta._cg_bulk?.[0] === tag) store.deletePost(p.id);
    };
  } else {
    const up = inject('upstream');
    upstreamUrl = up.url;
    password = up.usersPassword;
    const php = (...args: string[]) =>
      promisify(execFile)('php', [BULK_SCRIPT, up.siteDir, ...args], {
        maxBuffer: 64 << 20,
        timeout: 600_000,
      });
    bulkEvents = async (count, tag) =>
      JSON.parse((await php('insert', String(count), tag)).stdout) as number[];
    removeBulk = async (tag) => {
      await php('delete', tag);
    };
  }
  const config = configSchema.parse({
    port: 0,
    host: '127.0.0.1',
    upstreamUrl,
    upstreamAuth: `admin:${password}`,
    mapping: target.mapping,
    pollIntervalMs: overrides.pollIntervalMs ?? 0,
    upstreamTimeoutMs: upstreamDeadlineMs,
    trustProxy: overrides.trustProxy,
    updateSemantics: overrides.updateSemantics,
    jsonpEnabled: overrides.jsonpEnabled,
    // The image-URL tests serve their images from a loopback server.
    imageAllowPrivateHosts: 'true',
    authFailuresPerAddress: overrides.authFailures?.perAddress ?? 1_000_000,
    authFailuresPerUserAddress: overrides.authFailures?.perUserAddress ?? 1_000_000,
    authFailuresPerUser: overrides.authFailures?.perUser ?? 1_000_000,
    webhookAllowPrivateTargets: overrides.webhookAllowPrivateTargets,
    logLevel: 'silent',
  });
  const gateway = await startGateway({ ...config, upstreamUrl }, { quiet: true });
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  return {
    kind: target.kind,
    mapping,
    gateway,
    api: `${gateway.url}/wp-json/calendar/events/v1`,
    upstream: upstreamUrl,
    auth: {
      admin: basic('admin'),
      editor: basic('editor'),
      author: basic('author'),
      contributor: basic('contributor'),
      subscriber: basic('subscriber'),
    },
    bulkEvents,
    removeBulk,
    close: async () => {
      await gateway.close();
      await closeUpstream();
    },
  };
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** One call to the gateway; `body` objects are sent as JSON. */
export async function call<T = Record<string, unknown>>(
  t: Target,
  method: string,
  path: string,
  opts: { as?: Role; body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.as) headers.Authorization = t.auth[opts.as];
  let body: string | undefined;
  if (opts.form) {
    body = new URLSearchParams(opts.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${t.api}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // leave as text: assertions will show it
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/**
 * Reads until `ok` holds, for up to `ms` (every 25 ms), and answers the last read: after a write that hides nothing,
 * anonymous readers may get the previous answer while it refills (CACHE_SOFT_STALE_MS, 1 s by default). 5 s: on a
 * loaded machine the refill can outlast the soft window (the full suite read an override's previous answer 1.5 s
 * after the edit in test/integration/recurrence-read.test.ts); a read that holds returns at once.
 */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Loads the event taxonomies' term lists afresh. They live 30 s and are refreshed in the background once stale, so a
 * test that counts a list miss's upstream calls would count a refresh due to an earlier file's load (CI saw one).
 */
export async function freshTermLists(t: Target): Promise<void> {
  const { deps } = t.gateway;
  deps.terms.invalidate();
  for (const tax of [deps.mapping.event.categories, deps.mapping.event.tags]) {
    if (tax) await deps.terms.all(tax, 'en');
  }
}

/**
 * The WordPress requests `gateway` makes while `run` runs, on behalf of requests: the service account's are left out.
 * That account is the background jobs' (the index's crawl and polls, the change log's reconciliation, the linked
 * catalog's refresh), which run on their own schedule and can fall inside any window: CI once counted a change-log
 * reconciliation's `/wp/v2/tags` read, still under way after start-up on a loaded machine, as a list miss's call.
 */
export async function requestsDuring(gateway: Gateway, run: () => Promise<unknown>): Promise<WpRequest[]> {
  const spy = vi.spyOn(gateway.deps.wp, 'request');
  try {
    await run();
    return spy.mock.calls.map(([req]) => req).filter((req) => req.as !== 'service');
  } finally {
    spy.mockRestore();
  }
}
