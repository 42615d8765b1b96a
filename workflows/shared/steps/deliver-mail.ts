import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { mailDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { startChildOnce } from '../start-child-once.ts';
import type { MailDeliveryActivities } from '../../../activities/mail/delivery.ts';
import { activitiesOf } from '../activities-of.ts';
import { LOCAL_MAIL_ATTEMPT } from '../activity-profiles.ts';

const mailDeliveries = activitiesOf<MailDeliveryActivities>(LOCAL_MAIL_ATTEMPT);

/**
 * Hands a recorded mail to its delivery workflow (`mailDelivery`, started by name) and goes on: the
 * caller (a grant, a course mail) never waits on a provider. The id is per mail, so a repeated
 * hand-over (a retried activity, a concurrent grant) joins the running delivery; a delivery that
 * failed for good may be started again.
 */
export async function deliverInBackground(platformId: string, mailId: string | null | undefined): Promise<void> {
  if (!mailId) return;
  await startChildOnce('mailDelivery', {
    workflowId: mailDeliveryWorkflowId({ platformId, mailId }),
    args: [{ platformId, mailId }],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  });
}

/**
 * A grant's mail as grants handed it on before their step made the first attempt itself (issue 26;
 * workflows/access/steps/hand-on.ts): kept for the histories whose step result says nothing of
 * that attempt. One attempt at once, inside the grant's workflow task (issue 17: no delivery
 * workflow, activity task or second workflow task for the mail that almost always goes out at
 * the first try); when that attempt fails or times out, the delivery workflow takes over with its
 * retries (the attempt's claim on the mail keeps the two from sending it twice). A failure no retry
 * can fix (`MailDeliveryRefused`, recorded by the attempt; `MailNotFound`) is not handed on.
 */
export async function deliverNowOrInBackground(platformId: string, mailId: string | null | undefined): Promise<void> {
  if (!mailId) return;
  try {
    await mailDeliveries.deliverMail({ platformId, mailId });
  } catch (error) {
    // A local activity's failure may come as the activity's own ApplicationFailure, or wrapped.
    const failure = error instanceof ActivityFailure ? error.cause : error;
    if (failure instanceof ApplicationFailure && failure.nonRetryable) return;
    await deliverInBackground(platformId, mailId);
  }
}
