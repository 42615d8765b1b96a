import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ISubscriberCharge, IProduct } from '../../db/entities/shop/index.ts';
import { newStatusId, orderAddresses, paidStatusId } from '../../db/repositories/shop/orders.ts';
import { findOrderStatus } from '../../db/repositories/shop/order-status-config.ts';
import { firstSender } from '../../db/repositories/shop/reference.ts';
import { loadShop } from '../../db/repositories/shop/shops.ts';
import { subscriberPeriod } from '../../db/repositories/shop/subscribers.ts';
import { insertOrder, type NewOrder } from '../../db/repositories/shop/order-placement.ts';
import { linkChargeToOrder, markRenewalOrder, markRenewalOrderPaid, openRenewalOrder, payRenewalOrder, renewalCarry, type RenewalCarry } from '../../db/repositories/shop/renewal-orders.ts';
import { NO_GATEWAY } from '../../domain/shop/payment-gateway.ts';
import {
  activateFromOrder,
  chargeByKey,
  endSubscription,
  endSubscriptionsOfOrder,
  failedAttempts,
  freshCharge,
  inactiveSubscribersOfOrder,
  gatewaySettings,
  loadSubscriberState,
  recordCharge,
  renewFromCharge,
  soldProducts,
  subscriptionLinksOf,
  type SubscriberState,
} from '../../db/repositories/shop/subscriber-billing.ts';
import { DEFAULT_MAIL_ENDPOINTS } from '../../domain/shared/mail-endpoints.ts';
import { done, skipped, type EffectOutcome } from '../../domain/shop/effects.ts';
import { priceCart, type PricedCart } from '../../domain/shop/pricing.ts';
import { planEmailKindOf, planReminders, planSends, subscriberMail, type SubscriberMailKind } from '../../domain/shop/subscription-mails.ts';
import { planEmail } from '../../db/repositories/shop/subscription-plan-emails.ts';
import { chargeKey, chargeKeyPrefix, DAY_MS, nextPeriod, REMINDER_OFFSETS_MS, renewalIntervalDays, type RenewalSchedule } from '../../domain/shop/subscription-periods.ts';
import type { SubscriberStatus } from '../../domain/shop/subscription-rules.ts';
import { unitsOfWork, type ActivityDb, type ActivityDeps } from '../shared/deps.ts';
import { renewalCharges } from '../shared/metrics.ts';
import { shopGateway, type GatewayFor } from './shop-gateway.ts';
import { secretsKeyFrom } from '../../adapters/secrets/secret-box.ts';
import type { OrderEffectInput } from './order-effects.ts';
import { sendShopMailOnce } from './shop-mail-send.ts';
import { internalStatusAt, isLive } from '../../domain/shop/order-lifecycle.ts';

export interface SubscriberRef {
  shopId: string;
  subscriberId: number;
}

/** What the renewal workflow runs on: the schedule of the latest period, in milliseconds. */
export interface RenewalFacts extends RenewalSchedule {
  status: SubscriberStatus;
  periodId: number;
}

export type ChargeOutcome =
  | { status: 'approved'; chargeId: number }
  /** No gateway: the renewal order `orderId` awaits payment (placed by the first attempt); clearing it renews. */
  | { status: 'unpaid'; chargeId: number; orderId: number }
  | { status: 'declined'; chargeId: number; reason: string }
  /** Not charged: the subscriber is paused or no longer active, or the period was renewed meanwhile. */
  | { status: 'skipped'; reason: string };

/** The clearing's `subscription` effect: what the workflow starts and signals, then records. */
export interface SubscriptionActivation {
  outcome: EffectOutcome;
  subscriberIds: number[];
  endedIds: number[];
  /** Running manual-plan subscribers whose period the order extended (optional: activations recorded before issue 22). */
  extendedIds?: number[];
}

export type { SubscriberMailKind };

export type { GatewayFor };

/** The sender of a shop that has neither a sender nor an `admin_email` (the mail is still recorded and sent). */
const NO_SENDER_ADDRESS = 'no-reply@shop.invalid';

/** The buyer's first and last name from the subscription's first order (invoice address, else delivery address). */
async function subscriberName(em: EntityManager, orderId: number | null): Promise<{ firstName: string; lastName: string }> {
  const order = orderId ? await orderAddresses(em, orderId) : null;
  const address = order?.invoiceAddress?.first_name ? order.invoiceAddress : (order?.deliveryAddress ?? {});
  return { firstName: address.first_name ?? '', lastName: address.last_name ?? '' };
}

