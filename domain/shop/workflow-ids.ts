/**
 * Shop workflow ids start with `shop/<shop id>/` and carry the business id (DESIGN.md section 7),
 * so the Temporal UI finds an order's work with `WorkflowId STARTS_WITH "shop/<s>/order/<id>/"`.
 */
export function shopPrefix(shopId: string): string {
  return `shop/${shopId}`;
}

/** One clearing per order: a second start is rejected. */
export function clearOrderWorkflowId(p: { shopId: string; orderId: number }): string {
  return `${shopPrefix(p.shopId)}/order/${p.orderId}/clear`;
}

/** One run per recorded status change. */
export function orderStatusWorkflowId(p: { shopId: string; orderId: number; changeId: number }): string {
  return `${shopPrefix(p.shopId)}/order/${p.orderId}/status/${p.changeId}`;
}

/**
 * The delivery of one order transition's event to one shop webhook (`source`: `clear` or
 * `status:<change id>`, written `status/<change id>`): a repeated start is rejected.
 */
export function shopWebhookDeliveryWorkflowId(p: { shopId: string; webhookId: string; orderId: number; source: string }): string {
  return `${shopPrefix(p.shopId)}/webhook/${p.webhookId}/order/${p.orderId}/${p.source.replace(':', '/')}`;
}

/**
 * The timer of one automatic status: the order reached its status by `source` (`clear` or
 * `status:<change id>`, written `status/<change id>`), and `toStatusId` is due after the offset.
 * One per transition and target status: a repeated start is rejected.
 */
export function automaticStatusWorkflowId(p: { shopId: string; orderId: number; source: string; toStatusId: number }): string {
  return `${shopPrefix(p.shopId)}/order/${p.orderId}/auto-status/${p.source.replace(':', '/')}/to/${p.toStatusId}`;
}

/** The club webhook of an order at a status (an order status id): once per order and status, a repeated start is rejected. */
export function clubWebhookWorkflowId(p: { shopId: string; orderId: number; statusId: number }): string {
  return `${shopPrefix(p.shopId)}/order/${p.orderId}/club-webhook/at-status/${p.statusId}`;
}

/** The test mails of one `test_email` or `test_emails` request (spec rules 5-6). */
export function statusTestMailsWorkflowId(p: { shopId: string; requestId: string }): string {
  return `${shopPrefix(p.shopId)}/status-test-mails/${p.requestId}`;
}

/** One renewal workflow per subscriber, continued-as-new per period (issue 12). */
export function subscriberWorkflowId(p: { shopId: string; subscriberId: number }): string {
  return `${shopPrefix(p.shopId)}/subscriber/${p.subscriberId}`;
}

/** The price schedule of one time-limited price-history discount: signalled on every change. */
export function timeLimitedDiscountWorkflowId(p: { shopId: string; discountId: number }): string {
  return `${shopPrefix(p.shopId)}/time-limited-discount/${p.discountId}`;
}

/**
 * One run of a mail sequence per recipient, ever (REJECT_DUPLICATE). `recipient` is the address's
 * keyed hash (db personalEmailHash), never the address (docs/decisions/operability.md, issue 41 item 3);
 * runs started before that carry the lower-cased address in its place.
 */
export function mailSequenceWorkflowId(p: { shopId: string; sequenceId: number; recipient: string }): string {
  return `${mailSequenceRunsPrefix(p)}${p.recipient}`;
}

/** What every run of one sequence's id starts with (the runs to end when the sequence is deleted). */
export function mailSequenceRunsPrefix(p: { shopId: string; sequenceId: number }): string {
  return `${shopPrefix(p.shopId)}/sequence/${p.sequenceId}/`;
}

/** The follow-up of an order's placement (the automatic statuses after New): one per order. */
export function orderPlacedWorkflowId(p: { shopId: string; orderId: number }): string {
  const [head, tail] = orderPlacedWorkflowIdAround(p.shopId);
  return `${head}${p.orderId}${tail}`;
}

/** What stands before and after the order id in `orderPlacedWorkflowId` (the placing statement builds it in SQL). */
export function orderPlacedWorkflowIdAround(shopId: string): [string, string] {
  return [`${shopPrefix(shopId)}/order/`, '/placed'];
}

/** The delivery of one erasure run's `customer_erased` event to one shop webhook (issue 29): a repeated start is rejected. */
export function customerErasedDeliveryWorkflowId(p: { shopId: string; webhookId: string; erasureId: string; generation: number }): string {
  return `${shopPrefix(p.shopId)}/webhook/${p.webhookId}/customer-erasure/${p.erasureId}/${p.generation}`;
}

/** The n-th manual redelivery of a shop webhook's delivery (`POST .../webhooks/:id/deliveries/:delivery_id/redeliver`). */
export function shopWebhookRedeliveryWorkflowId(p: { shopId: string; webhookId: string; deliveryId: string; redelivery: number }): string {
  return `${shopPrefix(p.shopId)}/webhook/${p.webhookId}/delivery/${p.deliveryId}/redelivery/${p.redelivery}`;
}

/** The n-th manual redelivery of the club webhook of an order at a status (`POST .../club/deliveries/:delivery_id/redeliver`). */
export function clubWebhookRedeliveryWorkflowId(p: { shopId: string; orderId: number; statusId: number; redelivery: number }): string {
  return `${clubWebhookWorkflowId(p)}/redelivery/${p.redelivery}`;
}
