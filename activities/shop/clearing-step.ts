import { ApplicationFailure } from '@temporalio/common';
import { CLEARING_PARTS, callOutside, effectOfPart, planOf, waitsForDeferred, webhooksOf, type ClearingPart, type OutsideClearingEffect, type WebhooksPart } from '../../domain/shop/clearing-plan.ts';
import { clubDeliveryOpened, noShopWebhookSubscribed, orderSequencesStarted, shopDeliveryUnderWay } from '../../domain/shop/effect-outcomes.ts';
import { isHandOn, type EffectOutcome, type EffectSource } from '../../domain/shop/effects.ts';
import type { ShopWebhookEvent } from '../../domain/shop/webhooks.ts';
import type { PlannedAutomaticStatus, automaticStatusActivities } from './automatic-status.ts';
import type { clubWebhookActivities } from './club-webhook.ts';
import type { CourseAccessStep, shopCourseAccessActivities } from './course-access.ts';
import type { OrderMailSequences, SubscriptionEntrySequences, mailSequenceActivities } from './mail-sequences.ts';
import type { orderEffectActivities } from './order-effects.ts';
import type { subscriberRenewalActivities } from './subscriber-renewal.ts';
import type { shopWebhookActivities } from '../webhooks/shop.ts';

/** An event of the clearing: its id (`webhook-id`) and time, made by the workflow so a repeated task passes the same. */
export interface ClearingEvent {
  eventId: string;
  occurredAt: string;
}

export interface ClearingStepInput {
  shopId: string;
  orderId: number;
  /** `order_cleared`, the Paid status's `order_status_changed`, and the club webhook's event. */
  events: { cleared: ClearingEvent; paid: ClearingEvent; club: ClearingEvent };
}

/** A shop webhook's delivery the step opened: the workflow starts its delivery workflow. */
export interface OpenedShopDelivery extends ClearingEvent {
  source: EffectSource;
  webhookId: string;
  type: ShopWebhookEvent;
  deliveryId: string;
}

/** What the workflow does after the step, outside the database. */
export interface ClearingStepResult {
  /** The parts the step did not settle (a failure a retry may change, or one they wait for): run by the per-effect steps. */
  deferred: ClearingPart[];
  /** The effects that have to go out: their retried activities. */
  handOn: OutsideClearingEffect[];
  deliveries: OpenedShopDelivery[];
  club: { deliveryId: string; statusId: number } | null;
  courseAccess: Omit<CourseAccessStep, 'outcome'>;
  sequences: OrderMailSequences | null;
  subscriptions: { subscriberIds: number[]; reloadIds: number[]; entries: SubscriptionEntrySequences[] } | null;
  automaticStatuses: PlannedAutomaticStatus[];
}


/** What an activity group's factory gives: its activities by name. */
export type Fns<F extends (...args: never[]) => object> = ReturnType<F>;
/** The activities the step is made of, bound to its transaction (or a test's fakes). */
export type ClearingEffects = Pick<Fns<typeof orderEffectActivities>, 'recordOrderEffect' | 'issueInvoice' | 'createDownloadCodes' | 'sendAnalyticsPurchase' | 'tagCustomer' | 'sendStatusMail'> &
  Pick<Fns<typeof shopCourseAccessActivities>, 'registerCourseAccessOrder'> &
  Pick<Fns<typeof mailSequenceActivities>, 'orderMailSequences' | 'subscriptionEntryMailSequences'> &
  Pick<Fns<typeof subscriberRenewalActivities>, 'activateSubscriptions'> &
  Pick<Fns<typeof automaticStatusActivities>, 'planAutomaticStatuses'> &
  Pick<Fns<typeof shopWebhookActivities>, 'shopWebhookTargets' | 'openShopWebhookDelivery'> &
  Pick<Fns<typeof clubWebhookActivities>, 'openClubWebhookDelivery'>;

type PartRun = (fx: ClearingEffects, input: ClearingStepInput) => Promise<Partial<ClearingStepResult>>;

/** The order, under the source of the part's effect-log entries (domain/shop/clearing-plan.ts). */
const ref = (input: ClearingStepInput, part: ClearingPart) => ({ shopId: input.shopId, orderId: input.orderId, source: planOf(part).source });

/** An outside part asked locally first: settled here when nothing has to go out, else handed on. */
const outside = (effect: OutsideClearingEffect): PartRun => async (fx, input) => (isHandOn(await callOutside(fx, effect, { ...ref(input, effect), localFirst: true })) ? { handOn: [effect] } : {});

