import type { z } from 'zod';
import type { ISubscriber, ISubscriberPeriod } from '../../../db/entities/shop/index.ts';
import { renewalItemView, subscriberIsActive } from '../../../domain/shop/subscription-rules.ts';
import type { PeriodReply, SubscriberReply } from './schemas.ts';

export function periodReply(period: ISubscriberPeriod): z.infer<typeof PeriodReply> {
  return {
    id: period.id,
    kind: period.kind,
    starts_at: period.startsAt.toISOString(),
    ends_at: period.endsAt.toISOString(),
    order_id: period.order?.id ?? null,
    moved_from: period.movedFrom?.toISOString() ?? null,
    moved_at: period.movedAt?.toISOString() ?? null,
  };
}

/**
 * A subscriber as replied: `active_until` is its latest period's end (`latestEnd`); an item without its own
 * price shows the current catalogue price with `price_source: catalogue`.
 */
export function subscriberReply(subscriber: ISubscriber, latestEnd: Date | null, prices: ReadonlyMap<number, string>, now: Date): z.infer<typeof SubscriberReply> {
  return {
    id: subscriber.id,
    service_ref: subscriber.serviceRef,
    custom_identifier: subscriber.customIdentifier ?? null,
    email: subscriber.email,
    subscription_plan_id: subscriber.plan.id,
    product_id: subscriber.product?.id ?? null,
    order_id: subscriber.order?.id ?? null,
    status: subscriber.status,
    active: subscriberIsActive(subscriber.status, latestEnd, now),
    active_until: latestEnd?.toISOString() ?? null,
    renewal_paused: subscriber.renewalPaused,
    renewal_interval_days: subscriber.renewalIntervalDays ?? null,
    renewal_items: subscriber.renewalItems.map((item) => renewalItemView(item, prices)),
    renewals_done: subscriber.renewalsDone,
    created_at: subscriber.createdAt.toISOString(),
    updated_at: subscriber.updatedAt.toISOString(),
  };
}
