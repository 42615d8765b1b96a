import { ActivityFailure, sleep } from '@temporalio/workflow';
import type { MailSequenceActivities } from '../../activities/shop/mail-sequences.ts';
import type { MailSequenceRun } from './contracts.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP, SEQUENCE_MAIL } from '../shared/activity-profiles.ts';

export interface MailSequenceResult {
  sent: number;
  /** True when the sequence was turned off or lost the trigger before its last message. */
  stopped: boolean;
  /** The messages whose send gave up after every retry (the mail log holds a `failed` row under each one's key). */
  failedItemIds: number[];
}

const mailSequences = activitiesOf<MailSequenceActivities>(DB_STEP);
const mailSequenceSends = activitiesOf<MailSequenceActivities>(SEQUENCE_MAIL);

/**
 * One recipient's run of one mail sequence (`shop/<s>/sequence/<id>/<recipient's keyed hash>`; the address is read by the send from the row the input names): each message at
 * its instant, which the plan activity computes from the trigger time (so a test passes instants
 * milliseconds apart). Before every message the send activity re-checks the sequence: turned off
 * or without the trigger that started the run, the rest is not sent. A message whose send gave up
 * after its retries is listed in `failedItemIds` (and logged `failed` in the shop's mail log) and
 * the run goes on with the next.
 */
export async function mailSequence(run: MailSequenceRun): Promise<MailSequenceResult> {
  const plan = await mailSequences.planMailSequence(run);
  let sent = 0;
  const failedItemIds: number[] = [];
  for (const message of plan) {
    const wait = Date.parse(message.sendAt) - Date.now();
    if (wait > 0) await sleep(wait);
    try {
      const outcome = await mailSequenceSends.sendMailSequenceItem({ ...run, itemId: message.itemId });
      if (outcome === 'stopped') return { sent, stopped: true, failedItemIds };
      if (outcome === 'sent') sent += 1;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      failedItemIds.push(message.itemId);
    }
  }
  return { sent, stopped: false, failedItemIds };
}
