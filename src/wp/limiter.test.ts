import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamLimiter } from './limiter.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('UpstreamLimiter', () => {
  it('never runs more calls at once than allowed, and runs every patient call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }),
        async (concurrency, delays) => {
          const limiter = new UpstreamLimiter({ concurrency, queue: 0, waitMs: 1000 });
          let inFlight = 0;
          let most = 0;
          const done = await Promise.all(
            delays.map((d, i) =>
              limiter.run(
                async () => {
                  most = Math.max(most, ++inFlight);
                  for (let k = 0; k < d; k++) await tick();
                  inFlight--;
                  return i;
                },
                { patient: true },
              ),
            ),
          );
          expect(done).toEqual(delays.map((_, i) => i));
          expect(most).toBeLessThanOrEqual(concurrency);
          expect(limiter.active).toBe(0);
        },
      ),
      { seed: 7, numRuns: 40 },
    );
  });

  it('refuses a call at once when the queue is full, with a retry hint', async () => {
    const limiter = new UpstreamLimiter({ concurrency: 1, queue: 1, waitMs: 1000 });
    let release = () => {};
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const second = limiter.run(async () => 'second');
    await expect(limiter.run(async () => 'third')).rejects.toMatchObject({
      code: 'upstream_busy',
      status: 503,
      data: { retry_after: 1 },
    });
    release();
    await first;
    expect(await second).toBe('second');
  });

  it('refuses a call that waited too long, and frees its place in the queue', async () => {
    const limiter = new UpstreamLimiter({ concurrency: 1, queue: 5, waitMs: 20 });
    let release = () => {};
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    await expect(limiter.run(async () => 'late')).rejects.toMatchObject({ code: 'upstream_busy' });
    expect(limiter.queued).toBe(0);
    release();
    await first;
    expect(limiter.active).toBe(0);
  });

  it('drops a waiting call whose caller went away', async () => {
    const limiter = new UpstreamLimiter({ concurrency: 1, queue: 5, waitMs: 1000 });
    let release = () => {};
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const abort = new AbortController();
    const waiting = limiter.run(async () => 'never', { signal: abort.signal });
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'request_aborted' });
    release();
    await first;
    expect(limiter.active).toBe(0);
  });
});
