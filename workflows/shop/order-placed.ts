import { patched } from '@temporalio/workflow';
import type { OrderPlacedInput } from './contracts.ts';
import { fulfilZeroTotalOrder, zeroTotalFulfilment } from './steps/fulfil-zero-total.ts';
import type { OrderRef } from './steps/run-effect.ts';
import { scheduleAutomaticStatuses } from './steps/schedule-automatic-statuses.ts';
import { statusEffects } from './steps/status-effects.ts';
import type { OrderEffectActivities } from '../../activities/shop/order-effects.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { ORDER_EFFECT } from '../shared/activity-profiles.ts';

const orderEffects = activitiesOf<OrderEffectActivities>(ORDER_EFFECT);

/**
 * A placed order (at New): a zero-total order's fulfilment first (workflows/shop/steps/fulfil-zero-total.ts),
 * so the confirmation carries its download links; then the New status's own effects, the order
 * confirmation (steps/status-effects.ts, webhooks of `order_placed`; DESIGN.md section 10), beside
 * the statuses set automatically after New. Started by every placement; its timers and access
 * orders are children. Id `shop/<s>/order/<o>/placed`. Runs begun before the confirmation
 * existed (no `order-placed-status-effects` marker) only fulfil and schedule.
 */
export async function orderPlaced(p: OrderPlacedInput): Promise<void> {
  const ref: OrderRef = { ...p, source: 'placed' };
  if (!patched('order-placed-status-effects')) {
    await Promise.all([scheduleAutomaticStatuses({ ...p, source: 'placed' }), fulfilZeroTotalOrder(ref)]);
    return;
  }
  const { newStatusId, needsNoClearing } = await orderEffects.placingFacts(ref);
  if (needsNoClearing) await zeroTotalFulfilment(ref);
  await Promise.all([...statusEffects(ref, newStatusId, 'order_placed'), scheduleAutomaticStatuses({ ...p, source: 'placed' })]);
}
