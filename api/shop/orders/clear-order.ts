import type { EntityManager } from '@mikro-orm/postgresql';
import { clearRefusal, markOrderCleared } from '../../../db/repositories/shop/order-transitions.ts';
import { HttpError, notFound } from '../../shared/errors.ts';
import { orderListItem } from '../../../domain/shop/order-document.ts';
import type { RecordedStart } from '../../shared/workflow-starts/index.ts';

/** Records, in the clearing's transaction, the start of the order's clearing workflow (the outbox). */
export type RecordClearing = (tx: EntityManager, order: { shopId: string; orderId: number }) => Promise<RecordedStart>;

/**
 * Clears a placed, unpaid order with a total above zero (`PATCH /orders/:id/clear`) in one
 * transaction with the start of its clearing effects (recorded, sent once committed: a crash or
 * Temporal down after the commit cannot lose it); the order's list fields and `cleared_at` as the
 * clearing's statement answers them (no read after it), and the recorded start. A paid order is
 * 422 `Already Cleared`; 404 for an unknown order.
 */
export async function clearOrder(em: EntityManager, recordClearing: RecordClearing, shopId: string, orderId: number) {
  const { cleared, recorded } = await em.transactional(async (tx) => {
    const done = await markOrderCleared(tx, shopId, orderId, new Date());
    return { cleared: done, recorded: done ? await recordClearing(tx, { shopId, orderId }) : null };
  });
  if (!cleared) {
    const refusal = await clearRefusal(em, shopId, orderId);
    if (refusal === 'missing') throw notFound('order');
    if (refusal === 'paid') throw new HttpError(422, 'Already Cleared', { error: 'Already Cleared', message: 'the order is already paid' });
    if (refusal === 'zero') throw new HttpError(422, 'Nothing to clear', { error: 'Nothing to clear', message: 'the order total is zero: no clearing is needed' });
    throw new HttpError(422, 'Not clearable', { error: 'Not clearable', message: 'only a placed order can be cleared' });
  }
  return { order: { ...orderListItem(cleared.order), cleared_at: cleared.clearedAt.toISOString() }, recorded };
}
