import { createHmac } from 'node:crypto';

/**
 * Signatures of a webhook delivery (docs/decisions/, "Webhooks: signing"):
 *
 * - `X-Webhook-Signature: sha256=<hex>`: HMAC-SHA256 of the exact request body (UTF-8 bytes),
 *   keyed with the UTF-8 bytes of the webhook's `secret_key` as it was saved.
 * - Standard Webhooks: `webhook-id` (the event id, the same on every attempt), `webhook-timestamp`
 *   (Unix seconds of the attempt) and `webhook-signature: v1,<base64>`: HMAC-SHA256 of
 *   `<webhook-id>.<webhook-timestamp>.<body>`. Its key is the base64-decoded part after `whsec_`
 *   when `secret_key` has that form (a Standard Webhooks secret), else the UTF-8 bytes of
 *   `secret_key`.
 */
export function standardWebhooksKey(secretKey: string): Buffer {
  if (secretKey.startsWith('whsec_')) {
    const key = Buffer.from(secretKey.slice('whsec_'.length), 'base64');
    if (key.length > 0) return key;
  }
  return Buffer.from(secretKey, 'utf8');
}

export interface SignedRequest {
  /** The event id: stable across retries and redeliveries, so receivers can drop duplicates. */
  eventId: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  body: string;
}

export function signatureHeaders(secretKey: string, { eventId, timestamp, body }: SignedRequest): Record<string, string> {
  const hex = createHmac('sha256', Buffer.from(secretKey, 'utf8')).update(body, 'utf8').digest('hex');
  const standard = createHmac('sha256', standardWebhooksKey(secretKey)).update(`${eventId}.${timestamp}.${body}`, 'utf8').digest('base64');
  return {
    'x-webhook-signature': `sha256=${hex}`,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${standard}`,
  };
}
