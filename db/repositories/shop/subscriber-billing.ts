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
import { NO_GATEWAY, stripePaymentReference, type ChargeResult, type GatewayMode } from '../../../domain/shop/payment-gateway.ts';
import { DEFAULT_DUNNING_DAYS, nextPeriod } from '../../../domain/shop/subscription-periods.ts';
import type { PricedCart } from '../../../domain/shop/pricing.ts';
import { lineIdentifiers } from '../../../domain/shop/order-lifecycle.ts';
import { runStatement, statement } from '../shared/prepared.ts';
import { arrayLiteral, intArray } from '../shared/array-literal.ts';

export interface GatewaySettings {
  mode: GatewayMode;
  dunningDays: number[];
  /** Mode `stripe`: the sealed secret key and webhook signing secret; null in the test gateway's modes. */
  secretKeySealed: string | null;
  webhookSecretSealed: string | null;
}

/** The shop's gateway settings; the defaults (no gateway: nothing charged; retries after 1, 3, 5 days) when never set. */
export async function gatewaySettings(em: EntityManager): Promise<GatewaySettings> {
  const row = await em.findOne(ShopPaymentGateway, {}, { refresh: true });
  return row
    ? { mode: row.mode, dunningDays: row.dunningDays, secretKeySealed: row.secretKeySealed ?? null, webhookSecretSealed: row.webhookSecretSealed ?? null }
    : { mode: NO_GATEWAY, dunningDays: [...DEFAULT_DUNNING_DAYS], secretKeySealed: null, webhookSecretSealed: null };
}

/** Whether the shop (`:shop`) has Stripe as its gateway, with a secret key; also a part of the placement's read (checkout-reads.ts). */
export const STRIPE_GATEWAY_ON_SQL = "exists (select 1 from shop_payment_gateways g where g.shop_id = :shop and g.mode = 'stripe' and g.secret_key_sealed is not null)";

