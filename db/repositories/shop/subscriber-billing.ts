/**
 * The billing side of subscribers (issue 12): the gateway settings, what the renewal workflow
 * reads of a subscriber, the charge attempts, activation from a cleared order and the renewal
 * write. Every function takes an entity manager scoped to the shop (shopEm); raw SQL names the
 * shop itself.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import {
  Product,
  ShopPaymentGateway,
  Subscriber,
  SubscriberCharge,
  SubscriberPeriod,
  SubscriptionPlanProduct,
  type IOrder,
  type IOrderItem,
  type ISubscriber,
  type ISubscriberCharge,
  type ISubscriberPeriod,
  type ISubscriptionPlan,
} from '../../entities/shop/index.ts';
import { stripePaymentReference, type ChargeResult, type GatewayMode } from '../../../domain/shop/payment-gateway.ts';
import { DEFAULT_DUNNING_DAYS } from '../../../domain/shop/subscription-periods.ts';
import type { PricedCart } from '../../../domain/shop/pricing.ts';

export interface GatewaySettings {
  mode: GatewayMode;
  dunningDays: number[];
  /** Mode `stripe`: the sealed secret key and webhook signing secret; null in the test gateway's modes. */
  secretKeySealed: string | null;
  webhookSecretSealed: string | null;
}

/** The shop's gateway settings; the defaults (approve; retries after 1, 3, 5 days) when never set. */
export async function gatewaySettings(em: EntityManager): Promise<GatewaySettings> {
  const row = await em.findOne(ShopPaymentGateway, {}, { refresh: true });
  return row
    ? { mode: row.mode, dunningDays: row.dunningDays, secretKeySealed: row.secretKeySealed ?? null, webhookSecretSealed: row.webhookSecretSealed ?? null }
    : { mode: 'approve', dunningDays: [...DEFAULT_DUNNING_DAYS], secretKeySealed: null, webhookSecretSealed: null };
}

/**
 * Sets the shop's gateway settings in one statement (concurrent PUTs: the last one wins, never a
 * duplicate row); a test-gateway mode drops the Stripe keys.
 */
export async function saveGatewaySettings(em: EntityManager, shopId: string, settings: Pick<GatewaySettings, 'mode' | 'dunningDays'> & Partial<GatewaySettings>): Promise<void> {
  await em.execute(
    `insert into shop_payment_gateways (shop_id, mode, dunning_days, secret_key_sealed, webhook_secret_sealed, updated_at) values (?, ?, ?::int[], ?, ?, now())
     on conflict (shop_id) do update set mode = excluded.mode, dunning_days = excluded.dunning_days,
       secret_key_sealed = excluded.secret_key_sealed, webhook_secret_sealed = excluded.webhook_secret_sealed, updated_at = excluded.updated_at`,
    [shopId, settings.mode, `{${settings.dunningDays.join(',')}}`, settings.secretKeySealed ?? null, settings.webhookSecretSealed ?? null],
  );
}

export interface SubscriberState {
  subscriber: ISubscriber;
  plan: ISubscriptionPlan;
  /** The latest period (the one the subscriber is active until). */
  period: ISubscriberPeriod | null;
  /** The plan-product link the subscription was bought through; null when it is gone. */
  link: { interval: number; renewalsLimit: number } | null;
}

/** A subscriber with its plan, latest period and plan-product link; null when the shop has none under `id`. */
export async function loadSubscriberState(em: EntityManager, id: number, lock = false): Promise<SubscriberState | null> {
  const subscriber = await em.findOne(Subscriber, { id }, { populate: ['plan'], ...(lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {}) });
  if (!subscriber) return null;
  const period = await em.findOne(SubscriberPeriod, { subscriber: id }, { orderBy: { endsAt: 'desc', id: 'desc' }, ...(lock ? { refresh: true } : {}) });
  const productId = subscriber.product?.id;
  const link = productId ? await em.findOne(SubscriptionPlanProduct, { plan: subscriber.plan.id, product: productId }) : null;
  return { subscriber, plan: subscriber.plan.getEntity(), period, link: link && { interval: link.interval, renewalsLimit: link.renewalsLimit } };
}