/** A renewal order as placed from the charge's cart: the first order's addresses and types, paid or (no gateway) awaiting payment. */
function renewalOrder(shopId: string, state: SubscriberState, carry: RenewalCarry, o: { cart: PricedCart; currency: string; statusId: number; at: Date; paid: boolean }): NewOrder {
  return {
    shopId,
    currency: o.currency,
    statusId: o.statusId,
    email: state.subscriber.email,
    cart: o.cart,
    delivery: carry.delivery && { id: carry.delivery.id, name: carry.delivery.name, vatRate: carry.delivery.vatRate },
    payment: carry.payment && { id: carry.payment.id, name: carry.payment.name, vatRate: carry.payment.vatRate, cashOnDelivery: carry.payment.cashOnDelivery },
    newsletter: false,
    ...carry.order,
    comment: '',
    ref: null,
    placedIp: null,
    placedAt: o.at,
    alreadyPaid: o.paid,
  };
}

/** The period a renewal paid at `paidAt` buys (the plan's extension strategy, the subscriber's or the link's interval). */
function renewalPeriod(state: SubscriberState, paidAt: Date): { start: Date; end: Date } {
  const days = renewalIntervalDays(state.subscriber.renewalIntervalDays, state.link?.interval ?? 30);
  const next = nextPeriod({ strategy: state.plan.extensionStrategy, paidAt: paidAt.getTime(), previousEnd: state.period?.endsAt.getTime() ?? null, intervalMs: days * DAY_MS });
  return { start: new Date(next.start), end: new Date(next.end) };
}

const notFound = (id: number) => ApplicationFailure.nonRetryable(`subscriber ${id} not found`, 'SubscriberNotFound');

/**
 * The renewal items priced for a renewal order (override or catalogue price), with the first
 * order's delivery and payment types at their current price; a refusal names why.
 */
function renewalCart(state: SubscriberState, products: Map<number, IProduct>, carry: RenewalCarry): { cart: PricedCart } | { refused: string } {
  const items = state.subscriber.renewalItems;
  if (items.length === 0) return { refused: 'the subscriber has no renewal items' };
  const gone = items.filter((item) => !products.has(item.product_id)).map((item) => item.product_id);
  if (gone.length > 0) return { refused: `products ${gone.join(', ')} are no longer sold` };
  const priced = priceCart({
    lines: items.map((item) => {
      const product = products.get(item.product_id)!;
      return {
        product: {
          id: product.id,
          name: product.name,
          sku: product.sku,
          price: item.price ?? product.price,
          vatRate: product.vatRate,
          active: true,
          allowPriceChange: false,
          minimalPrice: null,
          allowZeroMinimalPrice: true,
          electronic: product.electronic,
          deliveryTypeIds: [],
          paymentTypeIds: [],
          cartQuantityLimit: null,
        },
        quantity: item.quantity,
      };
    }),
    delivery: carry.delivery,
    payment: carry.payment,
  });
  return priced.ok ? { cart: priced.cart } : { refused: priced.errors.map((e) => `${e.field} ${e.message}`).join('; ') };
}

/**
 * The subscriber renewal (issue 12): the schedule the workflow runs on, the charge through the
 * shop's gateway, the renewal order and next period, the end of a subscription, its mails, and its
 * activation by a cleared order. Every step is idempotent: a retried or replayed activity finds
 * what it did before (charge key, charge's order, mail key, the order's subscriber).
 */
