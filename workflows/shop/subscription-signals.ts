import { defineQuery, defineSignal } from '@temporalio/workflow';

/**
 * The subscriber renewal workflow's signals and query. The API sends a signal after its database
 * write has committed; the workflow re-reads what it needs through an activity, so a signal carries
 * only what the workflow must react to at once.
 */
export const subscriberPausedSignal = defineSignal('subscriberPaused');
export const subscriberResumedSignal = defineSignal('subscriberResumed');
/** The running period's end moved to `activeUntil` (ISO 8601): every pending timer and charge moves with it. */
export const subscriberPeriodMovedSignal = defineSignal<[{ activeUntil: string }]>('subscriberPeriodMoved');
/** `renewal_items` or `renewal_interval_days` changed: the next charge is priced from the stored items. */
export const subscriberItemsChangedSignal = defineSignal('subscriberItemsChanged');

export interface SubscriberRenewalState {
  paused: boolean;
  periodEnd: string;
  nextChargeAt: string | null;
  renewalsDone: number;
  failedAttempts: number;
  status: 'active' | 'paused' | 'dunning' | 'expired' | 'finished';
}
export const subscriberStateQuery = defineQuery<SubscriberRenewalState>('subscriberState');
