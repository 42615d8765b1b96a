import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { isHandOn, type EffectOutcome, type EffectSource, type HandOn, type OrderEffectName } from '../../../domain/shop/effects.ts';
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
export async function runEffect<T extends EffectOutcome | HandOn = EffectOutcome>(ref: OrderRef, effect: OrderEffectName, activity: () => Promise<T>, steps: EffectSteps = activitySteps): Promise<T | EffectOutcome> {
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

/**
 * An effect that may talk to the outside (analytics, marketing tags, a status mail). With local
 * steps it is asked in a local step first (`localFirst`): what needs no call (nothing configured)
 * is decided and recorded there; only an effect that has to go out is handed to its retried
 * activity. With activity steps, the activity at once, as before.
 */
export async function outsideEffect(
  ref: OrderRef,
  effect: OrderEffectName,
  call: (proxy: typeof orderEffect, localFirst: { localFirst?: true }) => Promise<EffectOutcome | HandOn>,
  steps: EffectSteps = activitySteps,
): Promise<EffectOutcome> {
  if (steps !== activitySteps) {
    const first = await runEffect(ref, effect, () => call(steps.orderEffect, { localFirst: true }), steps);
    if (!isHandOn(first)) return first;
  }
  return handedOnEffect(ref, effect, call, steps);
}

/** An outside effect that has to go out (its local step handed it on): its retried activity. */
export async function handedOnEffect(
  ref: OrderRef,
  effect: OrderEffectName,
  call: (proxy: typeof orderEffect, localFirst: { localFirst?: true }) => Promise<EffectOutcome | HandOn>,
  steps: EffectSteps,
): Promise<EffectOutcome> {
  const outcome = await runEffect(ref, effect, () => call(orderEffect, {}), steps);
  // Unreachable: an activity asked without `localFirst` never hands on.
  return isHandOn(outcome) ? { status: 'failed', detail: `${effect} handed on by its own activity` } : outcome;
}

/** Records a hook point whose feature has nothing to do for this order (e.g. no club integration). */
export function skipEffect(ref: OrderRef, effect: OrderEffectName, detail: string, steps: EffectSteps = activitySteps): Promise<void> {
  return steps.db.recordOrderEffect({ ...ref, effect, outcome: { status: 'skipped', detail } });
}
