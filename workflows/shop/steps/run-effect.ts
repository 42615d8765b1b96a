import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { isHandOn, type EffectOutcome, type EffectSource, type HandOn, type OrderEffectName } from '../../../domain/shop/effects.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { activitiesOf, type ActivitiesOf } from '../../shared/activities-of.ts';
import { DB_STEP, LOCAL_DB_STEP, LOCAL_ORDER_EFFECT, ORDER_EFFECT, type ActivityProfile } from '../../shared/activity-profiles.ts';

export interface OrderRef {
  shopId: string;
  orderId: number;
  source: EffectSource;
}

/**
 * How a transition runs its database-only steps: the profile `dbStep` for the effect log and
 * lookups, `orderEffect` for the effects themselves; a step names its group
 * (`activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect(...)`).
 */
export interface EffectSteps {
  dbStep: ActivityProfile;
  orderEffect: ActivityProfile;
}

/** The order effects an outside effect calls (`outsideEffect`), by the profile it is asked under. */
export type OrderEffects = ActivitiesOf<OrderEffectActivities>;

/** Every step its own activity task: status changes and zero-total orders. */
export const activitySteps: EffectSteps = { dbStep: DB_STEP, orderEffect: ORDER_EFFECT };

/**
 * The clearing's database-only steps as local activities, inside its workflow task (issue 26
 * item 1): the parts its one step left; the effects that talk to the outside (analytics,
 * marketing tags, mail, webhook deliveries) stay activities and children with their own retries.
 */
export const localSteps: EffectSteps = { dbStep: LOCAL_DB_STEP, orderEffect: LOCAL_ORDER_EFFECT };

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
    await activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect, outcome });
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
  call: (proxy: OrderEffects, localFirst: { localFirst?: true }) => Promise<EffectOutcome | HandOn>,
  steps: EffectSteps = activitySteps,
): Promise<EffectOutcome> {
  if (steps !== activitySteps) {
    const first = await runEffect(ref, effect, () => call(activitiesOf<OrderEffectActivities>(steps.orderEffect), { localFirst: true }), steps);
    if (!isHandOn(first)) return first;
  }
  return handedOnEffect(ref, effect, call, steps);
}

/** An outside effect that has to go out (its local step handed it on): its retried activity. */
export async function handedOnEffect(
  ref: OrderRef,
  effect: OrderEffectName,
  call: (proxy: OrderEffects, localFirst: { localFirst?: true }) => Promise<EffectOutcome | HandOn>,
  steps: EffectSteps,
): Promise<EffectOutcome> {
  const outcome = await runEffect(ref, effect, () => call(activitiesOf<OrderEffectActivities>(ORDER_EFFECT), {}), steps);
  // Unreachable: an activity asked without `localFirst` never hands on.
  return isHandOn(outcome) ? { status: 'failed', detail: `${effect} handed on by its own activity` } : outcome;
}

/** Records a hook point whose feature has nothing to do for this order (e.g. no club integration). */
export function skipEffect(ref: OrderRef, effect: OrderEffectName, detail: string, steps: EffectSteps = activitySteps): Promise<void> {
  return activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect, outcome: { status: 'skipped', detail } });
}
