// The one error table: nothing else builds an error, every rest_invalid_param names its parameter, and WordPress's
// refusals reach callers in the same words from every resource.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapUpstreamError, refusal, trashFailed } from '../wp/errors.ts';
import {
  fromWordPress,
  invalidParams,
  upstreamFailed,
  upstreamTimeout,
  upstreamUnreachable,
} from './errors.ts';

const SRC = new URL('..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('the error table', () => {
  it('is the only place that builds an ApiError or writes an error code a caller sees as rest_invalid_param', () => {
    const outside = sources(SRC).filter((p) => !p.endsWith(join('http', 'errors.ts')));
    expect(outside.length).toBeGreaterThan(100);
    const builders = outside.filter((p) => /new ApiError\(/.test(readFileSync(p, 'utf8')));
    const literals = outside.filter((p) => /['"`]rest_invalid_param['"`]/.test(readFileSync(p, 'utf8')));
    expect(builders.map((p) => p.slice(SRC.length))).toEqual([]);
    // Comparisons with the code are fine; building one is not: each place below only reads it.
    for (const p of literals) expect(readFileSync(p, 'utf8')).not.toMatch(/code: ['"`]rest_invalid_param/);
  });

  it('refuses an invalid-parameter error that names no parameter', () => {
    expect(() => invalidParams({})).toThrow(/needs the parameter/);
    expect(invalidParams({ page: 'page must be …' }).toJSON()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): page',
      data: { status: 400, params: { page: 'page must be …' } },
    });
  });
});

describe('refusal: WordPress refusals in TEC words, for every resource', () => {
  const wp = (code: string, status: number, data: Record<string, unknown> = {}) =>
    fromWordPress(code, `WordPress says ${code}`, status, { upstream: true, ...data });

  it.each([
    ['rest_cannot_create', 403, true, { code: 'rest_forbidden', status: 403 }],
    ['rest_cannot_create', 401, false, { code: 'rest_forbidden', status: 401 }],
    ['rest_forbidden', 403, false, { code: 'rest_forbidden', status: 401 }],
  ])('%s (HTTP %i, signed in: %s) → %o', (code, status, loggedIn, expected) => {
    expect(refusal(wp(code, status), loggedIn)).toMatchObject(expected);
  });

  it('names the argument a refusal is about, keeping WordPress’s code in details', () => {
    const out = refusal(wp('rest_invalid_author', 400), true);
    expect(out).toMatchObject({
      code: 'rest_invalid_param',
      status: 400,
      data: {
        params: { author: 'WordPress says rest_invalid_author' },
        details: { upstream_code: 'rest_invalid_author' },
      },
    });
    expect(refusal(wp('rest_whatever', 400, { params: { slug: 'taken' } }), true)).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { slug: 'taken' } },
    });
  });

  it('keeps a refusal about no one argument as WordPress said it, without the upstream marker', () => {
    const out = refusal(wp('term_exists', 400, { term_id: 12 }), true);
    expect(out).toMatchObject({ code: 'term_exists', status: 400, data: { status: 400, term_id: 12 } });
    expect((out as { data: object }).data).not.toHaveProperty('upstream');
  });

  it('turns an unknown term id into an error about id, and passes everything else', () => {
    expect(refusal(wp('rest_term_invalid', 404), false)).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { id: expect.any(String) } },
    });
    const down = wp('upstream_error', 502);
    expect(refusal(down, true)).toBe(down);
    const plain = new Error('not ours');
    expect(refusal(plain, true)).toBe(plain);
  });
});

describe('mapUpstreamError: WordPress refusing, and WordPress failing', () => {
  it('keeps a refusal (4xx) as WordPress said it', () => {
    expect(
      mapUpstreamError(400, { code: 'rest_invalid_param', message: 'bad', data: { status: 400 } }),
    ).toMatchObject({
      code: 'rest_invalid_param',
      status: 400,
      message: 'bad',
    });
  });

  it.each([500, 501, 502, 507])(
    'answers WordPress’s own failure (%i) as 502, its message kept for the log',
    (status) => {
      const body = {
        code: 'rest_upload_unknown_error',
        message: 'Unable to create directory wp-content/uploads/2026/11.',
      };
      const err = mapUpstreamError(status, body);
      expect(err.toJSON()).toEqual({
        code: 'upstream_error',
        message: `WordPress failed with HTTP ${status}.`,
        data: { status: 502, upstream_status: status, upstream_code: 'rest_upload_unknown_error' },
      });
      expect(JSON.stringify(err)).not.toContain('wp-content');
      expect(err.cause).toBe(body.message);
      expect(mapUpstreamError(status, null).toJSON().data).toEqual({ status: 502, upstream_status: status });
    },
  );
});

describe('trashFailed: when a trash is TEC\u2019s could-not-delete', () => {
  it.each([
    [mapUpstreamError(500, { code: 'rest_cannot_delete', message: 'The post cannot be deleted.' }), true],
    [upstreamFailed(500), true],
    [upstreamFailed(502), true],
    [upstreamTimeout(), false],
    [upstreamUnreachable(), false],
    [fromWordPress('rest_forbidden', 'no', 403, {}), false],
  ])('%o → %s', (err, expected) => {
    expect(trashFailed(err)).toBe(expected);
  });
});
