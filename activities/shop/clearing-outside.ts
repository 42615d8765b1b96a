import { ApplicationFailure } from '@temporalio/common';
import { callOutside, planOf, type OutsideCalls, type OutsideClearingEffect } from '../../domain/shop/clearing-plan.ts';
import { activityContext } from '../shared/activity-context.ts';
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
async function handedOnPart(fx: ClearingOutsideEffects, input: ClearingOutsideInput, effect: OutsideClearingEffect): Promise<OutsideClearingEffect[]> {
  const at = { shopId: input.shopId, orderId: input.orderId, source: planOf(effect).source };
  try {
    await callOutside(fx, effect, at);
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
 * only when its worker is lost or it runs out of time; run again, every call answers what it
 * recorded, and one still claimed by the lost attempt (a webhook's for 10 s, a mail's for 10
 * minutes) is handed on to wait for the claim: a mail sent or an attempt made is not made twice.
 */
export async function runClearingOutside(fx: ClearingOutsideEffects, input: ClearingOutsideInput): Promise<ClearingOutsideResult> {
  const { shopId, club } = input;
  const [retry, deliveries, clubLeft] = await Promise.all([
    Promise.all(input.handOn.map((effect) => handedOnPart(fx, input, effect))),
    Promise.all(input.deliveries.map(({ deliveryId }) => firstAttempt(deliveryId, () => fx.attemptShopWebhookDelivery({ shopId, deliveryId, recordOutcome: true })))),
    club &&
      firstAttempt(club.deliveryId, async () => {
        const attempt = await fx.attemptClubWebhookDelivery({ shopId, deliveryId: club.deliveryId });
        if (attempt.nextAttemptInMs === null) await fx.recordClubWebhookOutcome({ shopId, deliveryId: club.deliveryId });
        return attempt;
      }),
  ]);
  return { retry: retry.flat(), deliveries: deliveries.filter((d) => d !== null), club: clubLeft };
}

/** The clearing's outside activity (workflows/shop/steps/clear-in-one-step.ts), heartbeating while it runs. */
export function clearingOutsideActivities(deps: ActivityDeps) {
  const fx: ClearingOutsideEffects = { ...orderEffectActivities(deps), ...shopWebhookActivities(deps), ...clubWebhookActivities(deps) };
  return {
    async sendClearingOutside(input: ClearingOutsideInput): Promise<ClearingOutsideResult> {
      const context = activityContext();
      // The attempts heartbeat while they run; the mails and calls beside them would not.
      const heartbeat = context ? setInterval(() => context.heartbeat(), 1000) : undefined;
      try {
        return await runClearingOutside(fx, input);
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<ClearingOutsideActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ClearingOutsideActivities = ReturnType<typeof clearingOutsideActivities>;
