import { ApplicationFailure } from '@temporalio/common';
import { callOutside, planOf, type OutsideCalls, type OutsideClearingEffect } from '../../domain/shop/clearing-plan.ts';
import { activityContext, heartbeatContext } from '../shared/activity-context.ts';
import { slowTargets, type SlowTargets } from '../shared/slow-targets.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { shopWebhookActivities } from '../webhooks/shop.ts';
import type { Fns, OpenedShopDelivery } from './clearing-step.ts';
import { clubWebhookActivities } from './club-webhook.ts';
import { orderEffectActivities } from './order-effects.ts';

export interface ClearingOutsideInput {
  shopId: string;
  orderId: number;
  /** The outside parts the step handed on (something has to go out). */
  handOn: OutsideClearingEffect[];
  /** The shop webhook deliveries the step opened. */
  deliveries: OpenedShopDelivery[];
  /** The club webhook's delivery the step opened. */
  club: { deliveryId: string; statusId: number } | null;
}

/** A delivery that needs its delivery workflow; without `nextAttemptInMs` its first attempt could not be made (the workflow makes it). */
export interface DeliveryLeft {
  deliveryId: string;
  nextAttemptInMs?: number;
}

/** What the workflow still has to do after the first attempts. */
export interface ClearingOutsideResult {
  /** Handed-on parts whose call failed in a way a retry may change: each to its own retried activity. */
  retry: OutsideClearingEffect[];
  deliveries: DeliveryLeft[];
  club: DeliveryLeft | null;
}

/** The activities the outside calls are made of (or a test's fakes). */
export type ClearingOutsideEffects = OutsideCalls &
  Pick<Fns<typeof orderEffectActivities>, 'recordOrderEffect'> &
  Pick<Fns<typeof shopWebhookActivities>, 'attemptShopWebhookDelivery'> &
  Pick<Fns<typeof clubWebhookActivities>, 'attemptClubWebhookDelivery' | 'recordClubWebhookOutcome'>;

/** One attempt; null when it ended the delivery (its outcome recorded by `attempt`), without `nextAttemptInMs` when it could not be made. */
async function firstAttempt(deliveryId: string, attempt: () => Promise<{ nextAttemptInMs: number | null }>): Promise<DeliveryLeft | null> {
  try {
    const { nextAttemptInMs } = await attempt();
    return nextAttemptInMs === null ? null : { deliveryId, nextAttemptInMs };
  } catch (error) {
    activityContext()?.log.warn('a first attempt could not be made: its delivery workflow makes it', { deliveryId, error: error instanceof Error ? error.message : String(error) });
    return { deliveryId };
  }
}

/** A handed-on part's call: settled (or refused for good, recorded `failed`), else left for its retried activity. */
async function handedOnPart(fx: ClearingOutsideEffects, input: ClearingOutsideInput, effect: OutsideClearingEffect, slow: SlowTargets): Promise<OutsideClearingEffect[]> {
  const at = { shopId: input.shopId, orderId: input.orderId, source: planOf(effect).source };
  // The platform's mail relay, GA4 and the mailing tools serve every shop: one target each.
  const target = effect;
  if (slow.isSlow(target)) return [effect];
  try {
    await slow.timed(target, () => callOutside(fx, effect, at));
    return [];
  } catch (error) {
    if (!(error instanceof ApplicationFailure && error.nonRetryable)) return [effect];
    // Not recorded (the database): its own activity meets the same refusal and records it.
    const recorded = await fx.recordOrderEffect({ ...at, effect, outcome: { status: 'failed', detail: error.message } }).then(() => true, () => false);
    return recorded ? [] : [effect];
  }
}

/**
 * A clearing's calls to the outside world in one activity (issue 38 item 2; DESIGN.md section 4,
 * "Deliveries"): the first attempt of every delivery the step opened, and the handed-on parts (the
 * status mail, analytics, marketing tags), side by side. No one call fails the activity: a part
 * whose call failed in a way a retry may change, and a delivery that needs another attempt, are
 * answered for the workflow to hand on (the part's retried activity, the delivery's workflow); a
 * refusal no retry changes is recorded `failed`, as the part's own steps record it. So it fails
 * only when it runs out of time or, as an activity, its worker is lost (a local activity then runs
 * again with its workflow task on another worker); run again, every call answers what it
 * recorded, and one still claimed by the lost attempt (a webhook's for 10 s, a mail's for 10
 * minutes) is handed on to wait for the claim: a mail sent or an attempt made is not made twice.
 * A call to a target `slow` names is not made here but handed on the same way.
 */
export async function runClearingOutside(fx: ClearingOutsideEffects, input: ClearingOutsideInput, slow: SlowTargets = NONE_SLOW): Promise<ClearingOutsideResult> {
  const { shopId, club } = input;
  /** A delivery's first attempt, or, when its target is slow, left for its workflow to make. */
  const attempt = (target: string, deliveryId: string, call: () => Promise<{ nextAttemptInMs: number | null }>): Promise<DeliveryLeft | null> =>
    slow.isSlow(target) ? Promise.resolve({ deliveryId }) : firstAttempt(deliveryId, () => slow.timed(target, call));
  const [retry, deliveries, clubLeft] = await Promise.all([
    Promise.all(input.handOn.map((effect) => handedOnPart(fx, input, effect, slow))),
    Promise.all(input.deliveries.map(({ webhookId, deliveryId }) => attempt(`${shopId}/webhook/${webhookId}`, deliveryId, () => fx.attemptShopWebhookDelivery({ shopId, deliveryId, recordOutcome: true })))),
    club &&
      attempt(`${shopId}/club_webhook`, club.deliveryId, async () => {
        const made = await fx.attemptClubWebhookDelivery({ shopId, deliveryId: club.deliveryId });
        if (made.nextAttemptInMs === null) await fx.recordClubWebhookOutcome({ shopId, deliveryId: club.deliveryId });
        return made;
      }),
  ]);
  return { retry: retry.flat(), deliveries: deliveries.filter((d) => d !== null), club: clubLeft };
}

/** No target is slow: every call is made (the activity's own slots hold them, however long). */
const NONE_SLOW: SlowTargets = { isSlow: () => false, timed: (_target, call) => call() };

/**
 * The clearing's outside calls (workflows/shop/steps/clear-in-one-step.ts): as a local activity,
 * the calls to targets this worker saw slow are left to their own activity or delivery workflow;
 * as an activity (runs begun before `clearing-outside-local`), it heartbeats while it runs.
 */
export function clearingOutsideActivities(deps: ActivityDeps) {
  const fx: ClearingOutsideEffects = { ...orderEffectActivities(deps), ...shopWebhookActivities(deps), ...clubWebhookActivities(deps) };
  const slow = slowTargets();
  return {
    async sendClearingOutside(input: ClearingOutsideInput): Promise<ClearingOutsideResult> {
      const local = activityContext()?.info.isLocal ?? false;
      const context = heartbeatContext();
      // The attempts heartbeat while they run; the mails and calls beside them would not.
      const heartbeat = context ? setInterval(() => context.heartbeat(), 1000) : undefined;
      try {
        return await runClearingOutside(fx, input, local ? slow : NONE_SLOW);
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<ClearingOutsideActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ClearingOutsideActivities = ReturnType<typeof clearingOutsideActivities>;
