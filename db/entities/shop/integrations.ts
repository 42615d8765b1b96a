import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Order } from './order.ts';
import { shopOwned } from './shop-owned.ts';

const money = () => p.decimal('string').precision(12).scale(2);

/**
 * The shop's GA4 property (operator `PUT /admin/v1/shops/:shop_id/integrations/analytics`): the
 * clearing's purchase event goes to it through the Measurement Protocol. One row per shop; the
 * `api_secret` is sealed (adapters/secrets/secret-box.ts).
 */
export const ShopAnalyticsIntegration = defineEntity({
  name: 'ShopAnalyticsIntegration',
  tableName: 'shop_analytics_integrations',
  uniques: [{ properties: ['shop'] }],
  ...shopOwned({
    measurementId: p.string().length(64),
    apiSecretSealed: p.text(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IShopAnalyticsIntegration = InferEntity<typeof ShopAnalyticsIntegration>;

/**
 * The shop's mailing tool (operator `PUT /admin/v1/shops/:shop_id/integrations/marketing`): the
 * audience (`list_id`) the buyer is tagged in, the tags every buyer gets and those of each bought
 * product. One row per shop; the API key is sealed.
 */
export const ShopMarketingIntegration = defineEntity({
  name: 'ShopMarketingIntegration',
  tableName: 'shop_marketing_integrations',
  uniques: [{ properties: ['shop'] }],
  ...shopOwned({
    provider: p.string().length(32),
    apiKeySealed: p.text(),
    listId: p.string().length(64),
    tags: p.json<string[]>(),
    productTags: p.json<Record<string, string[]>>(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IShopMarketingIntegration = InferEntity<typeof ShopMarketingIntegration>;

/** The Stripe customer of one buyer e-mail (lower case) in one shop: searched or made once, then reused. */
export const StripeCustomer = defineEntity({
  name: 'StripeCustomer',
  tableName: 'shop_stripe_customers',
  uniques: [{ properties: ['shop', 'email'] }],
  ...shopOwned({
    email: p.string(),
    customerId: p.string().length(255),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IStripeCustomer = InferEntity<typeof StripeCustomer>;

/**
 * A payment started for an order through the shop's gateway (one per order): the PaymentIntent,
 * its amount and customer, whether the card is saved for later off-session charges (the order
 * holds a subscription product), and the saved payment method once the payment succeeded.
 */
export const OrderPayment = defineEntity({
  name: 'OrderPayment',
  tableName: 'shop_order_payments',
  uniques: [{ properties: ['order'] }, { properties: ['paymentIntentId'] }],
  ...shopOwned({
    order: () => p.manyToOne(Order).ref().deleteRule('cascade'),
    provider: p.string().length(16),
    paymentIntentId: p.string().length(255),
    amount: money(),
    currency: p.string().length(3),
    customerId: p.string().length(255).nullable(),
    saveForLater: p.boolean().default(false),
    paymentMethodId: p.string().length(255).nullable(),
    succeededAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IOrderPayment = InferEntity<typeof OrderPayment>;
