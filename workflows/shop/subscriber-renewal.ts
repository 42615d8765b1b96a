import { ActivityFailure, condition, continueAsNew, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import type { RenewalFacts, SubscriberRenewalActivities } from '../../activities/shop/subscriber-renewal.ts';
import type { SubscriberMailKind } from '../../domain/shop/subscription-mails.ts';
import { nextChargeAt, nextRenewalStep, type ReminderKind } from '../../domain/shop/subscription-periods.ts';
import { clearOrderWorkflowId, orderPlacedWorkflowId } from '../../domain/shop/workflow-ids.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { RENEWAL_STEP, SUBSCRIBER_MAIL } from '../shared/activity-profiles.ts';
import { startChildOnce } from '../shared/start-child-once.ts';
import type { SubscriberRenewalInput } from './contracts.ts';
import {
  subscriberItemsChangedSignal,
  subscriberPausedSignal,
  subscriberPeriodMovedSignal,
  subscriberResumedSignal,
  subscriberStateQuery,
  type SubscriberRenewalState,
} from './subscription-signals.ts';

const renewals = activitiesOf<SubscriberRenewalActivities>(RENEWAL_STEP);
const renewalMails = activitiesOf<SubscriberRenewalActivities>(SUBSCRIBER_MAIL);

export type { SubscriberRenewalInput };

export type SubscriberRenewalResult = 'expired' | 'ended';

const isoOrNull = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * One subscriber's renewals (DESIGN.md section 7; id `shop/<s>/subscriber/<id>`): a run per
 * period, continued-as-new after each renewal so the history stays small. The database is the
 * truth: the run loads the schedule (period, pause, limit, reminders, dunning, failed attempts)
 * through an activity and loads it again after every signal (the API writes before it signals),
 * so a moved period moves every pending reminder, charge and retry with it.
 *
 * Steps come from `nextRenewalStep`: reminders before the end, the charge at the end, dunning
 * retries after a decline (a notice on the first), expiry when the retries are spent, the end
 * when the renewal limit is reached. A renewal order's clearing runs as a child of its own. A paused subscriber is neither reminded nor charged.
 * A shop without a gateway is never charged: the renewal order is placed unpaid (its placing's
 * effects a child), and the period starts when the owner clears it.
 */
export async function subscriberRenewal(input: SubscriberRenewalInput): Promise<SubscriberRenewalResult> {
  const { shopId, subscriberId } = input;
  let facts: RenewalFacts = await renewals.loadRenewalSchedule({ shopId, subscriberId });
  let changed = false;
  const handled = new Set<ReminderKind>();

  const wake = () => {
    changed = true;
  };
  setHandler(subscriberPausedSignal, () => {
    facts = { ...facts, paused: true };
    wake();
  });
  setHandler(subscriberResumedSignal, () => {
    facts = { ...facts, paused: false };
    wake();
  });
  setHandler(subscriberPeriodMovedSignal, wake);
  setHandler(subscriberItemsChangedSignal, wake);
  setHandler(subscriberStateQuery, (): SubscriberRenewalState => ({
    paused: facts.paused,
    periodEnd: new Date(facts.period.end).toISOString(),
    nextChargeAt: facts.status === 'active' ? isoOrNull(nextChargeAt(facts)) : null,
    renewalsDone: facts.renewalsDone,
    failedAttempts: facts.failedAttempts,
    status: facts.status !== 'active' ? (facts.status === 'expired' ? 'expired' : 'finished') : facts.paused ? 'paused' : facts.failedAttempts > 0 ? 'dunning' : 'active',
  }));

  const mail = async (kind: SubscriberMailKind, periodId = facts.periodId) => {
    try {
      await renewalMails.sendSubscriberMail({ shopId, subscriberId, periodId, kind });
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
    }
  };

  if (input.activated && facts.status === 'active') await mail('activation');

  for (;;) {
    if (facts.status !== 'active') return facts.status;
    const next = nextRenewalStep(facts, handled, Date.now());
    const delay = next.kind === 'wait' ? undefined : next.at - Date.now();
    if (delay === undefined) await condition(() => changed);
    else if (delay > 0) await condition(() => changed, delay);
    // Many signals in one long period: a fresh run, which loads the schedule again.
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof subscriberRenewal>({ shopId, subscriberId });
    if (changed) {
      changed = false;
      facts = await renewals.loadRenewalSchedule({ shopId, subscriberId });
      continue;
    }
    switch (next.kind) {
      case 'reminder':
        await mail(next.reminder);
        handled.add(next.reminder);
        next.skip.forEach((kind) => handled.add(kind));
        break;
      case 'charge': {
        const charge = await renewals.chargeRenewal({ shopId, subscriberId, periodId: facts.periodId, periodEnd: facts.period.end, attempt: next.attempt });
        if (charge.status === 'approved') {
          const renewed = await renewals.renewSubscriber({ shopId, subscriberId, chargeId: charge.chargeId });
          // The renewal order is a paid order like a cleared one: its clearing effects run once
          // (invoice, webhooks, download codes, ...; its `subscription` effect skips it).
          await startChildOnce('clearOrder', {
            workflowId: clearOrderWorkflowId({ shopId, orderId: renewed.orderId }),
            args: [{ shopId, orderId: renewed.orderId }],
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
          });
          await mail('renewal', renewed.periodId);
          await continueAsNew<typeof subscriberRenewal>({ shopId, subscriberId });
        }
        // No gateway: the renewal order awaits payment at New; placing's effects (its confirmation)
        // run once; clearing it renews (the clearing signals this run), the dunning days end it.
        if (charge.status === 'unpaid' && patched('renewal-unpaid-order')) {
          await startChildOnce('orderPlaced', {
            workflowId: orderPlacedWorkflowId({ shopId, orderId: charge.orderId }),
            args: [{ shopId, orderId: charge.orderId }],
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
          });
        }
        if (charge.status === 'declined' && next.attempt === 1) await mail('payment_failed');
        // Declined (the failed attempt is counted in the database) or not charged (paused or
        // ended meanwhile): the schedule is read again.
        facts = await renewals.loadRenewalSchedule({ shopId, subscriberId });
        break;
      }
      case 'expire':
        facts = await renewals.endSubscriber({ shopId, subscriberId, status: 'expired' });
        await mail('expired');
        break;
      case 'finish':
        facts = await renewals.endSubscriber({ shopId, subscriberId, status: 'ended' });
        break;
    }
  }
}
