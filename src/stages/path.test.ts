// The request path as app.ts composes it: who the caller is, and whether they may write, before anything is parsed;
// Idempotency-Key held to the user and the whole request.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ArgDef } from '../contract/args.ts';
import { CREATABLE, READABLE, type RouteContract } from '../contract/route.ts';
import { FORMATS } from '../formats.ts';
import { apiRouter } from '../http/adapter.ts';
import { credentialsRejected } from '../http/errors.ts';
import type { Binding } from '../http/handler.ts';
import { createLogger } from '../log.ts';
import { authenticate } from './authenticate.ts';
import { handle } from './handle.ts';
import { IdempotencyStore, idempotencyStage } from './idempotency.ts';
import { parse } from './parse.ts';
import { render } from './render.ts';

const d = { en: '', es: '' };
const BASIC = `Basic ${Buffer.from('editor:secret').toString('base64')}`;

/** A route whose one argument records every time its schema is asked, and whose handler answers what it got. */
function thing(methods: RouteContract['methods'], seen: string[]): Binding {
  const when: ArgDef<string> = {
    type: 'string',
    description: d,
    schema: z.unknown().transform((v, ctx) => {
      seen.push('parse');
      if (v === 'bad') ctx.addIssue({ code: 'custom', message: 'must not be bad.' });
      return String(v);
    }),
  };
  const contract: RouteContract = {
    id: `things.${methods[0]}`,
    pattern: '/things',
    path: '/things',
    methods,
    summary: d,
    args: { when },
  };
  return {
    contract,
    cache: false,
    handler: async ({ args }) => {
      seen.push('handle');
      return { status: 201, body: args };
    },
  };
}

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** The router behind express with the app's stages, spies where they authenticate and read bodies; its base URL. */
async function serve(
  seen: string[],
  opts: { resolve?: () => Promise<{ id: number }>; idempotency?: IdempotencyStore } = {},
): Promise<string> {
  const readBody: RequestHandler = (req, res, next) => {
    seen.push('body');
    express.json({ limit: '2mb' })(req, res, next);
  };
  const log = createLogger('silent');
  const resolve =
    opts.resolve ??
    (async () => {
      seen.push('authenticate');
      return { id: 7 };
    });
  const app = express();
  app.use(
    '/api',
    apiRouter([thing(READABLE, seen), thing(CREATABLE, seen)], {
      prefix: '/api',
      defaultLanguage: 'en',
      home: 'http://site.test',
      timezone: 'UTC',
      log,
      stages: [
        authenticate({ resolve, bodies: [readBody] }),
        render(log),
        ...(opts.idempotency ? [idempotencyStage(opts.idempotency)] : []),
        parse(FORMATS),
        handle,
      ],
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/things`;
}

const post = (url: string, body: unknown, authorization?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

describe('the request path: the caller before the arguments', () => {
  it('refuses an anonymous write with 401 before its body or any argument is read', async () => {
    const seen: string[] = [];
    const url = await serve(seen);
    const res = await post(url, { when: '+1 day '.repeat(140_000) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_forbidden');
    expect(seen).toEqual([]);
  });

  it('refuses an anonymous write with bad arguments as anonymous (401), not for its arguments', async () => {
    const seen: string[] = [];
    const res = await post(await serve(seen), { when: 'bad' });
    expect(res.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('checks a signed-in caller with WordPress first, then reads the body, then the arguments', async () => {
    const seen: string[] = [];
    const res = await post(await serve(seen), { when: 'now' }, BASIC);
    expect(res.status).toBe(201);
    expect(seen).toEqual(['authenticate', 'body', 'parse', 'handle']);
  });

  it('answers a signed-in caller with bad arguments 400 naming them', async () => {
    const seen: string[] = [];
    const res = await post(await serve(seen), { when: 'bad' }, BASIC);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { when: 'when must not be bad.' } },
    });
  });

  it('refuses rejected credentials (401 incorrect_password) before reading the body or the arguments', async () => {
    const seen: string[] = [];
    const url = await serve(seen, {
      resolve: async () => {
        seen.push('authenticate');
        throw credentialsRejected();
      },
    });
    const res = await post(`${url}?when=bad`, { when: 'bad' }, BASIC);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('incorrect_password');
    expect(seen).toEqual(['authenticate']);
  });

  it('parses an anonymous read without reading its body', async () => {
    const seen: string[] = [];
    const url = await serve(seen);
    const res = await fetch(`${url}?when=bad`, { method: 'GET' });
    expect(res.status).toBe(400);
    expect(seen).toEqual(['parse']);
  });
});

describe('the request path: Idempotency-Key', () => {
  const key = (k: string) => ({ 'Idempotency-Key': k });
  const send = (url: string, body: unknown, headers: Record<string, string>, query = '') =>
    fetch(`${url}${query}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('scopes keys to the user WordPress vouched for, however the credentials are spelt', async () => {
    const seen: string[] = [];
    const url = await serve(seen, { idempotency: new IdempotencyStore() });
    const first = await send(url, { when: 'now' }, { ...key('k1'), Authorization: BASIC });
    const again = await send(
      url,
      { when: 'now' },
      { ...key('k1'), Authorization: BASIC.replace('Basic', 'basic') },
    );
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(seen.filter((s) => s === 'handle')).toHaveLength(1);
  });

  it('holds a key to the query as well as the body: other query arguments are another request (422)', async () => {
    const seen: string[] = [];
    const url = await serve(seen, { idempotency: new IdempotencyStore() });
    expect((await send(url, {}, { ...key('k2'), Authorization: BASIC }, '?when=now')).status).toBe(201);
    const other = await send(url, {}, { ...key('k2'), Authorization: BASIC }, '?when=later');
    expect(other.status).toBe(422);
    expect(((await other.json()) as { code: string }).code).toBe('idempotency_key_reused');
  });

  it('keeps nothing for an anonymous caller, whose key is never looked at', async () => {
    const seen: string[] = [];
    const store = new IdempotencyStore();
    const claim = vi.spyOn(store, 'claim');
    const url = await serve(seen, { idempotency: store });
    const res = await send(url, { when: 'now' }, key('k3'));
    expect(res.status).toBe(401);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(claim).not.toHaveBeenCalled();
  });
});
