import { createHmac, randomBytes } from 'node:crypto';

/**
 * Delivery signatures (docs/webhooks.md, Headers): both the GitHub-style and the Standard Webhooks scheme sign the
 * same serialized body bytes, so either kind of verifier passes.
 */

/** The Standard Webhooks secret prefix: what follows it is the key, base64-encoded. */
const STANDARD_SECRET_PREFIX = 'whsec_';

/** A new secret: 32 random bytes in the Standard Webhooks form, usable as is by both verifier styles. */
export function generateWebhookSecret(): string {
  return STANDARD_SECRET_PREFIX + randomBytes(32).toString('base64');
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The Standard Webhooks key: a `whsec_` secret's base64 part decoded, else the secret's UTF-8 bytes,
 * matching `new Webhook(secret)` and its `format: 'raw'`.
 */
function standardWebhooksKey(secret: string): Buffer {
  if (secret.startsWith(STANDARD_SECRET_PREFIX)) {
    const encoded = secret.slice(STANDARD_SECRET_PREFIX.length);
    if (BASE64.test(encoded)) return Buffer.from(encoded, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/** Why a secret the owner chose is refused, or null when it is fine. */
export function secretProblem(secret: string): string | null {
  if (secret.length < 16 || secret.length > 256) return 'must be 16 to 256 characters';
  if (secret.startsWith(STANDARD_SECRET_PREFIX)) {
    const encoded = secret.slice(STANDARD_SECRET_PREFIX.length);
    const bytes = BASE64.test(encoded) && encoded.length % 4 === 0 ? Buffer.from(encoded, 'base64').length : 0;
    if (bytes < 24 || bytes > 64) return 'a whsec_ secret must hold 24 to 64 base64-encoded bytes';
  }
  return null;
}

export interface SignedHeadersInput {
  secret: string;
  /** The delivery id: the same on every retry and redelivery. */
  deliveryId: string;
  event: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Unix seconds, fresh per attempt. */
  timestamp: number;
  body: string;
}

/** Every header of one attempt, signatures included. */
export function signedHeaders(input: SignedHeadersInput): Record<string, string> {
  const { secret, deliveryId, event, attempt, timestamp, body } = input;
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const standard = createHmac('sha256', standardWebhooksKey(secret))
    .update(`${deliveryId}.${timestamp}.${body}`)
    .digest('base64');
  return {
    'content-type': 'application/json',
    'user-agent': 'config-share-webhooks/3.16',
    'x-service-event': event,
    'x-service-delivery': deliveryId,
    'x-service-signature': `sha256=${hex}`,
    'x-service-timestamp': String(timestamp),
    'x-service-attempt': String(attempt),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${standard}`,
  };
}