/** The webhooks of the part's event: one delivery opened per subscribed webhook, its first attempt the workflow's. */
function webhooks(part: WebhooksPart): PartRun {
  const { type, event } = webhooksOf(part);
  return async (fx, input) => {
    const at = ref(input, part);
    const targets = await fx.shopWebhookTargets({ shopId: input.shopId, type });
    if (targets.length === 0) {
      await fx.recordOrderEffect({ ...at, effect: 'webhook', outcome: noShopWebhookSubscribed(type) });
      return {};
    }
    const deliveries: OpenedShopDelivery[] = [];
    for (const { webhookId, host } of targets) {
      const opened = { ...at, webhookId, type, ...input.events[event] };
      const { deliveryId } = await fx.openShopWebhookDelivery(opened);
      // Provisional: its delivery workflow records over it once it is over.
      await fx.recordOrderEffect({ ...at, effect: 'webhook', target: webhookId, outcome: shopDeliveryUnderWay(type, webhookId, host), provisional: true });
      deliveries.push({ ...opened, deliveryId });
    }
    return { deliveries };
  };
}

/** Each part: its database work and effect-log rows, and what it leaves to the workflow. */
const PARTS: Record<ClearingPart, PartRun> = {
  invoice: async (fx, input) => (await fx.issueInvoice(ref(input, 'invoice')), {}),
  download_codes: async (fx, input) => (await fx.createDownloadCodes(ref(input, 'download_codes')), {}),
  analytics_purchase: outside('analytics_purchase'),
  marketing_tags: outside('marketing_tags'),
  status_mail: outside('status_mail'),
  async course_access(fx, input) {
    const { outcome, ...courseAccess } = await fx.registerCourseAccessOrder(ref(input, 'course_access'));
    await fx.recordOrderEffect({ ...ref(input, 'course_access'), effect: 'course_access', outcome });
    return { courseAccess };
  },
  async mail_sequence(fx, input) {
    const sequences = await fx.orderMailSequences({ shopId: input.shopId, orderId: input.orderId, statusId: null });
    await fx.recordOrderEffect({ ...ref(input, 'mail_sequence'), effect: 'mail_sequence', outcome: orderSequencesStarted(sequences.sequenceIds) });
    return sequences.sequenceIds.length ? { sequences } : {};
  },
  async subscription(fx, input) {
    const { outcome, subscriberIds, endedIds, extendedIds = [] } = await fx.activateSubscriptions(ref(input, 'subscription'));
    const entries = subscriberIds.length ? await fx.subscriptionEntryMailSequences({ shopId: input.shopId, subscriberIds }) : [];
    await fx.recordOrderEffect({ ...ref(input, 'subscription'), effect: 'subscription', outcome });
    return { subscriptions: { subscriberIds, reloadIds: [...endedIds, ...extendedIds], entries } };
  },
  automatic_statuses: async (fx, input) => ({ automaticStatuses: await fx.planAutomaticStatuses({ shopId: input.shopId, orderId: input.orderId, source: 'clear' }) }),
  cleared_webhooks: webhooks('cleared_webhooks'),
  paid_webhooks: webhooks('paid_webhooks'),
  async club_webhook(fx, input) {
    const opening = await fx.openClubWebhookDelivery({ ...ref(input, 'club_webhook'), statusId: null, ...input.events.club });
    const outcome = clubDeliveryOpened(opening);
    await fx.recordOrderEffect({ ...ref(input, 'club_webhook'), effect: 'club_webhook', outcome, provisional: outcome.status === 'done' });
    return 'skipped' in opening ? {} : { club: { deliveryId: opening.deliveryId, statusId: opening.statusId } };
  },
};

/**
 * The clearing's database work in one step (issue 26 item 1): every part in turn, each run by
 * `inSavepoint` (activities/shop/clearing-transaction.ts: in a savepoint of its own, so one failing
 * part rolls back only itself, once a run without savepoints met a failing part). A failure no
 * retry can change (a non-retryable ApplicationFailure) is recorded `failed`, as the per-effect
 * steps record it when they give up; any other is left to the workflow's per-effect steps with
 * their retries, and with it the parts that wait for it. Idempotent like every activity it is
 * made of: run again, each answers its recorded outcome and what the workflow has to start.
 */
export async function runClearingStep(fx: ClearingEffects, inSavepoint: <T>(work: () => Promise<T>) => Promise<T>, input: ClearingStepInput): Promise<ClearingStepResult> {
  const result: ClearingStepResult = { deferred: [], handOn: [], deliveries: [], club: null, courseAccess: {}, sequences: null, subscriptions: null, automaticStatuses: [] };
  const deferred = new Set<ClearingPart>();
  for (const part of CLEARING_PARTS) {
    if (waitsForDeferred(part, deferred)) {
      deferred.add(part);
      continue;
    }
    try {
      const done = await inSavepoint(() => PARTS[part](fx, input));
      Object.assign(result, done, { handOn: [...result.handOn, ...(done.handOn ?? [])], deliveries: [...result.deliveries, ...(done.deliveries ?? [])] });
    } catch (error) {
      const effect = effectOfPart(part);
      if (!(error instanceof ApplicationFailure && error.nonRetryable && effect)) {
        deferred.add(part);
        continue;
      }
      const outcome: EffectOutcome = { status: 'failed', detail: error.message };
      await inSavepoint(() => fx.recordOrderEffect({ ...ref(input, part), effect, outcome })).catch(() => deferred.add(part));
    }
  }
  return { ...result, deferred: [...deferred] };
}
