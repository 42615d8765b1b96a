/**
 * The drill's three kinds of operation, each what a client of ours does: a course grant (a new
 * e-mail each), a clearing (the operator places an order, the shop clears it with a keyed PATCH)
 * and a storefront checkout (a keyed cart, a keyed checkout). Each ends `accepted` or not, with
 * the ids the checks look up.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DrillClient, OperationKind, Reply } from './client.ts';

export interface DrillFixtures {
  adminToken: string;
  platform: { apiKey: string; courseId: string };
  shop: { id: string; subdomain: string; key: string; productId: number };
  /** The order placed for `email`, for a placement whose reply was lost. */
  orderOf(email: string): Promise<number | null>;
}

export interface Operation {
  kind: OperationKind;
  email: string;
  /** 2xx (for a clearing repeated after an unanswered first attempt, also 422 Already Cleared). */
  accepted: boolean;
  /** The last status of the operation's last request. */
  status: number | 'network' | 'pending';
  /** 503s its requests were given. */
  unavailable: number;
  /** Whether every request that met a 503 carried an Idempotency-Key. */
  keyedThrough503: boolean;
  orderId?: number;
  cartId?: string;
  /** A clearing whose repeat was answered 422 Already Cleared. */
  clearedOnRepeat?: boolean;
}

export async function runOperation(kind: OperationKind, n: number, client: DrillClient, fx: DrillFixtures): Promise<Operation> {
  const op: Operation = { kind, email: `drill-${kind}-${n}-${randomBytes(3).toString('hex')}@drill.example.com`, accepted: false, status: 'pending', unavailable: 0, keyedThrough503: true };
  const note = (reply: Reply, keyed: boolean) => {
    op.status = reply.status;
    op.unavailable += reply.unavailable;
    if (reply.unavailable > 0 && !keyed) op.keyedThrough503 = false;
    return reply;
  };
  if (kind === 'grant') {
    const reply = note(
      await client.request({ kind, method: 'POST', path: '/api/courses/subscribe', label: '/api/courses/subscribe', headers: { 'x-api-key': fx.platform.apiKey }, body: { subscriptions: { course_id: fx.platform.courseId, email: op.email } }, repeatWhenCut: true }),
      false,
    );
    op.accepted = reply.status === 200;
  } else if (kind === 'clearing') {
    const operator = { authorization: `Bearer ${fx.adminToken}` };
    const placed = note(
      await client.request({ kind, method: 'POST', path: `/admin/v1/shops/${fx.shop.id}/orders`, label: '/admin/v1/shops/:shop_id/orders', headers: operator, body: { email: op.email, items: [{ product_id: fx.shop.productId }] }, repeatWhenCut: false }),
      false,
    );
    // The operator API takes no Idempotency-Key: a placement cut mid-request is looked up by its e-mail, never sent again.
    const orderId = placed.status === 201 || placed.status === 200 ? Number(placed.body?.data?.id) : placed.status === 'network' ? await fx.orderOf(op.email) : null;
    if (orderId === null || Number.isNaN(orderId)) return op;
    op.orderId = orderId;
    const cleared = note(
      await client.request({ kind, method: 'PATCH', path: `/api/v1/orders/${orderId}/clear`, label: '/api/v1/orders/:id/clear', headers: { 'x-api-key': fx.shop.key }, idempotencyKey: randomUUID(), repeatWhenCut: true }),
      true,
    );
    op.clearedOnRepeat = cleared.repeated && cleared.status === 422 && cleared.body?.error === 'Already Cleared';
    op.accepted = cleared.status === 200 || op.clearedOnRepeat;
  } else {
    const store = `/store/v1/${fx.shop.subdomain}`;
    const cart = note(
      await client.request({ kind, method: 'POST', path: `${store}/carts`, label: '/store/v1/:subdomain/carts', body: { items: [{ product_id: fx.shop.productId }], email: op.email }, idempotencyKey: randomUUID(), repeatWhenCut: true }),
      true,
    );
    if (cart.status !== 201) return op;
    op.cartId = String(cart.body?.data?.id);
    const checkout = note(
      await client.request({ kind, method: 'POST', path: `${store}/carts/${op.cartId}/checkout`, label: '/store/v1/:subdomain/carts/:cart_id/checkout', idempotencyKey: randomUUID(), repeatWhenCut: true }),
      true,
    );
    op.accepted = checkout.status === 201 || checkout.status === 200;
    if (op.accepted) op.orderId = Number(checkout.body?.data?.order_id);
  }
  return op;
}
