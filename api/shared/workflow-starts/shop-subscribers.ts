import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { SubscriberSignal, SubscriberStatus } from '../../../domain/shop/subscription-rules.ts';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import {
  subscriberItemsChangedSignal,
  subscriberPausedSignal,
  subscriberPeriodMovedSignal,
  subscriberResumedSignal,
  subscriberStateQuery,
  type SubscriberRenewalState,
} from '../../../workflows/shop/subscription-signals.ts';
import type { OutboxRecorder, RecordedStart } from './outbox.ts';

export type SubscriberNotice = { signal: SubscriberSignal } | { signal: 'periodMoved'; activeUntil: Date };
export interface SubscriberTarget {
  shopId: string;
  subscriberId: number;
}

const signalOf = (notice: SubscriberNotice) => {
  if (notice.signal === 'periodMoved') return { signal: subscriberPeriodMovedSignal.name, signalArgs: [{ activeUntil: notice.activeUntil.toISOString() }] };
  if (notice.signal === 'paused') return { signal: subscriberPausedSignal.name, signalArgs: [] };
  if (notice.signal === 'resumed') return { signal: subscriberResumedSignal.name, signalArgs: [] };
  return { signal: subscriberItemsChangedSignal.name, signalArgs: [] };
};

/**
 * The shop's subscriber renewal workflows as the api talks to them (`app.workflows.shop`): signals
 * after a write and the start of a reactivated subscription, both recorded in the write's
 * transaction (the outbox: the route sends them with `startRecorded` after the commit, later when
 * Temporal is down), and the state query.
 */
export function subscriberWorkflows(client: Client, outbox: OutboxRecorder) {
  /**
   * Tells a subscriber's renewal workflow what the write changed, in order, once committed. A
   * workflow that does not run (not started yet, or finished) is no failure: the write stands and
   * the workflow reads the row when it starts. The signals are idempotent in the workflow (it reads
   * the row), so signals sent twice change nothing.
   */
  async function notifySubscriber(em: EntityManager, target: SubscriberTarget, notices: readonly SubscriberNotice[]): Promise<RecordedStart | null> {
    if (notices.length === 0) return null;
    return outbox.record(em, 'subscriberRenewal', subscriberWorkflowId(target), { kind: 'signals', signals: notices.map(signalOf) });
  }

  return {
    notifySubscriber,

    /**
     * For `PATCH /subscribers/:id/period`, in its transaction `em`: a running subscription's
     * workflow is told (its timers move); a subscription made active again (`reactivatedFrom`: the
     * status it had) gets its workflow started with the id it always has (`shop/<s>/subscriber/<id>`):
     * a finished run's id is reused, and a run still finishing its end (it saw the old status and only
     * sends its last mail) is terminated, since it would never read the row again. Recorded as a
     * restart: a run begun after this write was recorded read the active row and is kept, so a
     * restart sent twice never terminates the run it started. The status stays active while
     * Temporal is down; the workflow starts when it is back.
     */
    subscriberPeriodMoved(em: EntityManager, target: SubscriberTarget, move: { activeUntil: Date; reactivatedFrom: SubscriberStatus | null }): Promise<RecordedStart | null> {
      if (move.reactivatedFrom === null) return notifySubscriber(em, target, [{ signal: 'periodMoved', activeUntil: move.activeUntil }]);
      return outbox.record(em, 'subscriberRenewal', subscriberWorkflowId(target), { kind: 'restart', args: [{ shopId: target.shopId, subscriberId: target.subscriberId }] });
    },

    /** The renewal workflow's answer to the state query; null when it is not running or does not answer within `timeoutMs`. */
    async subscriberState(target: SubscriberTarget, timeoutMs = 2000): Promise<SubscriberRenewalState | null> {
      const handle = client.workflow.getHandle(subscriberWorkflowId(target));
      return client.connection.withDeadline(Date.now() + timeoutMs, () => handle.query(subscriberStateQuery)).catch(() => null);
    },
  };
}
