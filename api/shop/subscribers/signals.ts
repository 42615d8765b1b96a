import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { SubscriberSignal } from '../../../domain/shop/subscription-rules.ts';
import type { subscriberRenewal } from '../../../workflows/shop/subscriber-renewal.ts';
import {
  subscriberItemsChangedSignal,
  subscriberPausedSignal,
  subscriberPeriodMovedSignal,
  subscriberResumedSignal,
} from '../../../workflows/shop/subscription-signals.ts';
import { HttpError } from '../../shared/errors.ts';

export type SubscriberNotice = { signal: SubscriberSignal } | { signal: 'periodMoved'; activeUntil: Date };

/**
 * Tells a subscriber's renewal workflow what a committed write changed. A workflow that does not
 * run (not started yet, or finished) is no failure: the write stands and the workflow reads the
 * row when it starts. Temporal being unreachable is a 503 saying the change is saved: the client's
 * repeat of the same request sends the signals again (they are idempotent in the workflow).
 */
export async function notifySubscriberWorkflow(client: Client, log: FastifyBaseLogger, target: { shopId: string; subscriberId: number }, notices: readonly SubscriberNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const workflowId = subscriberWorkflowId(target);
  const handle = client.workflow.getHandle(workflowId);
  for (const notice of notices) {
    try {
      if (notice.signal === 'periodMoved') await handle.signal(subscriberPeriodMovedSignal, { activeUntil: notice.activeUntil.toISOString() });
      else if (notice.signal === 'paused') await handle.signal(subscriberPausedSignal);
      else if (notice.signal === 'resumed') await handle.signal(subscriberResumedSignal);
      else await handle.signal(subscriberItemsChangedSignal);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) {
        log.info({ workflowId, signal: notice.signal }, 'subscriber workflow not running: signal skipped');
        return;
      }
      log.error({ err: error, workflowId, signal: notice.signal }, 'subscriber workflow could not be signalled');
      throw new HttpError(503, 'the change is saved, but its renewal workflow could not be told: repeat the request', undefined, { 'retry-after': '5' });
    }
  }
}

/**
 * Starts the renewal workflow of a subscription made active again, with the id it always has
 * (`shop/<s>/subscriber/<id>`): a finished run's id is reused (ALLOW_DUPLICATE), and a run still
 * finishing its end (it saw the old status and only sends its last mail before it returns) is
 * terminated (TERMINATE_EXISTING), since it would never read the row again. The new run loads the
 * schedule from the row, which was committed before. False when Temporal could not be reached.
 */
export async function startSubscriberWorkflow(client: Client, taskQueue: string, log: FastifyBaseLogger, target: { shopId: string; subscriberId: number }): Promise<boolean> {
  const workflowId = subscriberWorkflowId(target);
  try {
    await client.workflow.start<typeof subscriberRenewal>('subscriberRenewal', {
      taskQueue,
      workflowId,
      args: [{ shopId: target.shopId, subscriberId: target.subscriberId }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    });
    return true;
  } catch (error) {
    log.error({ err: error, workflowId }, 'subscriber workflow could not be started');
    return false;
  }
}
