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
