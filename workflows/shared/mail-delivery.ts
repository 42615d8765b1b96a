import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { DeliverMailInput, DeliveryOutcome } from '../../activities/mail/delivery.ts';
import type { Activities } from '../../activities/index.ts';
import { MAIL_DELIVERY_ATTEMPT_TIMEOUT_MS } from '../../domain/shared/mail-delivery.ts';
import { mailDeliveryWorkflowId } from '../../domain/shared/workflow-ids.ts';

/**
 * The network step of mail: a provider or SMTP relay may be down for a while, so attempts back off
 * to 10 minutes and give up after 30 (about four hours); each failed attempt is visible in the
 * mail log (`failed`, attempts, last error). A refusal no retry can fix (`MailDeliveryRefused`)
 * stops at once.
 */
const mail = proxyActivities<Activities>({
  startToCloseTimeout: MAIL_DELIVERY_ATTEMPT_TIMEOUT_MS,
  // The attempt heartbeats while it runs: one lost with a killed worker is retried within seconds.
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    maximumAttempts: 30,
    nonRetryableErrorTypes: ['MailDeliveryRefused', 'MailNotFound'],
  },
});

/** Delivers one recorded mail through the platform's transport. */
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
  try {
    await startChild(mailDelivery, {
      workflowId: mailDeliveryWorkflowId({ platformId, mailId }),
      args: [{ platformId, mailId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
