// When a webhook message is tried again, and what an answer means: pure rules (Standard Webhooks' schedule, ~3 days).

import type { Outcome } from './types.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

/** Waits after attempts 1…9 (then the message has failed): the spec's schedule, about 3 days in all. */
export const RETRY_SCHEDULE_MS = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H];

/** An endpoint whose attempts have all failed for this long is disabled (Svix's rule). */
export const DISABLE_AFTER_MS = 5 * 24 * H;

/** A Retry-After longer than this is read as this: the last wait of the schedule. */
const RETRY_AFTER_MAX_MS = 24 * H;

/** Jitter of ±10 %: many messages failing together do not come back together. */
const JITTER = 0.1;

/**
 * The wait before the next attempt after `attempts` attempts, or null when the message has had them all. `scale`
 * compresses the schedule (tests, demos); `random` is `Math.random` outside tests.
 */
export function nextDelay(
  attempts: number,
  scale: number,
  random: () => number = Math.random,
): number | null {
  const base = RETRY_SCHEDULE_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * scale * (1 - JITTER + 2 * JITTER * random()));
}

/** `Retry-After` as milliseconds from `nowMs`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | null {
  if (!header) return null;
  const text = header.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * S;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return Math.min(Math.max(ms, 0), RETRY_AFTER_MAX_MS);
}

/** What an HTTP answer means: only a 2xx delivers; 410 says the endpoint is gone; every 3xx is a failure. */
export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'success';
  if (status === 410) return 'gone';
  return 'failure';
}

/** Whether a failed answer's Retry-After is to be honoured (the spec names 429 and 503). */
export const honoursRetryAfter = (status: number): boolean => status === 429 || status === 503;

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function failedTooLong(failingSince: number | null, nowMs: number, scale: number): boolean {
  return failingSince !== null && nowMs - failingSince >= DISABLE_AFTER_MS * scale;
}
