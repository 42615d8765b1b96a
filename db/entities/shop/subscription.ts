import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ExtensionStrategy, PeriodKind, RenewalItem, SubscriberStatus } from '../../../domain/shop/subscription-rules.ts';
import { Order } from './order.ts';
import { Product } from './product.ts';
import { shopOwned } from './shop-owned.ts';
import type { PlanEmailKind } from '../../../domain/shop/subscription-mails.ts';

const money = () => p.decimal('string').precision(12).scale(2);

/**
 * A subscription plan (spec: Subscription plan). Interval and renewal limit belong to the
 * plan-product link (`SubscriptionPlanProduct`), not to the plan. `supersededPlan` is the plan
 * whose subscription ends when this plan is granted.
 */
export const SubscriptionPlan = defineEntity({
  name: 'SubscriptionPlan',
  tableName: 'shop_subscription_plans',
  indexes: [{ properties: ['shop', 'createdAt'] }],
  ...shopOwned({
    name: p.string(),
    automaticRenewal: p.boolean().default(false),
    extensionStrategy: p.string().length(16).$type<ExtensionStrategy>().default('immediate'),
    freeDeliveryMinimumAmount: money().nullable(),
    supersededPlan: () => p.manyToOne(SubscriptionPlan).ref().nullable().deleteRule('set null'),
    sendEmailAboutActivation: p.boolean().default(false),
    sendEmailAboutRenewal: p.boolean().default(false),
    sendEmailAboutExpirationInOneDay: p.boolean().default(false),
    sendEmailAboutExpirationInOneWeek: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type ISubscriptionPlan = InferEntity<typeof SubscriptionPlan>;

/**
 * A product of a plan: `interval` days per period (1..36500), `renewalsLimit` renewals (0: no
 * limit). `automaticRenewal` mirrors the plan's flag, written in the same transaction as the plan,
 * so the partial unique index keeps a product in at most one automatic-renewal plan even when two
 * writes race.
 */
export const SubscriptionPlanProduct = defineEntity({
  name: 'SubscriptionPlanProduct',
  tableName: 'shop_subscription_plan_products',
  uniques: [{ properties: ['plan', 'product'] }],
  indexes: [
    { properties: ['product'] },
    {
      name: 'shop_subscription_plan_products_one_automatic_plan',
      expression:
        'create unique index "shop_subscription_plan_products_one_automatic_plan" on "shop_subscription_plan_products" ("product_id") where "automatic_renewal"',
    },
  ],
  ...shopOwned({
    plan: () => p.manyToOne(SubscriptionPlan).ref().deleteRule('cascade'),
    product: () => p.manyToOne(Product).ref().deleteRule('cascade'),
    interval: p.integer(),
    renewalsLimit: p.integer().default(0),
    automaticRenewal: p.boolean().default(false),
  }),
});
export type ISubscriptionPlanProduct = InferEntity<typeof SubscriptionPlanProduct>;

/**
 * A subscriber (spec: Subscriber): one customer's subscription to a plan, created when a cleared
 * order holds a product of an automatic plan (`order`, `product`: unique together, so a repeated
 * activation finds the row). `serviceRef` is the service's stable key. `paymentReference` is the
 * gateway's opaque token of the saved payment (never shown). The periods are `SubscriberPeriod`
 * rows; the subscriber is active until the end of its latest period.
 */
export const Subscriber = defineEntity({
  name: 'Subscriber',
  tableName: 'shop_subscribers',
  uniques: [{ properties: ['serviceRef'] }, { properties: ['order', 'product'] }],
  indexes: [{ properties: ['shop', 'email'] }, { properties: ['shop', 'plan'] }, { properties: ['shop', 'customIdentifier'] }],
  ...shopOwned({
    serviceRef: p.string().length(64),
    customIdentifier: p.string().nullable(),
    email: p.string(),
    plan: () => p.manyToOne(SubscriptionPlan).ref().deleteRule('restrict'),
    product: () => p.manyToOne(Product).ref().nullable().deleteRule('set null'),
    order: () => p.manyToOne(Order).ref().nullable().deleteRule('set null'),
    renewalPaused: p.boolean().default(false),
    renewalIntervalDays: p.integer().nullable(),
    renewalItems: p.json<RenewalItem[]>().default('[]'),
    paymentReference: p.string().nullable(),
    status: p.string().length(16).$type<SubscriberStatus>().default('active'),
    renewalsDone: p.integer().default(0),
    endedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type ISubscriber = InferEntity<typeof Subscriber>;

/**
 * One period of a subscriber: `initial` (from the activating order) or `renewal` (paid by the
 * renewal order `order`). A PATCH of the period moves `endsAt` of the latest period and keeps the
 * end it had before in `movedFrom` (with `movedAt`). Unique per subscriber and paying order, so a
 * repeated renewal step finds its period.
 */
export const SubscriberPeriod = defineEntity({
  name: 'SubscriberPeriod',
  tableName: 'shop_subscriber_periods',
  uniques: [{ properties: ['subscriber', 'order'] }],
  indexes: [{ properties: ['subscriber', 'endsAt'] }],
  ...shopOwned({
    subscriber: () => p.manyToOne(Subscriber).ref().deleteRule('cascade'),
    kind: p.string().length(16).$type<PeriodKind>(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    order: () => p.manyToOne(Order).ref().nullable().deleteRule('set null'),
    movedFrom: p.datetime().nullable(),
    movedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type ISubscriberPeriod = InferEntity<typeof SubscriberPeriod>;

/**
 * A plan's own text of one subscriber mail (DESIGN.md section 10: the panel sets it with
 * `PUT .../subscription_plans/:plan_id/emails/:kind`); one per plan and kind, else the built-in
 * Polish text goes (domain/shop/subscription-mails.ts).
 */
export const SubscriptionPlanEmail = defineEntity({
  name: 'SubscriptionPlanEmail',
  tableName: 'shop_subscription_plan_emails',
  uniques: [{ properties: ['plan', 'kind'] }],
  ...shopOwned({
    plan: () => p.manyToOne(SubscriptionPlan).ref().deleteRule('cascade'),
    kind: p.string().length(32).$type<PlanEmailKind>(),
    subject: p.string(),
    content: p.text(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type ISubscriptionPlanEmail = InferEntity<typeof SubscriptionPlanEmail>;
