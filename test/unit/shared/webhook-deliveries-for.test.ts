import { describe, expect, it } from 'vitest';
import { webhookDeliveriesFor } from '../../../domain/shared/webhooks.ts';

describe('webhookDeliveriesFor', () => {
  const webhooks = [
    { webhookId: 'a', events: ['access_granted', 'user_registered'] as const },
    { webhookId: 'b', events: ['access_granted'] as const },
    { webhookId: 'c', events: ['access_revoked'] as const },
  ];

  it('pairs each event with every webhook subscribed to its type, events first, webhooks in their order', () => {
    const events = [
      { id: 'e1', type: 'user_registered' as const },
      { id: 'e2', type: 'access_granted' as const },
    ];
    expect(webhookDeliveriesFor(events, webhooks)).toEqual([
      { webhookId: 'a', eventId: 'e1' },
      { webhookId: 'a', eventId: 'e2' },
      { webhookId: 'b', eventId: 'e2' },
    ]);
  });

  it('starts nothing for an event no webhook subscribed to, or when there are no events', () => {
    expect(webhookDeliveriesFor([{ id: 'e3', type: 'order_fulfilled' }], webhooks)).toEqual([]);
    expect(webhookDeliveriesFor([], webhooks)).toEqual([]);
  });
});
