// One attempt: POST the signed payload through the guarded dispatcher, redirects not followed, the first 1 KB kept.
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { TargetRefused } from './guard.ts';

export interface SendResult {
  /** HTTP status, or 0 without an answer. */
  status: number;
  durationMs: number;
  /** The first 1 KB of the answer, or what went wrong. */
  response: string;
  /** No answer in time, or the target was refused before connecting. */
  error?: 'timeout' | 'refused' | 'network';
  retryAfter?: string;
}

/** How much of an answer the delivery log keeps. */
export const RESPONSE_BYTES = 1024;

export async function send(
  dispatcher: Dispatcher,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const took = () => Math.round(performance.now() - started);
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { ...headers, 'user-agent': 'calendar-gateway-webhooks' },
      body,
      dispatcher,
      signal,
      // undici.request never follows a redirect: a 3xx is the answer, and a failure.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= RESPONSE_BYTES) break;
      }
    } catch {
      // The status decides; a body cut short or slow is only less to log.
    }
    res.body.destroy();
    const retryAfter = res.headers['retry-after'];
    return {
      status: res.statusCode,
      durationMs: took(),
      response: Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString('utf8'),
      ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
    };
  } catch (err) {
    const e = err as Error & { cause?: unknown };
    const refused = e instanceof TargetRefused || e.cause instanceof TargetRefused;
    const timedOut = signal.aborted || e.name === 'HeadersTimeoutError' || e.name === 'ConnectTimeoutError';
    const cause = e.cause instanceof Error ? e.cause : e;
    return {
      status: 0,
      durationMs: took(),
      response: refused ? cause.message : timedOut ? `no answer within ${timeoutMs} ms` : `${cause.message}`,
      error: refused ? 'refused' : timedOut ? 'timeout' : 'network',
    };
  }
}