export function subscriberRenewalActivities(
  { orm, now = () => new Date(), mailEndpoints = DEFAULT_MAIL_ENDPOINTS, secretsKey, integrationEndpoints }: ActivityDeps,
  gatewayFor: GatewayFor = shopGateway(secretsKey ?? secretsKeyFrom(undefined, () => undefined), integrationEndpoints?.stripeApiUrl),
  db: ActivityDb = unitsOfWork(orm),
) {
  const { orderFacts, recordedEffect } = db.reads;
  async function facts(em: EntityManager, subscriberId: number): Promise<RenewalFacts> {
    const state = await loadSubscriberState(em, subscriberId);
    if (!state?.period) throw notFound(subscriberId);
    const { subscriber, plan, period, link } = state;
    const settings = await gatewaySettings(em);
    return {
      status: subscriber.status,
      periodId: period.id,
      period: { start: period.startsAt.getTime(), end: period.endsAt.getTime() },
      paused: subscriber.renewalPaused,
      renewalsDone: subscriber.renewalsDone,
      renewalsLimit: link?.renewalsLimit ?? 0,
      reminders: planReminders(plan),
      reminderOffsetsMs: REMINDER_OFFSETS_MS,
      dunningMs: settings.dunningDays.map((days) => days * DAY_MS),
      automaticRenewal: plan.automaticRenewal,
      failedAttempts: await failedAttempts(em, subscriberId, chargeKeyPrefix({ shopId: subscriber.shop.id, subscriberId, periodId: period.id, periodEnd: period.endsAt.getTime() })),
    };
  }

  /**
   * No gateway (DESIGN.md section 10): nothing is charged. The period's first attempt places the
   * renewal order unpaid at New (its confirmation asks for payment); later attempts find it still
   * unpaid. Each is an `unpaid` attempt linked to that order, written with it in one transaction.
   */
  function awaitPayment(em: EntityManager, input: SubscriberRef & { periodId: number; attempt: number }, key: string, o: { state: SubscriberState; carry: RenewalCarry; cart: PricedCart; currency: string }) {
    return em.transactional(async (tx) => {
      const at = now();
      let orderId = await openRenewalOrder(tx, input.subscriberId, input.periodId);
      if (orderId === null) {
        ({ id: orderId } = await insertOrder(tx, renewalOrder(input.shopId, o.state, o.carry, { cart: o.cart, currency: o.currency, statusId: await newStatusId(tx, input.shopId), at, paid: false })));
        await markRenewalOrder(tx, input.shopId, orderId, o.state.subscriber.serviceRef);
      }
      const charge = await recordCharge(tx, {
        shopId: input.shopId,
        subscriberId: input.subscriberId,
        periodId: input.periodId,
        attempt: input.attempt,
        key,
        amount: o.cart.total,
        currency: o.currency,
        cart: o.cart,
        result: { status: 'unpaid', reason: `no payment gateway: renewal order ${orderId} awaits payment` },
        at,
      });
      await linkChargeToOrder(tx, charge.id, orderId);
      renewalCharges.inc({ outcome: 'unpaid' });
      return freshCharge(tx, charge.id);
    });
  }

  return {
    async loadRenewalSchedule({ shopId, subscriberId }: SubscriberRef): Promise<RenewalFacts> {
      return facts(db.shopEm(shopId), subscriberId);
    },

    /**
     * Attempt `attempt` of renewing period `periodId` ending at `periodEnd`: prices the renewal items and charges the
     * saved payment, once per (subscriber, period, attempt) key. A product no longer sold or a
     * missing saved payment is a declined attempt without a gateway call.
     */
    async chargeRenewal(input: SubscriberRef & { periodId: number; periodEnd: number; attempt: number }): Promise<ChargeOutcome> {
      const em = db.shopEm(input.shopId);
      const key = chargeKey(input);
      const answer = (charge: ISubscriberCharge): ChargeOutcome =>
        charge.status === 'approved'
          ? { status: 'approved', chargeId: charge.id }
          : charge.status === 'unpaid'
            ? { status: 'unpaid', chargeId: charge.id, orderId: charge.order!.id }
            : { status: 'declined', chargeId: charge.id, reason: charge.declineReason ?? '' };
      const existing = await chargeByKey(em, key);
      if (existing) return answer(existing);
      const state = await loadSubscriberState(em, input.subscriberId);
      if (!state?.period) throw notFound(input.subscriberId);
      const skip = (reason: string): ChargeOutcome => {
        renewalCharges.inc({ outcome: 'skipped' });
        return { status: 'skipped', reason };
      };
      if (state.subscriber.status !== 'active') return skip(`the subscription is ${state.subscriber.status}`);
      if (state.subscriber.renewalPaused) return skip('renewal is paused');
      if (state.period.id !== input.periodId) return skip('the period was renewed already');
      if (state.period.endsAt.getTime() !== input.periodEnd) return skip('the period end moved');
      const shop = await loadShop(em, input.shopId);
      const products = new Map((await soldProducts(em, state.subscriber.renewalItems.map((i) => i.product_id))).map((p) => [p.id, p]));
      const carry = await renewalCarry(em, state);
      const priced = renewalCart(state, products, carry);
      const cart = 'cart' in priced ? priced.cart : null;
      if ((await gatewaySettings(em)).mode === NO_GATEWAY && cart) return answer(await awaitPayment(em, input, key, { state, carry, cart, currency: shop.currency }));
      const reference = state.subscriber.paymentReference;
      const result =
        'refused' in priced
          ? ({ status: 'declined', reason: priced.refused } as const)
          : !reference
            ? ({ status: 'declined', reason: 'no saved payment' } as const)
            : await (await gatewayFor(em)).charge({
                idempotencyKey: key,
                amount: cart!.total,
                currency: shop.currency,
                paymentReference: reference,
                description: `Renewal of ${state.plan.name} (${state.subscriber.serviceRef})`,
              });
      const charge = await recordCharge(em, {
        shopId: input.shopId,
        subscriberId: input.subscriberId,
        periodId: input.periodId,
        attempt: input.attempt,
        key,
        amount: cart?.total ?? '0.00',
        currency: shop.currency,
        cart,
        result,
        at: now(),
      });
      renewalCharges.inc({ outcome: charge.status });
      return answer(charge);
    },

    /**
     * What an approved charge buys: the renewal order (priced lines of the charge, paid, at the
     * Paid status, `subscriber_identifier` = the subscriber's service_ref, the first order's
     * addresses and types) and
     * the next period, from the payment (`immediate`) or from the previous end (`continuous`).
     */
    async renewSubscriber({ shopId, subscriberId, chargeId }: SubscriberRef & { chargeId: number }): Promise<{ orderId: number; periodId: number }> {
      const em = db.shopEm(shopId);
      const renewed = await renewFromCharge(
        em,
        {
          subscriberId,
          chargeId,
          nextPeriod: (state, charge) => renewalPeriod(state, charge.at),
        },
        async (tx, state, charge) => {
          const carry = await renewalCarry(tx, state);
          const { id: orderId } = await insertOrder(tx, renewalOrder(shopId, state, carry, { cart: charge.cart!, currency: charge.currency, statusId: await paidStatusId(tx, shopId), at: charge.at, paid: true }));
          await markRenewalOrderPaid(tx, shopId, orderId, charge);
          await markRenewalOrder(tx, shopId, orderId, state.subscriber.serviceRef);
          return orderId;
        },
      );
      if (!renewed) throw ApplicationFailure.nonRetryable(`charge ${chargeId} of subscriber ${subscriberId} is not an approved charge`, 'SubscriberNotFound');
      return renewed;
    },

    /** Ends the subscription (`expired` after dunning, `ended` at the renewal limit) and answers the schedule. */
    async endSubscriber({ shopId, subscriberId, status }: SubscriberRef & { status: 'expired' | 'ended' }): Promise<RenewalFacts> {
      const em = db.shopEm(shopId);
      await endSubscription(em, subscriberId, status, now());
      return facts(em, subscriberId);
    },

    /**
     * One mail of the subscriber about period `periodId`, once per kind and period, when the plan
     * sends it: the plan's own text or the built-in Polish one, the period end as a day in the
     * shop's time zone, from the shop's first sender or else its `admin_email`.
     */
    async sendSubscriberMail({ shopId, subscriberId, periodId, kind }: SubscriberRef & { periodId: number; kind: SubscriberMailKind }): Promise<string> {
      const em = db.shopEm(shopId);
      const state = await loadSubscriberState(em, subscriberId);
      if (!state) throw notFound(subscriberId);
      if (!planSends(state.plan, kind)) return `the plan does not send ${kind} mails`;
      const period = await subscriberPeriod(em, subscriberId, periodId);
      const until = period?.endsAt ?? state.period?.endsAt ?? now();
      const shop = await loadShop(em, shopId);
      const sender = await firstSender(em);
      const planKind = planEmailKindOf(kind);
      const planText = planKind ? await planEmail(em, state.plan.id, planKind) : null;
      const buyer = await subscriberName(em, state.subscriber.order?.id ?? null);
      const key = `subscriber/${subscriberId}/period/${periodId}/${kind}`;
      const { status } = await sendShopMailOnce(em, mailEndpoints, now(), {
        shopId,
        key,
        kind: 'subscription',
        messageId: `<shop-subscriber-${subscriberId}.${periodId}.${kind}.${shopId}@shop>`,
        to: state.subscriber.email,
        from: sender ? { address: sender.email, name: sender.name } : { address: shop.adminEmail ?? NO_SENDER_ADDRESS, name: shop.name },
        ...subscriberMail(kind, { planName: state.plan.name, until, timeZone: shop.timeZone, shopName: shop.name, email: state.subscriber.email, ...buyer }, planText),
      });
      return `${kind} mail to ${state.subscriber.email} ${status}`;
    },

    /**
     * A status change's `subscription` effect: an order moved to a canceled or returned status stops
     * the subscriptions it started (ended; the workflow signals their renewal runs). Other statuses
     * have nothing to stop and record nothing (null outcome).
     */
    async stopOrderSubscriptions(input: OrderEffectInput & { statusId: number }): Promise<{ outcome: EffectOutcome | null; endedIds: number[] }> {
      const em = db.shopEm(input.shopId);
      const status = await findOrderStatus(em, input.statusId);
      if (!status || isLive(internalStatusAt(status.kind))) return { outcome: null, endedIds: [] };
      const recorded = await recordedEffect(em, { ...input, effect: 'subscription' });
      const endedNow = await endSubscriptionsOfOrder(em, input.shopId, input.orderId, now());
      // A retry finds them ended already: all of them are signalled again (a no-op for a finished run).
      const endedIds = await inactiveSubscribersOfOrder(em, input.shopId, input.orderId);
      if (recorded && recorded.status !== 'failed') return { outcome: recorded, endedIds };
      return { outcome: endedNow.length ? done(`subscribers ${endedNow.join(', ')} ended: the order is ${internalStatusAt(status.kind)}`) : skipped('the order started no active subscription'), endedIds };
    },

    /**
     * The clearing's `subscription` effect: a subscriber and first period for each product of a
     * subscription plan in the order (once per order and product; a manual plan's running
     * subscription of the same address is extended instead), the superseded plans'
     * subscriptions of the customer ended. A renewal order (its `subscriber_identifier` set) never
     * creates a subscriber.
     */
    async activateSubscriptions(input: OrderEffectInput): Promise<SubscriptionActivation> {
      const em = db.shopEm(input.shopId);
      const facts = await orderFacts(em, input.orderId);
      if (!facts) throw ApplicationFailure.nonRetryable(`order ${input.orderId} not found`, 'OrderNotFound');
      const { order, items } = facts;
      if (order.subscriberIdentifier) {
        // An unpaid renewal order (no gateway) cleared: its period starts now; the run reads it.
        const paid = await em.transactional((tx) => payRenewalOrder(tx, order.id, order.paidAt ?? now(), (id) => loadSubscriberState(tx, id, true), renewalPeriod));
        if (paid) return { outcome: done(`subscriber ${paid.subscriberId} renewed by this order (period ${paid.periodId})`), subscriberIds: [], endedIds: [], extendedIds: [paid.subscriberId] };
        return { outcome: skipped(`a renewal order of subscriber ${order.subscriberIdentifier}`), subscriberIds: [], endedIds: [], extendedIds: [] };
      }
      const links = await subscriptionLinksOf(em, input.shopId, items.flatMap((item) => (item.productId ? [item.productId] : [])));
      if (links.length === 0) return { outcome: skipped('no product of a subscription plan'), subscriberIds: [], endedIds: [], extendedIds: [] };
      const recorded = await recordedEffect(em, { ...input, effect: 'subscription' });
      const activation = await activateFromOrder(
        em,
        order,
        items,
        links.map((link) => ({ productId: link.product.id, interval: link.interval, plan: link.plan.getEntity() })),
        now(),
      );
      const outcome = recorded && recorded.status !== 'failed' ? recorded : done(`subscribers ${activation.subscriberIds.join(', ')} of plans ${[...new Set(links.map((l) => l.plan.getEntity().name))].join(', ')}`);
      return { outcome, ...activation };
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<SubscriberRenewalActivities>(profile)` (workflows/shared/activities-of.ts). */
export type SubscriberRenewalActivities = ReturnType<typeof subscriberRenewalActivities>;
