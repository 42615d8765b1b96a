import { describe, expect, it } from 'vitest';
import { redeliveryRefusal } from '../../../domain/shared/webhooks.ts';
import { orderOfEventKey, shopEventKey, shopWebhookDeliveryEffect } from '../../../domain/shop/webhooks.ts';

const base = { type: 'order_cleared', webhookId: 'w1', host: 'hooks.example.com', statusCode: null, error: null };

describe('shopWebhookDeliveryEffect', () => {
  it('done with the HTTP status when delivered', () => {
    expect(shopWebhookDeliveryEffect({ ...base, status: 'succeeded', statusCode: 204 })).toEqual({ status: 'done', detail: 'order_cleared delivered to webhook w1 (hooks.example.com) (HTTP 204)' });
  });
  it('failed with the last attempt\'s error, else its status, else "no reply"', () => {
    expect(shopWebhookDeliveryEffect({ ...base, status: 'failed', error: 'refused: 10.0.0.1 is a private address' }).detail).toBe(
      'order_cleared delivery to webhook w1 (hooks.example.com) failed: refused: 10.0.0.1 is a private address',
    );
    expect(shopWebhookDeliveryEffect({ ...base, status: 'failed', statusCode: 503 })).toEqual({ status: 'failed', detail: expect.stringMatching(/failed: HTTP 503$/) });
    expect(shopWebhookDeliveryEffect({ ...base, status: 'failed' }).detail).toMatch(/failed: no reply$/);
  });
  it('failed when the webhook was switched off or deleted; under way while pending', () => {
    expect(shopWebhookDeliveryEffect({ ...base, status: 'disabled' })).toEqual({ status: 'failed', detail: expect.stringContaining('switched off or deleted') });
    expect(shopWebhookDeliveryEffect({ ...base, status: 'pending' })).toEqual({ status: 'done', detail: expect.stringMatching(/under way$/) });
  });
});

describe('orderOfEventKey', () => {
  it('reads back the order transition of an order event key, null for another event', () => {
    expect(orderOfEventKey(shopEventKey(7, 'clear:paid'))).toEqual({ orderId: 7, source: 'clear:paid' });
    expect(orderOfEventKey(shopEventKey(8, 'status:42'))).toEqual({ orderId: 8, source: 'status:42' });
    expect(orderOfEventKey('customer-erasure/abc/1')).toBeNull();
  });
});

describe('redeliveryRefusal', () => {
  it('refuses a deleted or inactive webhook and a pending delivery; allows a finished one', () => {
    expect(redeliveryRefusal({ active: false, deleted: true }, 'failed')).toBe('the webhook is deleted');
    expect(redeliveryRefusal({ active: false, deleted: false, name: 'the club integration' }, 'failed')).toContain('the club integration is not active');
    expect(redeliveryRefusal({ active: true, deleted: false }, 'pending')).toBe('the delivery is still pending');
    for (const status of ['succeeded', 'failed', 'disabled'] as const) expect(redeliveryRefusal({ active: true, deleted: false }, status)).toBeNull();
  });
});
