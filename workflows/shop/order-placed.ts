import type { OrderPlacedInput } from './contracts.ts';
import { fulfilZeroTotalOrder } from './steps/fulfil-zero-total.ts';
import { scheduleAutomaticStatuses } from './steps/schedule-automatic-statuses.ts';

/**
 * A placed order (at New): the statuses set automatically after New, and a zero-total order's
 * fulfilment (workflows/shop/steps/fulfil-zero-total.ts). Started by the placement; its timers and
 * access orders are children. Id `shop/<s>/order/<o>/placed`.
 */
export async function orderPlaced(p: OrderPlacedInput): Promise<void> {
  await Promise.all([scheduleAutomaticStatuses({ ...p, source: 'placed' }), fulfilZeroTotalOrder({ ...p, source: 'placed' })]);
}
