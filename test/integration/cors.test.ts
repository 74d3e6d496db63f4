// Browser apps on other origins: CORS headers as WordPress sends them, on fresh and cached answers, and preflights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS_ALLOW_HEADERS, CORS_METHODS } from '../../src/http/cors.ts';
import { openTarget, type Target } from '../harness.ts';

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t?.close();
});

const APP = 'https://app.example';
const OTHER = 'https://other.example';
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${t.api}${path}`, { method, headers });

function expectCors(res: Response, origin: string): void {
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  expect(res.headers.get('access-control-allow-methods')).toBe(CORS_METHODS);
  expect(res.headers.get('access-control-allow-headers')).toBe(CORS_ALLOW_HEADERS);
  const exposed = res.headers.get('access-control-expose-headers') ?? '';
  for (const h of ['X-WP-Total', 'X-WP-TotalPages', 'Link', 'X-TEC-Total', 'X-TEC-TotalPages'])
    expect(exposed).toContain(h);
}

describe('CORS', () => {
  it('echoes each caller origin, also when the answer comes from the cache', async () => {
    const first = await get('/events?per_page=2&cors=1', { Origin: APP });
    expect(first.status).toBe(200);
    expectCors(first, APP);
    expect(first.headers.get('vary')).toContain('Origin');
    // Same URL, other origin: a stored answer, with this caller's origin and no other.
    const second = await get('/events?per_page=2&cors=1', { Origin: OTHER });
    expect(second.headers.get('age')).not.toBeNull();
    expectCors(second, OTHER);
    const plain = await get('/events?per_page=2&cors=1');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Origin');
  });

  it('puts the same headers on errors', async () => {
    const res = await get('/events?per_page=0', { Origin: APP });
    expect(res.status).toBe(400);
    expectCors(res, APP);
  });

  it('answers a preflight with the route described and the methods the caller may use', async () => {
    const pre = await get(
      '/events',
      {
        Origin: APP,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
      'OPTIONS',
    );
    expect(pre.status).toBe(200);
    expectCors(pre, APP);
    expect(pre.headers.get('allow')).toBe('GET');
    expect(pre.headers.get('access-control-max-age')).toBe('600');
    const body = (await pre.json()) as {
      namespace: string;
      methods: string[];
      endpoints: Array<{ methods: string[] }>;
    };
    expect(body.namespace).toBe('calendar/events/v1');
    expect(body.methods).toEqual(['GET', 'POST']);
    expect(body.endpoints.map((e) => e.methods)).toEqual([['GET'], ['POST']]);
    const signedIn = await get('/events/1', { Origin: APP, Authorization: t.auth.editor }, 'OPTIONS');
    expect(signedIn.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
    const nowhere = await get('/nowhere', { Origin: APP }, 'OPTIONS');
    expect(nowhere.status).toBe(404);
    expect(((await nowhere.json()) as { code: string }).code).toBe('rest_no_route');
  });

  it('sends what WordPress itself sends for the same origin', async () => {
    const wp = await fetch(`${t.upstream}/wp/v2/types`, { headers: { Origin: APP } });
    const ours = await get('/events?per_page=1', { Origin: APP });
    for (const h of [
      'access-control-allow-origin',
      'access-control-allow-methods',
      'access-control-allow-credentials',
    ])
      expect(ours.headers.get(h), h).toBe(wp.headers.get(h));
    // WordPress's list, plus Idempotency-Key so browser apps can retry a create safely (docs/caching.md, "Safe retries").
    expect(ours.headers.get('access-control-allow-headers')).toBe(
      `${wp.headers.get('access-control-allow-headers')}, Idempotency-Key`,
    );
    for (const h of (wp.headers.get('access-control-expose-headers') ?? '').split(/,\s*/))
      expect(ours.headers.get('access-control-expose-headers')).toContain(h);
  });
});
