import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import { MAIL_DELIVERY_ATTEMPT_TIMEOUT_MS } from '../../domain/shared/mail-delivery.ts';

/**
 * How a workflow runs a step: as an activity (its own task, queued and retried by the server) or
 * as a local activity (inside the workflow task that reaches it), with these options. The kind is
 * part of the profile because it is part of the history: the same step run the other way issues
 * another command, and a recorded history would no longer replay.
 */
export type ActivityProfile =
  | { readonly kind: 'activity'; readonly options: ActivityOptions }
  | { readonly kind: 'local'; readonly options: LocalActivityOptions };

const activity = (options: ActivityOptions): ActivityProfile => ({ kind: 'activity', options });
const local = (options: LocalActivityOptions): ActivityProfile => ({ kind: 'local', options });

/**
 * Every timeout and retry profile, in one place. A workflow picks the profile that fits the step
 * (`activitiesOf<Group>(PROFILE)`, activities-of.ts): `DB_STEP` for database work, `MAIL_ATTEMPT`
 * and `WEBHOOK_ATTEMPT` for one network attempt of a delivery, `ORDER_EFFECT` for a shop order's
 * side effect.
 */

/**
 * Database activities: short, idempotent, retried until they succeed. Only errors the activity
 * marks non-retryable (e.g. a course of another platform) stop the retries. The timeout is also how
 * long an attempt lost with a crashed worker waits before it is retried elsewhere, so it is short.
 */
export const DB_STEP = activity({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
  },
});

/**
 * Database steps on the hot path (a grant), run as local activities: inside the workflow task
 * that reached them, with no activity task to queue and no second workflow task for the result
 * (issue 17). The same retries as `DB_STEP`; a step lost with a crashed worker runs again when the
 * workflow task is retried elsewhere, and it is idempotent like every database step.
 */
export const LOCAL_DB_STEP = local({
  startToCloseTimeout: '10 seconds',
  // Above the longest retry interval: every retry stays inside the SDK's local backoff and keeps
  // the step's sequence number (its operation key); a longer backoff would come back under a new one.
  localRetryThreshold: '2 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
  },
});

/**
 * The network step of mail: a provider or SMTP relay may be down for a while, so attempts back off
 * to 10 minutes and give up after 30 (about four hours); each failed attempt is visible in the
 * mail log (`failed`, attempts, last error). A refusal no retry can fix (`MailDeliveryRefused`)
 * stops at once. The attempt heartbeats while it runs: one lost with a killed worker is retried
 * within seconds.
 */
export const MAIL_ATTEMPT = activity({
  startToCloseTimeout: MAIL_DELIVERY_ATTEMPT_TIMEOUT_MS,
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 minutes',
    maximumAttempts: 30,
    nonRetryableErrorTypes: ['MailDeliveryRefused', 'MailNotFound'],
  },
});

/**
 * The first delivery attempt of a grant's mail (an invitation), as a local activity inside the
 * grant's workflow task, for the older histories only (the grant step now makes that attempt
 * itself, issue 26): no attempt is retried here. A failure hands the mail to its delivery
 * workflow, which retries by `MAIL_ATTEMPT`; an overlapping attempt is harmless (the attempt
 * claims the mail, activities/mail/delivery.ts).
 */
export const LOCAL_MAIL_ATTEMPT = local({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
});

/**
 * One message of a shop mail sequence, as `MAIL_ATTEMPT` retries a delivery: a relay or provider
 * down for hours is waited out (back-off to 10 minutes, 30 attempts, about four hours) instead of
 * the 20 minutes of an order effect. The start-to-close timeout is far above the transport's own
 * (15 s per SMTP phase); a retry that meets an attempt still sending waits for it
 * (activities/shop/shop-mail-send.ts).
 */
export const SEQUENCE_MAIL = activity({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 30, nonRetryableErrorTypes: ['MailDeliveryRefused'] },
});

