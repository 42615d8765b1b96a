import { describe, expect, it } from 'vitest';
import { runClearingOutside, type ClearingOutsideEffects } from '../../../activities/shop/clearing-outside.ts';
import { slowTargets } from '../../../activities/shared/slow-targets.ts';

const shopId = 'shop-1';

/** Fakes that answer at once and count the calls made. */
function fakes() {
  const calls: string[] = [];
  const fx = {
    sendStatusMail: async () => (calls.push('status_mail'), { status: 'done', detail: 'sent' }),
    sendAnalyticsPurchase: async () => (calls.push('analytics_purchase'), { status: 'done', detail: 'sent' }),
    tagCustomer: async () => (calls.push('marketing_tags'), { status: 'done', detail: 'tagged' }),
    recordOrderEffect: async () => undefined,
    attemptShopWebhookDelivery: async ({ deliveryId }: { deliveryId: string }) => (calls.push(deliveryId), { status: 'succeeded', statusCode: 200, nextAttemptInMs: null }),
    attemptClubWebhookDelivery: async ({ deliveryId }: { deliveryId: string }) => (calls.push(deliveryId), { status: 'succeeded', statusCode: 200, nextAttemptInMs: null }),
    recordClubWebhookOutcome: async () => ({ status: 'done', detail: 'delivered' }),
  } as unknown as ClearingOutsideEffects;
  return { fx, calls };
}

const event = { eventId: 'e1', occurredAt: '2026-12-07T00:00:00.000Z' };
const input = {
  shopId,
  orderId: 7,
  handOn: ['status_mail' as const, 'analytics_purchase' as const],
  deliveries: [
    { source: 'clear' as const, webhookId: 'hook-slow', type: 'order_cleared' as const, ...event, deliveryId: 'd-slow' },
    { source: 'clear' as const, webhookId: 'hook-fast', type: 'order_cleared' as const, ...event, deliveryId: 'd-fast' },
  ],
  club: { deliveryId: 'd-club', statusId: 2 },
};

describe("a clearing's outside calls with targets the worker saw slow", () => {
  it('makes the calls to the other targets and hands the slow ones on without making them', async () => {
    let now = 0;
    const slow = slowTargets({ now: () => now });
    // One slow call each to the shop's webhook and to the mail relay (every shop's), just ended.
    for (const target of [`${shopId}/webhook/hook-slow`, 'status_mail']) await slow.timed(target, async () => void (now += 5_000));
    const { fx, calls } = fakes();
    const left = await runClearingOutside(fx, input, slow);
    expect(calls.sort()).toEqual(['analytics_purchase', 'd-club', 'd-fast']);
    // The mail to its retried activity; the delivery to its workflow, which makes the first attempt (no wait).
    expect(left).toEqual({ retry: ['status_mail'], deliveries: [{ deliveryId: 'd-slow' }], club: null });
  });

  it('makes every call when none is slow', async () => {
    const { fx, calls } = fakes();
    expect(await runClearingOutside(fx, input, slowTargets())).toEqual({ retry: [], deliveries: [], club: null });
    expect(calls.sort()).toEqual(['analytics_purchase', 'd-club', 'd-fast', 'd-slow', 'status_mail']);
  });
});