/** Whether the shop's gateway is Stripe with a secret key: one prepared statement (a repeated storefront checkout asks, issue 26). */
export async function stripeGatewayOn(em: EntityManager, shopId: string): Promise<boolean> {
  const [row] = await runStatement<{ on: boolean }>(em, statement('shop-stripe-gateway-on', `select ${STRIPE_GATEWAY_ON_SQL} as on`, { shop: shopId }));
  return row!.on;
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
    [shopId, settings.mode, intArray(settings.dunningDays), settings.secretKeySealed ?? null, settings.webhookSecretSealed ?? null],
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
  // An unpaid renewal order's attempts count as declined ones: the dunning schedule ends both alike.
  return em.count(SubscriberCharge, { subscriber: subscriberId, key: { $like: `${keyPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%` }, status: { $in: ['declined', 'unpaid'] } });
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
  /** `unpaid`: no gateway; the attempt waits for its renewal order (`reason` says which). */
  result: ChargeResult | { status: 'unpaid'; reason: string };
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
      result.status === 'approved' ? null : result.reason,
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

/** The subscription plan links of the order's products (one per product), with their plans. */
export async function subscriptionLinksOf(em: EntityManager, shopId: string, productIds: readonly number[]) {
  if (productIds.length === 0) return [];
  // Most orders hold no plan's product: a plain check first spares them the ORM's read (every clearing asks).
  const [{ found } = { found: false }] = await em.execute<{ found: boolean }[]>(
    'select exists (select 1 from shop_subscription_plan_products where shop_id = ? and product_id = any(?::int[])) as found',
    [shopId, intArray(productIds)],
  );
  if (!found) return [];
  const links = await em.find(SubscriptionPlanProduct, { product: { $in: [...new Set(productIds)] } }, { populate: ['plan'], orderBy: { id: 'asc' } });
  // One plan per product: its automatic plan (at most one, spec), else its first manual plan.
  const chosen = new Map<number, (typeof links)[number]>();
  for (const link of links) {
    const held = chosen.get(link.product.id);
    if (!held || (!held.automaticRenewal && link.automaticRenewal)) chosen.set(link.product.id, link);
  }
  return [...chosen.values()];
}

export interface Activation {
  /** The subscribers of the order (new or found), by product. */
  subscriberIds: number[];
  /** Subscribers of superseded plans ended by this activation. */
  endedIds: number[];
  /** Running subscribers of manual plans whose period this order extended (their runs read the new end). */
  extendedIds: number[];
}

/**
 * Creates a subscriber and its first period for every subscription product of a cleared order
 * (automatic or manual plan; a running manual subscription of the same plan and address is
 * extended instead)
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
    const extendedIds: number[] = [];
    const paidAt = order.paidAt ?? now;
    const [saved] = await tx.execute<{ customer_id: string; payment_method_id: string }[]>(
      'select customer_id, payment_method_id from shop_order_payments where shop_id = ? and order_id = ? and customer_id is not null and payment_method_id is not null and save_for_later',
      [shopId, order.id],
    );
    const savedPayment = saved ? stripePaymentReference(saved.customer_id, saved.payment_method_id) : null;
    for (const link of links) {
      const quantity = items.filter((item) => item.productId === link.productId).reduce((sum, item) => sum + item.quantity, 0);
      // A manual plan bought again while its subscription runs: the period is extended by the
      // plan's extension_strategy (from the purchase, or from the current end) instead of a second
      // subscriber; once per order (a retry finds the extension it made).
      const manual = !link.plan.automaticRenewal;
      const extendedBefore = manual ? await subscriberExtendedBy(tx, shopId, order.id, link.plan.id) : null;
      const running = manual && extendedBefore === null ? await runningManualSubscriber(tx, shopId, link.plan.id, order.email, order.id) : null;
      if (extendedBefore !== null) {
        subscriberIds.push(extendedBefore);
      } else if (running) {
        const next = nextPeriod({ strategy: link.plan.extensionStrategy, paidAt: paidAt.getTime(), previousEnd: Math.max(running.endsAt.getTime(), paidAt.getTime()), intervalMs: link.interval * 86_400_000 });
        await tx.execute(
          `insert into shop_subscriber_periods (shop_id, subscriber_id, kind, starts_at, ends_at, order_id, created_at) values (?, ?, 'renewal', ?, ?, ?, ?)`,
          [shopId, running.id, new Date(next.start), new Date(next.end), order.id, now],
        );
        subscriberIds.push(running.id);
        extendedIds.push(running.id);
      } else {
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
      }
      // Spec, Order detail: one identifier per unit on the lines of this subscription's product.
      const [subscriber] = await tx.execute<{ service_ref: string }[]>('select service_ref from shop_subscribers where id = ?', [subscriberIds.at(-1)]);
      const lines = items.filter((item) => item.productId === link.productId).map((item) => ({ id: item.id, quantity: item.quantity }));
      for (const [lineId, identifiers] of lineIdentifiers(subscriber!.service_ref, lines)) {
        await tx.execute('update shop_order_items set subscriber_identifiers = ?::text[] where shop_id = ? and id = ?', [arrayLiteral(identifiers), shopId, lineId]);
      }
      const superseded = link.plan.supersededPlan?.id;
      if (superseded) {
        const ended = await tx.execute<{ id: number }[]>(
          `update shop_subscribers set status = 'ended', ended_at = ?, updated_at = ?
           where shop_id = ? and plan_id = ? and lower(email) = lower(?) and status = 'active' and id <> all(?::int[]) returning id`,
          [now, now, shopId, superseded, order.email, intArray(subscriberIds)],
        );
        endedIds.push(...ended.map((row) => row.id));
      }
    }
    return { subscriberIds, endedIds, extendedIds };
  });
}

/** The subscriber of plan `planId` whose period this order extended before (a retried activation), or null. */
async function subscriberExtendedBy(tx: EntityManager, shopId: string, orderId: number, planId: number): Promise<number | null> {
  const [row] = await tx.execute<{ id: number }[]>(
    `select s.id from shop_subscriber_periods p join shop_subscribers s on s.id = p.subscriber_id
     where p.shop_id = ? and p.order_id = ? and p.kind = 'renewal' and s.plan_id = ? and s.order_id <> ? limit 1`,
    [shopId, orderId, planId, orderId],
  );
  return row ? Number(row.id) : null;
}

/** The active subscriber of a manual plan for this address started by another order, with its latest period end (row locked). */
async function runningManualSubscriber(tx: EntityManager, shopId: string, planId: number, email: string, orderId: number): Promise<{ id: number; endsAt: Date } | null> {
  const [row] = await tx.execute<{ id: number; ends_at: Date | string }[]>(
    `select s.id, (select max(p.ends_at) from shop_subscriber_periods p where p.subscriber_id = s.id) as ends_at from shop_subscribers s
     where s.shop_id = ? and s.plan_id = ? and lower(s.email) = lower(?) and s.status = 'active' and s.order_id <> ? order by s.id limit 1 for update of s`,
    [shopId, planId, email, orderId],
  );
  return row && row.ends_at ? { id: Number(row.id), endsAt: new Date(row.ends_at) } : null;
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

/**
 * Ends the active subscriptions a canceled or returned order started (`ended`, so nothing renews
 * and no reminder goes); their periods stay as recorded. Answers the subscribers ended now.
 */
export async function endSubscriptionsOfOrder(em: EntityManager, shopId: string, orderId: number, now: Date): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    `update shop_subscribers set status = 'ended', ended_at = ?, updated_at = ? where shop_id = ? and order_id = ? and status = 'active' returning id`,
    [now, now, shopId, orderId],
  );
  return rows.map((row) => Number(row.id));
}

/** The subscribers an order started that are no longer active (a retried stop signals them all again). */
export async function inactiveSubscribersOfOrder(em: EntityManager, shopId: string, orderId: number): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(`select id from shop_subscribers where shop_id = ? and order_id = ? and status <> 'active' order by id`, [shopId, orderId]);
  return rows.map((row) => Number(row.id));
}

/** Ends an active subscription (`expired` after dunning, `ended` at the renewal limit); false when it was not active. */
export async function endSubscription(em: EntityManager, subscriberId: number, status: 'expired' | 'ended', now: Date): Promise<boolean> {
  const changed = await em.nativeUpdate(Subscriber, { id: subscriberId, status: 'active' }, { status, endedAt: now });
  return changed > 0;
}

/** The charge read anew from the database (past the identity map). */
export function freshCharge(em: EntityManager, chargeId: number): Promise<ISubscriberCharge> {
  return em.findOneOrFail(SubscriberCharge, chargeId, { refresh: true });
}
