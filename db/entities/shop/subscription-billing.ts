import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ChargeStatus, GatewayMode } from '../../../domain/shop/payment-gateway.ts';
import type { PricedCart } from '../../../domain/shop/pricing.ts';
import { Order } from './order.ts';
import { shopOwned } from './shop-owned.ts';
import { Subscriber, SubscriberPeriod } from './subscription.ts';

const money = () => p.decimal('string').precision(12).scale(2);

/**
 * The shop's payment gateway settings (operator `PUT /admin/v1/shops/:shop_id/payment_gateway`):
 * the built-in test gateway's answer (`approve` or `decline`) or `stripe` with its sealed keys, and the dunning schedule, days after
 * a period end at which a declined renewal charge is retried. One row per shop; a shop without a
 * row uses the defaults (approve; 1, 3 and 5 days).
 */
export const ShopPaymentGateway = defineEntity({
  name: 'ShopPaymentGateway',
  tableName: 'shop_payment_gateways',
  uniques: [{ properties: ['shop'] }],
  ...shopOwned({
    mode: p.string().length(16).$type<GatewayMode>().default('approve'),
    dunningDays: p.array().$type<number[]>().columnType('int[]').defaultRaw(`'{1,3,5}'`),
    /** Mode `stripe`: the shop's Stripe secret key and webhook signing secret, sealed (adapters/secrets/secret-box.ts). */
    secretKeySealed: p.text().nullable(),
    webhookSecretSealed: p.text().nullable(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IShopPaymentGateway = InferEntity<typeof ShopPaymentGateway>;

/**
 * One renewal charge attempt of a subscriber (its billing history, dunning included): attempt n
 * of the period `period` renews, under the idempotency key (shop, subscriber, period, attempt),
 * so a retried activity never charges twice. `cart` holds the priced renewal items the amount was
 * computed from; the renewal order (`order`) is made from it once the charge is approved.
 */
export const SubscriberCharge = defineEntity({
  name: 'SubscriberCharge',
  tableName: 'shop_subscriber_charges',
  uniques: [{ properties: ['key'] }],
  indexes: [{ properties: ['subscriber', 'period'] }],
  ...shopOwned({
    subscriber: () => p.manyToOne(Subscriber).ref().deleteRule('cascade'),
    period: () => p.manyToOne(SubscriberPeriod).ref().deleteRule('cascade'),
    attempt: p.integer(),
    key: p.string(),
    amount: money(),
    currency: p.string().length(3),
    cart: p.json<PricedCart>().nullable(),
    status: p.string().length(16).$type<ChargeStatus>(),
    gatewayReference: p.string().nullable(),
    declineReason: p.text().nullable(),
    order: () => p.manyToOne(Order).ref().nullable().deleteRule('set null'),
    at: p.datetime(),
  }),
});
export type ISubscriberCharge = InferEntity<typeof SubscriberCharge>;
