import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { EffectOutcome, EffectSource, OrderEffectName } from '../../../domain/shop/effects.ts';
import { db, localDb, localOrderEffect, orderEffect } from '../../shared/activity-proxies.ts';

export interface OrderRef {
  shopId: string;
  orderId: number;
  source: EffectSource;
}

/** How a transition runs its database-only steps: `db` for the effect log and lookups, `orderEffect` for the effects themselves. */
export interface EffectSteps {
  db: typeof db;
  orderEffect: typeof orderEffect;
}

/** Every step its own activity task: status changes, zero-total orders, and clearings begun before issue 26 item 1. */
export const activitySteps: EffectSteps = { db, orderEffect };

/**
 * The clearing's database-only steps as local activities, inside its workflow task (issue 26
 * item 1); the effects that talk to the outside (analytics, marketing tags, mail, webhook
 * deliveries) stay activities and children with their own retries.
 */
export const localSteps: EffectSteps = { db: localDb, orderEffect: localOrderEffect };

/**
 * Runs one effect activity; when its retries are spent, records the effect as `failed` with the
 * reason instead of failing the workflow, so one broken integration never blocks the others.
 */
export async function runEffect(ref: OrderRef, effect: OrderEffectName, activity: () => Promise<EffectOutcome>, steps: EffectSteps = activitySteps): Promise<EffectOutcome> {
  try {
    return await activity();
  } catch (error) {
    // A local activity's failure may come as the activity's own ApplicationFailure, or wrapped.
    const failure = error instanceof ActivityFailure ? (error.cause ?? error) : error;
    if (!(error instanceof ActivityFailure) && !(failure instanceof ApplicationFailure)) throw error;
    const outcome: EffectOutcome = { status: 'failed', detail: (failure as Error).message };
    await steps.db.recordOrderEffect({ ...ref, effect, outcome });
    return outcome;
  }
}

/** Records a hook point whose feature has nothing to do for this order (e.g. no club integration). */
export function skipEffect(ref: OrderRef, effect: OrderEffectName, detail: string, steps: EffectSteps = activitySteps): Promise<void> {
  return steps.db.recordOrderEffect({ ...ref, effect, outcome: { status: 'skipped', detail } });
}
