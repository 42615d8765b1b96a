import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { undoReactivation } from '../../../db/repositories/shop/subscribers.ts';
import type { SubscriberSignal, SubscriberStatus } from '../../../domain/shop/subscription-rules.ts';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type * as workflows from '../../../workflows/index.ts';
import {
  subscriberItemsChangedSignal,
  subscriberPausedSignal,
  subscriberPeriodMovedSignal,
  subscriberResumedSignal,
  subscriberStateQuery,
  type SubscriberRenewalState,
} from '../../../workflows/shop/subscription-signals.ts';
import { HttpError } from '../errors.ts';

export type SubscriberNotice = { signal: SubscriberSignal } | { signal: 'periodMoved'; activeUntil: Date };
export interface SubscriberTarget {
  shopId: string;
  subscriberId: number;
}

/**
 * The shop's subscriber renewal workflows as the api talks to them (`app.workflows.shop`): signals
 * after a committed write, the start of a reactivated subscription, the state query.
 */
export function subscriberWorkflows(client: Client, taskQueue: string) {
  /**
   * Tells a subscriber's renewal workflow what a committed write changed. A workflow that does not
   * run (not started yet, or finished) is no failure: the write stands and the workflow reads the
   * row when it starts. Temporal being unreachable is a 503 saying the change is saved: the client's
   * repeat of the same request sends the signals again (they are idempotent in the workflow).
   */
  async function notifySubscriber(log: FastifyBaseLogger, target: SubscriberTarget, notices: readonly SubscriberNotice[]): Promise<void> {
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
  async function startSubscriber(log: FastifyBaseLogger, target: SubscriberTarget): Promise<boolean> {
    const workflowId = subscriberWorkflowId(target);
    try {
      await client.workflow.start<typeof workflows.subscriberRenewal>('subscriberRenewal', {
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

  return {
    notifySubscriber,

    /**
     * After `PATCH /subscribers/:id/period` committed the move: a running subscription's workflow is
     * told (its timers move); a subscription made active again (`reactivatedFrom`: the status it had)
     * gets its workflow started, or, when that start fails, its status back (never active without a
     * workflow) and a 503, so the client's repeat reactivates and starts again.
     */
    async subscriberPeriodMoved(deps: { em: EntityManager; log: FastifyBaseLogger }, target: SubscriberTarget, move: { activeUntil: Date; reactivatedFrom: SubscriberStatus | null }): Promise<void> {
      if (move.reactivatedFrom === null) return notifySubscriber(deps.log, target, [{ signal: 'periodMoved', activeUntil: move.activeUntil }]);
      if (await startSubscriber(deps.log, target)) return;
      await undoReactivation(deps.em, target.shopId, target.subscriberId, move.reactivatedFrom);
      throw new HttpError(503, 'the period end is moved, but the subscription could not be made active again (its renewal workflow did not start): repeat the request', undefined, {
        'retry-after': '5',
      });
    },

    /** The renewal workflow's answer to the state query; null when it is not running or does not answer within `timeoutMs`. */
    async subscriberState(target: SubscriberTarget, timeoutMs = 2000): Promise<SubscriberRenewalState | null> {
      const handle = client.workflow.getHandle(subscriberWorkflowId(target));
      return client.connection.withDeadline(Date.now() + timeoutMs, () => handle.query(subscriberStateQuery)).catch(() => null);
    },
  };
}
