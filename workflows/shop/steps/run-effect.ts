import { ActivityFailure } from '@temporalio/workflow';
import type { EffectOutcome, EffectSource, OrderEffectName } from '../../../domain/shop/effects.ts';
import { db } from '../../shared/activity-proxies.ts';

export interface OrderRef {
  shopId: string;
  orderId: number;
  source: EffectSource;
}

/**
 * Runs one effect activity; when its retries are spent, records the effect as `failed` with the
 * reason instead of failing the workflow, so one broken integration never blocks the others.
 */
export async function runEffect(ref: OrderRef, effect: OrderEffectName, activity: () => Promise<EffectOutcome>): Promise<EffectOutcome> {
  try {
    return await activity();
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const outcome: EffectOutcome = { status: 'failed', detail: error.cause?.message ?? error.message };
    await db.recordOrderEffect({ ...ref, effect, outcome });
    return outcome;
  }
}

/** Records a hook point whose feature has nothing to do for this order (e.g. no club integration). */
export function skipEffect(ref: OrderRef, effect: OrderEffectName, detail: string): Promise<void> {
  return db.recordOrderEffect({ ...ref, effect, outcome: { status: 'skipped', detail } });
}
