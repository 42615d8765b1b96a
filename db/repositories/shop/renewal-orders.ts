/**
 * What a renewal order carries from the subscription's first order (DESIGN.md section 10, "No
 * money is taken that is not there"): its delivery and invoice addresses, its delivery type at the
 * type's current price and its payment type, so a physical subscription can be shipped; and the
 * unpaid renewal order of a shop without a gateway, paid later by clearing it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, Order, PaymentType, SubscriberCharge, SubscriberPeriod, type ISubscriberCharge } from '../../entities/shop/index.ts';
import type { ChargeType } from '../../../domain/shop/pricing.ts';
import type { NewOrder } from './order-placement.ts';
import type { SubscriberState } from './subscriber-billing.ts';
import { arrayLiteral } from '../shared/array-literal.ts';
import { unitIdentifiers } from '../../../domain/shop/order-lifecycle.ts';

export interface RenewalCarry {
  /** For pricing: the types at their current price (none when the first order had none, or it is gone). */
  delivery: (ChargeType & { name: string }) | null;
  payment: (ChargeType & { name: string; cashOnDelivery: boolean }) | null;
  /** For the order: what the first order was placed with. */
  order: Pick<NewOrder, 'deliveryAddress' | 'invoiceAddress' | 'deliveryPointCode' | 'invoiceRecipientName'>;
}

/** The first order's addresses and types, the types as they are now (a deleted type is left out). */
export async function renewalCarry(em: EntityManager, state: SubscriberState): Promise<RenewalCarry> {
  const firstId = state.subscriber.order?.id ?? null;
  const first = firstId ? await em.findOne(Order, firstId) : null;
  if (!first) return { delivery: null, payment: null, order: { deliveryAddress: null, invoiceAddress: null } };
  const [delivery, payment] = await Promise.all([
    first.deliveryTypeId ? em.findOne(DeliveryType, first.deliveryTypeId) : null,
    first.paymentTypeId ? em.findOne(PaymentType, first.paymentTypeId) : null,
  ]);
  return {
    delivery: delivery && { id: delivery.id, name: delivery.name, defaultPrice: delivery.defaultPrice, vatRate: delivery.vatRate },
    payment: payment && { id: payment.id, name: payment.name, defaultPrice: payment.defaultPrice, vatRate: payment.vatRate, cashOnDelivery: payment.cashOnDelivery },
    order: {
      deliveryAddress: first.deliveryAddress ?? null,
      invoiceAddress: first.invoiceAddress ?? null,
      deliveryPointCode: first.deliveryPointCode ?? null,
      invoiceRecipientName: first.invoiceRecipientName ?? '',
    },
  };
}

/** The renewal order of this period awaiting payment (the first unpaid attempt placed it); null before it. */
export async function openRenewalOrder(em: EntityManager, subscriberId: number, periodId: number): Promise<number | null> {
  const charge = await em.findOne(SubscriberCharge, { subscriber: subscriberId, period: periodId, status: 'unpaid', order: { $ne: null } }, { orderBy: { id: 'asc' } });
  return charge?.order?.id ?? null;
}

/** Links an unpaid attempt to the renewal order it placed or waits for. */
export async function linkChargeToOrder(em: EntityManager, chargeId: number, orderId: number): Promise<void> {
  await em.execute('update shop_subscriber_charges set order_id = ? where id = ? and order_id is null', [orderId, chargeId]);
}

/**
 * Clearing pays an unpaid renewal order: the subscriber's next period (from `nextPeriod`) and its
 * renewal counted, once (a repeat finds the period of the order).
 * Null when the order is no unpaid renewal of the subscriber's running period (any other order, a
 * subscription that ended meanwhile).
 */
export async function payRenewalOrder(
  em: EntityManager,
  orderId: number,
  at: Date,
  load: (subscriberId: number) => Promise<SubscriberState | null>,
  nextPeriod: (state: SubscriberState, paidAt: Date) => { start: Date; end: Date },
): Promise<{ subscriberId: number; periodId: number } | null> {
  // The attempts stay `unpaid` (the history of what each attempt found); the period names the order.
  const charge: ISubscriberCharge | null = await em.findOne(SubscriberCharge, { order: orderId, status: 'unpaid' }, { orderBy: { id: 'asc' } });
  if (!charge) return null;
  const subscriberId = charge.subscriber.id;
  const paid = await em.findOne(SubscriberPeriod, { subscriber: subscriberId, order: orderId });
  if (paid) return { subscriberId, periodId: paid.id };
  const state = await load(subscriberId);
  if (!state || state.subscriber.status !== 'active' || state.period?.id !== charge.period.id) return null;
  const { start, end } = nextPeriod(state, at);
  const period = em.create(SubscriberPeriod, { shop: state.subscriber.shop.id, subscriber: subscriberId, kind: 'renewal', startsAt: start, endsAt: end, order: orderId, createdAt: at });
  em.assign(state.subscriber, { renewalsDone: state.subscriber.renewalsDone + 1 });
  await em.flush();
  return { subscriberId, periodId: period.id };
}

/** Marks a renewal order as the subscriber's (`subscriber_identifier`, one identifier per unit, numbered per line as on the first order). */
export async function markRenewalOrder(tx: EntityManager, shopId: string, orderId: number, serviceRef: string): Promise<void> {
  await tx.execute('update shop_orders set subscriber_identifier = ? where shop_id = ? and id = ?', [serviceRef, shopId, orderId]);
  const lines = await tx.execute<{ id: number; quantity: number }[]>('select id, quantity from shop_order_items where shop_id = ? and order_id = ? order by id', [shopId, orderId]);
  for (const line of lines) {
    await tx.execute('update shop_order_items set subscriber_identifiers = ?::text[] where id = ?', [arrayLiteral(unitIdentifiers(serviceRef, line.quantity)), line.id]);
  }
}

/** A renewal order paid by an approved charge: paid and cleared at the charge's time, with the gateway's reference. */
export async function markRenewalOrderPaid(tx: EntityManager, shopId: string, orderId: number, charge: { at: Date; gatewayReference?: string | null }): Promise<void> {
  await tx.execute('update shop_orders set paid = true, paid_at = ?, cleared_at = ?, transaction_id = ? where shop_id = ? and id = ?', [
    charge.at,
    charge.at,
    charge.gatewayReference ?? null,
    shopId,
    orderId,
  ]);
}
