// Standard Webhooks signing (standardwebhooks.com): `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret.
import { createHmac, randomBytes } from 'node:crypto';

/** A new `whsec_` secret: 32 random bytes, base64, as the spec's libraries read it. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The spec's key is the base64 after `whsec_`. */
const keyOf = (secret: string): Buffer => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/** The `webhook-signature` header: one `v1,…` per secret still valid, space-separated (a rotation sends both). */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets
    .map((s) => `v1,${createHmac('sha256', keyOf(s)).update(content).digest('base64')}`)
    .join(' ');
}

/** The headers of one attempt; `timestamp` in seconds, as the spec has it. */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}
