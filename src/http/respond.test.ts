// What `toApiError` makes of what a route threw: its own errors as they are, Redis not answering a 503 that passes,
// anything else a 500 that names no cause.
import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { type ApiError, upstreamBusy } from './errors.ts';
import { toApiError } from './respond.ts';

const logged: string[] = [];
const log = {
  warn: (_o: unknown, m: string) => logged.push(`warn ${m}`),
  error: (_o: unknown, m: string) => logged.push(`error ${m}`),
} as unknown as Parameters<typeof toApiError>[1];
const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const of = (err: unknown): [number, string] => {
  const e: ApiError = toApiError(err, log, 'r1');
  return [e.status, e.code];
};

describe('toApiError', () => {
  it('answers 503 store_unavailable for Redis late, down, reconnecting or failing over, with Retry-After', () => {
    for (const err of [
      new Error('Command timed out'),
      new Error('Connection is closed.'),
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      new Error("Cluster isn't ready and enableOfflineQueue options is false"),
      named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 1).'),
      named('ClusterAllFailedError', 'Failed to refresh slots cache.'),
      new ReplyError(
        'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSCRIPT.',
      ),
      new ReplyError('LOADING Redis is loading the dataset in memory'),
      new ReplyError('CLUSTERDOWN The cluster is down'),
      new ReplyError("READONLY You can't write against a read only replica."),
    ]) {
      expect([err.message, ...of(err)]).toEqual([err.message, 503, 'store_unavailable']);
    }
    expect(toApiError(new Error('Command timed out'), log, 'r1').data).toMatchObject({ retry_after: 1 });
  });

  it('keeps a Redis refusal that is a bug of ours, and any other error, a 500', () => {
    logged.length = 0;
    for (const err of [
      new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'),
      new ReplyError('ERR Error running script: attempt to compare nil with string'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      new Error('a command timed out somewhere else'),
      'a string',
    ]) {
      expect(of(err)).toEqual([500, 'internal_error']);
    }
    expect(logged).toEqual(Array(5).fill('error unexpected error'));
  });

  it("passes the gateway's own errors through", () => {
    expect(of(upstreamBusy())).toEqual([503, 'upstream_busy']);
  });
});