/** Declined charges of one period end (their keys start with `keyPrefix`): the dunning position. */
export function failedAttempts(em: EntityManager, subscriberId: number, keyPrefix: string): Promise<number> {
  return em.count(SubscriberCharge, { subscriber: subscriberId, key: { $like: `${keyPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%` }, status: 'declined' });
}

export function chargeByKey(em: EntityManager, key: string): Promise<ISubscriberCharge | null> {
  return em.findOne(SubscriberCharge, { key });
}

export interface ChargeRow {
  shopId: string;
  subscriberId: number;
  periodId: number;
  attempt: number;
  key: string;
  amount: string;
  currency: string;
  /** Null when the attempt was declined before pricing (no renewal item still sold). */
  cart: PricedCart | null;
  result: ChargeResult;
  at: Date;
}

/** Records one attempt under its key; a concurrent record of the same key keeps the first. Answers the stored row. */
export async function recordCharge(em: EntityManager, row: ChargeRow): Promise<ISubscriberCharge> {
  const { result } = row;
  await em.execute(
    `insert into shop_subscriber_charges (shop_id, subscriber_id, period_id, attempt, key, amount, currency, cart, status, gateway_reference, decline_reason, at)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?) on conflict (key) do nothing`,
    [
      row.shopId,
      row.subscriberId,
      row.periodId,
      row.attempt,
      row.key,
      row.amount,
      row.currency,
      row.cart && JSON.stringify(row.cart),
      result.status,
      result.status === 'approved' ? result.reference : null,
      result.status === 'declined' ? result.reason : null,
      row.at,
    ],
  );
  return em.findOneOrFail(SubscriberCharge, { key: row.key }, { refresh: true });
}

/** Every charge attempt of a subscriber, oldest first (its billing history). */
export function chargesOf(em: EntityManager, subscriberId: number): Promise<ISubscriberCharge[]> {
  return em.find(SubscriberCharge, { subscriber: subscriberId }, { orderBy: { at: 'asc', id: 'asc' } });
}

/** Products of the renewal items that are still sold (active, not hidden). */
export function soldProducts(em: EntityManager, ids: readonly number[]) {
  return em.find(Product, { id: { $in: [...new Set(ids)] }, active: true, hidden: false });
}

/** The automatic-renewal plan links of the order's products, with their plans. */
export function automaticLinksOf(em: EntityManager, productIds: readonly number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return em.find(SubscriptionPlanProduct, { product: { $in: [...new Set(productIds)] }, automaticRenewal: true }, { populate: ['plan'], orderBy: { id: 'asc' } });
}

export interface Activation {
  /** The subscribers of the order (new or found), by product. */
  subscriberIds: number[];
  /** Subscribers of superseded plans ended by this activation. */
  endedIds: number[];
}

/**
 * Creates a subscriber and its first period for every automatic-plan product of a cleared order
 * (once per order and product: the unique key finds a row made before), then ends the active
 * subscriptions of the plans these plans supersede, for the same customer.
 */
