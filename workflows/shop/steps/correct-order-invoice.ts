import { skipped } from '../../../domain/shop/effects.ts';
import { runEffect, type OrderRef } from './run-effect.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { ORDER_EFFECT } from '../../shared/activity-profiles.ts';

const orderEffects = activitiesOf<OrderEffectActivities>(ORDER_EFFECT);

/**
 * A status change's `invoice` effect (DESIGN.md section 10): at a canceled or returned status the
 * order's invoice gets its correction, once; at any other status the activity records nothing.
 */
export async function correctOrderInvoice(ref: OrderRef, statusId: number): Promise<void> {
  await runEffect(ref, 'invoice', async () => (await orderEffects.correctOrderInvoice({ ...ref, statusId })) ?? skipped('the order is not canceled or returned'));
}
