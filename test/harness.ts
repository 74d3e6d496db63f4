// Opens the integration target of the current project: a gateway in front of the mock or the real WordPress.
import { inject } from 'vitest';
import { buildSeed } from '../mocks/seed-data.ts';
import { startMockWordPress } from '../mocks/wordpress/index.ts';
import { configSchema } from '../src/config.ts';
import { type Gateway, loadMapping, startGateway } from '../src/gateway.ts';
import type { Mapping } from '../src/mapping/schema.ts';
import '../test/setup/wordpress.ts';

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
  close(): Promise<void>;
}

const MOCK_PASSWORD = 'mock-application-password';

export async function openTarget(overrides: { pollIntervalMs?: number } = {}): Promise<Target> {
  const target = inject('target');
  const mapping = await loadMapping(target.mapping);
  let upstreamUrl: string;
  let password: string;
  let closeUpstream = async () => {};
  if (target.kind === 'mock') {
    upstreamUrl = `http://wordpress-${Math.random().toString(36).slice(2, 8)}.test/wp-json`;
    password = MOCK_PASSWORD;
    const mock = startMockWordPress({
      mapping,
      baseUrl: upstreamUrl,
      seed: buildSeed(mapping, new Date()),
      usersPassword: password,
    });
    closeUpstream = async () => mock.close();
  } else {
    const up = inject('upstream');
    upstreamUrl = up.url;
    password = up.usersPassword;
  }
  const config = configSchema.parse({
    port: 0,
    host: '127.0.0.1',
    upstreamUrl,
    upstreamAuth: `admin:${password}`,
    mapping: target.mapping,
    pollIntervalMs: overrides.pollIntervalMs ?? 0,
    // The image-URL tests serve their images from a loopback server.
    imageAllowPrivateHosts: 'true',
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