export async function activateFromOrder(
  em: EntityManager,
  order: IOrder,
  items: readonly IOrderItem[],
  links: readonly { productId: number; interval: number; plan: ISubscriptionPlan }[],
  now: Date,
): Promise<Activation> {
  return em.transactional(async (tx) => {
    const shopId = order.shop.id;
    const subscriberIds: number[] = [];
    const endedIds: number[] = [];
    const paidAt = order.paidAt ?? now;
    const [saved] = await tx.execute<{ customer_id: string; payment_method_id: string }[]>(
      'select customer_id, payment_method_id from shop_order_payments where shop_id = ? and order_id = ? and customer_id is not null and payment_method_id is not null and save_for_later',
      [shopId, order.id],
    );
    const savedPayment = saved ? stripePaymentReference(saved.customer_id, saved.payment_method_id) : null;
    for (const link of links) {
      const quantity = items.filter((item) => item.productId === link.productId).reduce((sum, item) => sum + item.quantity, 0);
      const [inserted] = await tx.execute<{ id: number }[]>(
        `insert into shop_subscribers (shop_id, service_ref, email, plan_id, product_id, order_id, renewal_items, payment_reference, status, renewals_done, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, 'active', 0, ?, ?) on conflict (order_id, product_id) do nothing returning id`,
        [
          shopId,
          `sub_${randomUUID().replaceAll('-', '')}`,
          order.email,
          link.plan.id,
          link.productId,
          order.id,
          JSON.stringify([{ product_id: link.productId, quantity: Math.max(quantity, 1), price: null }]),
          // The saved payment of the first order: the card Stripe saved for off-session use
          // (stripe:<customer>:<payment method>), else the gateway's transaction id when it gave one.
          savedPayment ?? order.transactionId ?? `order:${shopId}:${order.id}`,
          now,
          now,
        ],
      );
      if (inserted) {
        await tx.execute(
          `insert into shop_subscriber_periods (shop_id, subscriber_id, kind, starts_at, ends_at, order_id, created_at) values (?, ?, 'initial', ?, ?, ?, ?)`,
          [shopId, inserted.id, paidAt, new Date(paidAt.getTime() + link.interval * 86_400_000), order.id, now],
        );
        subscriberIds.push(inserted.id);
      } else {
        const [found] = await tx.execute<{ id: number }[]>('select id from shop_subscribers where shop_id = ? and order_id = ? and product_id = ?', [shopId, order.id, link.productId]);
        subscriberIds.push(found!.id);
      }
      const superseded = link.plan.supersededPlan?.id;
      if (superseded) {
        const ended = await tx.execute<{ id: number }[]>(
          `update shop_subscribers set status = 'ended', ended_at = ?, updated_at = ?
           where shop_id = ? and plan_id = ? and lower(email) = lower(?) and status = 'active' and id <> all(?::int[]) returning id`,
          [now, now, shopId, superseded, order.email, `{${subscriberIds.join(',')}}`],
        );
        endedIds.push(...ended.map((row) => row.id));
      }
    }
    return { subscriberIds, endedIds };
  });
}

/**
 * Writes what an approved charge buys, once per charge: the renewal order (made by `placeOrder`
 * inside this transaction, from the charge's priced cart), the next period and the renewal count.
 * The subscriber row is locked first (a period move waits, and is waited for). Answers the order
 * and period, also when the charge was turned into them before.
 */
export async function renewFromCharge(
  em: EntityManager,
  p: { subscriberId: number; chargeId: number; nextPeriod: (state: SubscriberState, charge: ISubscriberCharge) => { start: Date; end: Date } },
  placeOrder: (tx: EntityManager, state: SubscriberState, charge: ISubscriberCharge) => Promise<number>,
): Promise<{ orderId: number; periodId: number } | null> {
  return em.transactional(async (tx) => {
    const state = await loadSubscriberState(tx, p.subscriberId, true);
    const charge = await tx.findOne(SubscriberCharge, { id: p.chargeId, subscriber: p.subscriberId, status: 'approved' }, { refresh: true });
    if (!state || !charge) return null;
    if (charge.order) {
      const period = await tx.findOneOrFail(SubscriberPeriod, { subscriber: p.subscriberId, order: charge.order.id });
      return { orderId: charge.order.id, periodId: period.id };
    }
    const { start, end } = p.nextPeriod(state, charge);
    const orderId = await placeOrder(tx, state, charge);
    const period = tx.create(SubscriberPeriod, { shop: state.subscriber.shop.id, subscriber: p.subscriberId, kind: 'renewal', startsAt: start, endsAt: end, order: orderId, createdAt: charge.at });
    tx.assign(charge, { order: orderId });
    tx.assign(state.subscriber, { renewalsDone: state.subscriber.renewalsDone + 1 });
    await tx.flush();
    return { orderId, periodId: period.id };
  });
}

/** Ends an active subscription (`expired` after dunning, `ended` at the renewal limit); false when it was not active. */
export async function endSubscription(em: EntityManager, subscriberId: number, status: 'expired' | 'ended', now: Date): Promise<boolean> {
  const changed = await em.nativeUpdate(Subscriber, { id: subscriberId, status: 'active' }, { status, endedAt: now });
  return changed > 0;
}
