import type { EntityManager } from '@mikro-orm/postgresql';
import { clearRefusal, markOrderCleared } from '../../../db/repositories/shop/order-transitions.ts';
import { findOrderDetail } from '../../../db/repositories/shop/orders.ts';
import { HttpError, notFound } from '../../shared/errors.ts';
import { orderListItem } from '../../../domain/shop/order-document.ts';

/** Starts (or joins: a no-op when it ran) the clearing workflow of the order. */
export type StartClearing = (order: { shopId: string; orderId: number }) => Promise<unknown>;

/**
 * Clears a placed, unpaid order with a total above zero (`PATCH /orders/:id/clear`) and starts its
 * clearing effects; the order's list fields and `cleared_at` (the reply picks its fields from them).
 * A paid order is 422 `Already Cleared`, after joining its clearing workflow, so effects lost to a
 * crash after the clearing committed are started by the retry; 404 for an unknown order.
 */
export async function clearOrder(em: EntityManager, startClearing: StartClearing, shopId: string, orderId: number) {
  const cleared = await markOrderCleared(em, shopId, orderId, new Date());
  if (!cleared) {
    const refusal = await clearRefusal(em, shopId, orderId);
    if (refusal === 'missing') throw notFound('order');
    if (refusal === 'paid') {
      await startClearing({ shopId, orderId });
      throw new HttpError(422, 'Already Cleared', { error: 'Already Cleared', message: 'the order is already paid' });
    }
    if (refusal === 'zero') throw new HttpError(422, 'Nothing to clear', { error: 'Nothing to clear', message: 'the order total is zero: no clearing is needed' });
    throw new HttpError(422, 'Not clearable', { error: 'Not clearable', message: 'only a placed order can be cleared' });
  }
  await startClearing({ shopId, orderId });
  const found = await findOrderDetail(em, orderId);
  return { ...orderListItem(found!.order), cleared_at: new Date(cleared.cleared_at).toISOString() };
}
