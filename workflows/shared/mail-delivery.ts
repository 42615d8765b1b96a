import type { DeliverMailInput, DeliveryOutcome } from '../../activities/mail/delivery.ts';
import { mailDeliveryWorkflowId } from '../../domain/shared/workflow-ids.ts';
import { mail } from './activity-proxies.ts';
import { startChildOnce } from './start-child-once.ts';

/** Delivers one recorded mail through the platform's transport (retries: the `mail` profile). */
export async function mailDelivery(input: DeliverMailInput): Promise<DeliveryOutcome> {
  return mail.deliverMail(input);
}

/**
 * Hands a recorded mail to its delivery workflow and goes on: the caller (a grant, a course mail)
 * never waits on a provider. The id is per mail, so a repeated hand-over (a retried activity, a
 * concurrent grant) joins the running delivery; a delivery that failed for good may be started again.
 */
export async function deliverInBackground(platformId: string, mailId: string | null | undefined): Promise<void> {
  if (!mailId) return;
  await startChildOnce(mailDelivery, {
    workflowId: mailDeliveryWorkflowId({ platformId, mailId }),
    args: [{ platformId, mailId }],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  });
}