/**
 * One webhook HTTP attempt per activity. It records its own outcome and never throws for an HTTP
 * failure, so Temporal retries it only when the attempt could not be recorded (database, worker
 * crash). The heartbeat (every second from the start of the attempt) lets a killed worker's attempt
 * be retried within seconds; the retried attempt carries the same `webhook-id` (the event id). An
 * attempt claims the delivery before sending, so a retry that overlaps a still-running attempt
 * sends nothing and asks to be called again once the claim runs out.
 */
export const WEBHOOK_ATTEMPT = activity({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * A clearing's calls to the outside world in one activity (activities/shop/clearing-outside.ts):
 * the webhook attempts' timeouts and heartbeat, so a killed worker's calls are retried within
 * seconds (each answers what it recorded, or hands on what the lost attempt still claims). No one
 * call fails it; its retries are bounded, after which the workflow hands every call on to its own
 * activity or delivery workflow.
 */
export const CLEARING_OUTSIDE = activity({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * The same calls as a local activity (`clearing-outside-local`), inside the clearing's one
 * workflow task: no activity task, no second workflow task. It has no heartbeat: a killed worker's
 * calls run again when the workflow task is retried on another worker. A call to a target the
 * worker has seen slow (activities/shared/slow-targets.ts) is handed on without being made, so a
 * slow receiver does not keep holding the local slots every workflow's steps share.
 */
export const LOCAL_CLEARING_OUTSIDE = local({
  startToCloseTimeout: '3 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * The retries of an order effect, as an activity (`ORDER_EFFECT`) or a local one
 * (`LOCAL_ORDER_EFFECT`). Their waits (about 18.5 minutes) outlast a mail's claim of an attempt
 * lost with its worker (SHOP_MAIL_CLAIM_MS, 10 minutes), so a status mail waits for it instead of
 * being given up.
 */
const ORDER_EFFECT_RETRY: ActivityOptions['retry'] = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 12, nonRetryableErrorTypes: ['OrderNotFound'] };

/**
 * One side effect of a shop order (invoice, download codes, analytics, marketing tags, status
 * mail): retried on its own with backoff up to about 20 minutes, then recorded as `failed` in the
 * order's effect log by the workflow, so the other effects are never held back or repeated.
 */
export const ORDER_EFFECT = activity({ startToCloseTimeout: '30 seconds', retry: ORDER_EFFECT_RETRY });

/**
 * The database-only effects of a clearing (invoice number, download codes, course access order,
 * sequences, subscriptions, the effect log; issue 26 item 1), run as local activities: inside the
 * clearing's workflow task, with no activity task and no workflow task for each result. The same
 * retries as `ORDER_EFFECT`; the threshold is above its longest interval, so every retry stays in
 * the SDK's local backoff under the step's sequence number.
 */
export const LOCAL_ORDER_EFFECT = local({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '6 minutes',
  retry: ORDER_EFFECT_RETRY,
});

/**
 * Database steps of a subscriber's renewal (schedule, charge, renewal order, end): short and
 * idempotent, retried until they succeed. The charge is idempotent per attempt key at the gateway
 * and in the charge table, so its retries never charge twice.
 */
export const RENEWAL_STEP = activity({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', nonRetryableErrorTypes: ['SubscriberNotFound'] },
});

/** A subscriber's mail: a lost reminder never stops billing, so the attempts are bounded. */
export const SUBSCRIBER_MAIL = activity({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 10, nonRetryableErrorTypes: ['SubscriberNotFound'] },
});

/**
 * The steps of a person's erasure (issue 29): database work like `DB_STEP`, but one step may
 * redact many rows of a long-standing customer (each row's payload in turn), so an attempt may take
 * minutes before it is given up and retried. Every step is idempotent.
 */
export const ERASURE_STEP = activity({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['ErasureNotFound', 'UnknownPersonalDataKind'] },
});
