import { ActivityFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import type { MailSequenceRun } from './contracts.ts';
import { db } from '../shared/activity-proxies.ts';

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
 * One recipient's run of one mail sequence (`shop/<s>/sequence/<id>/<recipient's keyed hash>`; the address is read by the send from the row the input names): each message at
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
