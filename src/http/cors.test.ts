import { describe, expect, it } from 'vitest';
import { corsHeaders, originRule } from './cors.ts';

describe('originRule', () => {
  it('lets any origin in by default, as WordPress does', () => {
    expect(originRule(undefined)('https://a.example')).toBe(true);
    expect(originRule(['*'])('https://a.example')).toBe(true);
  });

  it('lets only the configured origins in, whatever their case or trailing slash', () => {
    const rule = originRule(['https://App.example/', 'http://localhost:5173']);
    expect(rule('https://app.example')).toBe(true);
    expect(rule('http://localhost:5173')).toBe(true);
    expect(rule('https://evil.example')).toBe(false);
    expect(rule('http://localhost:5174')).toBe(false);
  });
});

describe('corsHeaders', () => {
  const any = originRule(undefined);

  it.each([
    ['https://app.example', true],
    ['capacitor://localhost', true],
    ['null', true],
    ['https://app.example/path', false],
    ['not an origin', false],
    ['', false],
  ])('echoes %j: %s', (origin, echoed) => {
    const h = corsHeaders(origin || undefined, any);
    expect(h['access-control-allow-origin']).toBe(echoed ? origin : undefined);
    expect(h['access-control-expose-headers']).toContain('X-WP-Total');
  });

  it('never allows credentials or writes to Origin: null (sandboxed frames and file: pages of any site)', () => {
    const h = corsHeaders('null', any);
    expect(h['access-control-allow-origin']).toBe('null');
    expect(h).not.toHaveProperty('access-control-allow-credentials');
    expect(h['access-control-allow-methods']).toBe('OPTIONS, GET');
    expect(corsHeaders('https://app.example', any)['access-control-allow-credentials']).toBe('true');
  });

  it.each([undefined, 'null', 'https://app.example', 'https://evil.example'])(
    'sends WordPress security headers with Origin %j',
    (origin) => {
      const h = corsHeaders(origin, originRule(['https://app.example', 'null']));
      expect(h['x-content-type-options']).toBe('nosniff');
      expect(h['x-robots-tag']).toBe('noindex');
    },
  );

  it('gives a refused origin no Access-Control-Allow-Origin', () => {
    const h = corsHeaders('https://evil.example', originRule(['https://app.example']));
    expect(h).not.toHaveProperty('access-control-allow-origin');
    expect(h).not.toHaveProperty('access-control-allow-credentials');
  });
});
