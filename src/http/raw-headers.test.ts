import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayCarryCredentials } from './credentials.ts';
import { hitHeaders, hitHeadersOf } from './raw-headers.ts';

/** A request whose header lines are `raw`, as Node's parser hands them over (so `req.headers` is Node's own). */
function requestWith(raw: string[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  (req as unknown as { _addHeaderLines(h: string[], n: number): void })._addHeaderLines(raw, raw.length);
  return req;
}

const NAMES = [
  'Host',
  'host',
  'X-Forwarded-Proto',
  'x-request-id',
  'Origin',
  'Accept-Encoding',
  'If-None-Match',
  'Authorization',
  'COOKIE',
  'X-WP-Nonce',
  'Accept',
  'User-Agent',
  'Connection',
  'X-Other',
];
const lines = fc
  .array(fc.tuple(fc.constantFrom(...NAMES), fc.stringMatching(/^[ -~]{0,12}$/)), { maxLength: 8 })
  .map((pairs) => pairs.flat());

describe('hitHeaders', () => {
  it('reads what req.headers gives, or declines when a header it reads comes twice', () => {
    fc.assert(
      fc.property(lines, (raw) => {
        const req = requestWith(raw);
        const h = req.headers;
        const fast = hitHeaders(raw);
        const exact = hitHeadersOf(req);
        expect(exact.credentials).toBe(mayCarryCredentials(h));
        expect(exact).toEqual({
          credentials: mayCarryCredentials(h),
          host: h.host,
          forwardedProto: h['x-forwarded-proto'],
          requestId: h['x-request-id'],
          origin: h.origin,
          acceptEncoding: h['accept-encoding'],
          ifNoneMatch: h['if-none-match'],
        });
        if (fast) expect(fast).toEqual(exact);
      }),
      { seed: 33, numRuns: 500 },
    );
  });

  it('never takes a credentialed request for an anonymous one, in any spelling or number', () => {
    for (const name of ['authorization', 'Cookie', 'x-wp-NONCE']) {
      expect(hitHeaders([name, ''])?.credentials).toBe(true);
      expect(hitHeaders(['Host', 'a', name, 'x', name, 'y'])?.credentials).toBe(true);
    }
  });

  it('declines a repeated Host, whose first line Node keeps', () => {
    expect(hitHeaders(['Host', 'a', 'host', 'b'])).toBeUndefined();
    expect(hitHeadersOf(requestWith(['Host', 'a', 'host', 'b'])).host).toBe('a');
  });
});
