// Shared setup for the mock's tests: a seeded mock on msw and a small fetch client with Basic auth per login.
import { readFileSync } from 'node:fs';
import { type Mapping, mappingSchema } from '../../src/mapping/schema.ts';
import { buildSeed } from '../seed-data.ts';
import { startMockWordPress } from './index.ts';

export const ROOT = 'http://wordpress.mock/wp-json';
export const PASSWORD = 'abcd efgh ijkl mnop qrst uvwx';
export const NOW = new Date('2026-11-21T15:00:00Z');

export const loadMapping = (name: string): Mapping =>
  mappingSchema.parse(
    JSON.parse(readFileSync(new URL(`../../mappings/${name}.json`, import.meta.url), 'utf8')),
  );

export function startSeeded(mappingName = 'tec') {
  const mapping = loadMapping(mappingName);
  let clock = NOW.getTime();
  const started = startMockWordPress({
    mapping,
    baseUrl: ROOT,
    seed: buildSeed(mapping, NOW),
    usersPassword: PASSWORD,
    now: () => new Date(clock),
  });
  return { ...started, mapping, advance: (ms: number) => (clock += ms), now: () => new Date(clock) };
}

export interface Call {
  as?: string;
  password?: string;
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
}

export async function call(
  path: string,
  opts: Call = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary WordPress JSON and assert on its shape.
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {};
  if (opts.as)
    headers.Authorization = `Basic ${Buffer.from(`${opts.as}:${opts.password ?? PASSWORD}`).toString('base64')}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await fetch(ROOT + path, { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/**
 * A mock WordPress of `events` seeded events (TEC's mapping, today's dates) under a host name of its own, for a gateway
 * started in the test's process: its REST root to point the gateway at, and its close.
 */
export function seededSite(
  usersPassword: string,
  events: number,
): { upstreamUrl: string; close: () => void } {
  const mapping = loadMapping('tec');
  const upstreamUrl = `http://wordpress-${Math.random().toString(36).slice(2, 8)}.test/wp-json`;
  const { close } = startMockWordPress({
    mapping,
    baseUrl: upstreamUrl,
    seed: buildSeed(mapping, new Date(), { events }),
    usersPassword,
  });
  return { upstreamUrl, close };
}
