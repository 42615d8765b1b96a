import type { RecordedRecipient, SubscriptionEntrySequences } from '../../../activities/shop/mail-sequences.ts';
import type { SequenceTrigger } from '../../../domain/shop/mail-sequence-rules.ts';
import { orderSequencesStarted } from '../../../domain/shop/effect-outcomes.ts';
import { mailSequenceWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';
import type { MailSequenceRun } from '../contracts.ts';
import { activitySteps, runEffect, type EffectSteps, type OrderRef } from './run-effect.ts';
import type { MailSequenceActivities } from '../../../activities/shop/mail-sequences.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { activitiesOf } from '../../shared/activities-of.ts';

/**
 * Starts one run per sequence for the recipient, as children that outlive the caller. The id
 * carries sequence and the address's keyed hash and is never reused (REJECT_DUPLICATE), so the
 * same trigger twice, or two triggers of one sequence, never send a sequence twice to one address.
 * An activity result recorded before issue 41 item 3 names the address itself: its runs are
 * started as they were then (address in id and input), so the history replays.
 */
export async function startMailSequences(shopId: string, named: RecordedRecipient, sequenceIds: readonly number[], trigger: SequenceTrigger): Promise<void> {
  const triggeredAt = new Date().toISOString();
  const { recipient } = named;
  const email = named.email?.trim().toLowerCase();
  const key = recipient?.hash ?? email;
  if (key === undefined) throw new Error('a mail sequence recipient without hash or address');
  await Promise.all(
    sequenceIds.map((sequenceId) => {
      const run: MailSequenceRun = recipient ? { shopId, sequenceId, recipient, trigger, triggeredAt } : { shopId, sequenceId, email, trigger, triggeredAt };
      return startChildOnce('mailSequence', { workflowId: mailSequenceWorkflowId({ shopId, sequenceId, recipient: key }), args: [run], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
    }),
  );
}

/**
 * The `mail_sequence` effect of an order reaching `statusId` (a status change; null: the shop's
 * Paid status, reached by clearing): the runs of the sequences the order starts, recorded in the
 * effect log.
 */
export async function startOrderMailSequences(ref: OrderRef, reached: number | null, steps: EffectSteps = activitySteps): Promise<void> {
  await runEffect(ref, 'mail_sequence', async () => {
    const found = await activitiesOf<MailSequenceActivities>(steps.orderEffect).orderMailSequences({ shopId: ref.shopId, orderId: ref.orderId, statusId: reached });
    const { statusId, sequenceIds } = found;
    if (sequenceIds.length > 0) await startMailSequences(ref.shopId, found, sequenceIds, { kind: 'order_status', statusId, orderId: ref.orderId });
    const outcome = orderSequencesStarted(sequenceIds);
    await activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'mail_sequence', outcome });
    return outcome;
  }, steps);
}

/**
 * After a clearing created subscribers: a customer's first entry into a subscription plan starts
 * the sequences with `first_subscription_entry` on that plan (a later entry starts nothing: the
 * activity keeps only first entries, and a run is once per sequence and address anyway).
 */
export async function startSubscriptionMailSequences(shopId: string, subscriberIds: number[], steps: EffectSteps = activitySteps): Promise<void> {
  if (subscriberIds.length === 0) return;
  await startEntryMailSequences(shopId, await activitiesOf<MailSequenceActivities>(steps.dbStep).subscriptionEntryMailSequences({ shopId, subscriberIds }));
}

/** The sequences of first entries into subscription plans (activities' `subscriptionEntryMailSequences`). */
export async function startEntryMailSequences(shopId: string, entries: readonly SubscriptionEntrySequences[]): Promise<void> {
  for (const entry of entries) {
    await startMailSequences(shopId, entry, entry.sequenceIds, { kind: 'subscription_entry', subscriptionPlanId: entry.subscriptionPlanId });
  }
}
