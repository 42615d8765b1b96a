import type { EffectOutcome } from './effects.ts';

/**
 * A shop's own webhooks (DESIGN.md section 8): the events a shop webhook may subscribe to. Their
 * delivery, signing, SSRF rules and retries are the platform's (domain/shared/webhooks.ts,
 * activities/webhooks/); only the events and the tables differ.
 */
export const SHOP_WEBHOOK_EVENTS = ['order_placed', 'order_cleared', 'order_status_changed', 'customer_erased'] as const;
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

/** The order transition of an order event's key (`order/<id>/<source>`); null for another event (a customer's erasure). */
export function orderOfEventKey(eventKey: string): { orderId: number; source: string } | null {
  const match = /^order\/(\d+)\/(.+)$/.exec(eventKey);
  return match ? { orderId: Number(match[1]), source: match[2]! } : null;
}

/**
 * The `webhook` effect of an order transition for one shop webhook, once its delivery is over:
 * `done` when the webhook took it (with the HTTP status), `failed` with the reason otherwise (the
 * last attempt's error, e.g. an address the SSRF rules refuse, or its HTTP status; the webhook
 * switched off or deleted before it went). "Under way" while it is pending.
 */
export function shopWebhookDeliveryEffect(d: { type: string; webhookId: string; host: string; status: string; statusCode: number | null; error: string | null }): EffectOutcome {
  const to = `webhook ${d.webhookId} (${d.host})`;
  if (d.status === 'succeeded') return { status: 'done', detail: `${d.type} delivered to ${to}${d.statusCode === null ? '' : ` (HTTP ${d.statusCode})`}` };
  if (d.status === 'disabled') return { status: 'failed', detail: `${d.type} not delivered to ${to}: the webhook was switched off or deleted` };
  if (d.status === 'failed') return { status: 'failed', detail: `${d.type} delivery to ${to} failed: ${d.error ?? (d.statusCode === null ? 'no reply' : `HTTP ${d.statusCode}`)}` };
  return { status: 'done', detail: `${d.type} delivery to ${to} under way` };
}
