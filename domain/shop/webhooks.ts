/**
 * A shop's own webhooks (DESIGN.md section 8): the events a shop webhook may subscribe to. Their
 * delivery, signing, SSRF rules and retries are the platform's (domain/shared/webhooks.ts,
 * activities/webhooks/); only the events and the tables differ.
 */
export const SHOP_WEBHOOK_EVENTS = ['order_cleared', 'order_status_changed', 'customer_erased'] as const;
export type ShopWebhookEvent = (typeof SHOP_WEBHOOK_EVENTS)[number];

/**
 * The key of one shop event: an order's transition (`clear`, or `status:<change id>`). With the
 * webhook it makes a delivery unique, so a repeated dispatch opens nothing twice.
 */
export function shopEventKey(orderId: number, source: string): string {
  return `order/${orderId}/${source}`;
}

/** The key of a customer's erasure event (issue 29): one per erasure run that changed something. */
export function customerErasedEventKey(erasureId: string, generation: number): string {
  return `customer-erasure/${erasureId}/${generation}`;
}
