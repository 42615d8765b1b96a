import { ActivityFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import type { MailSequenceRun } from '../../activities/shop/mail-sequences.ts';
import { done, skipped, type EffectOutcome } from '../../domain/shop/effects.ts';
import type { SequenceTrigger } from '../../domain/shop/mail-sequence-rules.ts';
import { mailSequenceWorkflowId } from '../../domain/shop/workflow-ids.ts';
import { db, orderEffect } from '../shared/activity-proxies.ts';
import { startChildOnce } from '../shared/start-child-once.ts';
import { runEffect, type OrderRef } from './order-effects.ts';

export interface MailSequenceResult {
  sent: number;
  /** True when the sequence was turned off or lost the trigger before its last message. */
  stopped: boolean;
  /** The messages whose send gave up after every retry (the mail log holds a `failed` row under each one's key). */
  failedItemIds: number[];
}

/**
 * One message of a run, as the mail profile retries a delivery: a relay or provider down for hours
 * is waited out (back-off to 10 minutes, 30 attempts, about four hours) instead of the 20 minutes
 * of an order effect. The start-to-close timeout is far above the transport's own (15 s per SMTP
 * phase); a retry that meets an attempt still sending waits for it (activities/shop/shop-mail-send.ts).
 */
const sequenceMail = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 30, nonRetryableErrorTypes: ['MailDeliveryRefused'] },
});

/**
 * One recipient's run of one mail sequence (`shop/<s>/sequence/<id>/<email>`): each message at
 * its instant, which the plan activity computes from the trigger time (so a test passes instants
 * milliseconds apart). Before every message the send activity re-checks the sequence: turned off
 * or without the trigger that started the run, the rest is not sent. A message whose send gave up
 * after its retries is listed in `failedItemIds` (and logged `failed` in the shop's mail log) and
 * the run goes on with the next.
 */
export async function mailSequence(run: MailSequenceRun): Promise<MailSequenceResult> {
  const plan = await db.planMailSequence(run);
  let sent = 0;
  const failedItemIds: number[] = [];
  for (const message of plan) {
    const wait = Date.parse(message.sendAt) - Date.now();
    if (wait > 0) await sleep(wait);
    try {
      const outcome = await sequenceMail.sendMailSequenceItem({ ...run, itemId: message.itemId });
      if (outcome === 'stopped') return { sent, stopped: true, failedItemIds };
      if (outcome === 'sent') sent += 1;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      failedItemIds.push(message.itemId);
    }
  }
  return { sent, stopped: false, failedItemIds };
}

/**
 * Starts one run per sequence for the recipient, as children that outlive the caller. The id
 * carries sequence and address and is never reused (REJECT_DUPLICATE), so the same trigger twice,
 * or two triggers of one sequence, never send a sequence twice to one address.
 */
export async function startMailSequences(shopId: string, email: string, sequenceIds: readonly number[], trigger: SequenceTrigger): Promise<void> {
  const triggeredAt = new Date().toISOString();
  const recipient = email.trim().toLowerCase();
  await Promise.all(
    sequenceIds.map((sequenceId) => {
      const run: MailSequenceRun = { shopId, sequenceId, email: recipient, trigger, triggeredAt };
      return startChildOnce(mailSequence, { workflowId: mailSequenceWorkflowId(run), args: [run], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
    }),
  );
}

/**
 * The `mail_sequence` effect of an order reaching `statusId` (a status change; null: the shop's
 * Paid status, reached by clearing): the runs of the sequences the order starts, recorded in the
 * effect log.
 */
export async function startOrderMailSequences(ref: OrderRef, reached: number | null): Promise<void> {
  await runEffect(ref, 'mail_sequence', async () => {
    const { email, statusId, sequenceIds } = await orderEffect.orderMailSequences({ shopId: ref.shopId, orderId: ref.orderId, statusId: reached });
    let outcome: EffectOutcome;
    if (sequenceIds.length === 0) {
      outcome = skipped('no mail sequence starts at this status for this order');
    } else {
      await startMailSequences(ref.shopId, email, sequenceIds, { kind: 'order_status', statusId, orderId: ref.orderId });
      outcome = done(`sequences ${sequenceIds.join(', ')} started for ${email.trim().toLowerCase()}`);
    }
    await db.recordOrderEffect({ ...ref, effect: 'mail_sequence', outcome });
    return outcome;
  });
}

/**
 * After a clearing created subscribers: a customer's first entry into a subscription plan starts
 * the sequences with `first_subscription_entry` on that plan (a later entry starts nothing: the
 * activity keeps only first entries, and a run is once per sequence and address anyway).
 */
export async function startSubscriptionMailSequences(shopId: string, subscriberIds: number[]): Promise<void> {
  if (subscriberIds.length === 0) return;
  const entries = await db.subscriptionEntryMailSequences({ shopId, subscriberIds });
  for (const { email, subscriptionPlanId, sequenceIds } of entries) {
    await startMailSequences(shopId, email, sequenceIds, { kind: 'subscription_entry', subscriptionPlanId });
  }
}
