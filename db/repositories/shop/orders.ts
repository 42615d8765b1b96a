/**
 * Orders of a shop: what placing reads (products, delivery and payment types, the New status),
 * the placing write (ordinal number and rows in one transaction) and the detail (the list:
 * order-list.ts). The entity manager is scoped to the shop.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { DeliveryType, Order, OrderItem, OrderStatus, PaymentType, Product, type IOrder, type IOrderItem } from '../../entities/shop/index.ts';
import type { OrderAddress } from '../../../domain/shop/order.ts';
import type { PricedCart } from '../../../domain/shop/pricing.ts';
import { money } from '../../../domain/shared/money.ts';
import { countCodeUse, DiscountCodeRefused } from './discount-codes.ts';
import { countAutomaticDiscountUses } from './checkout.ts';

/** The shop's products among `ids` that a cart may hold (a hidden product counts as deleted). */
export function productsForCart(em: EntityManager, ids: number[]) {
  return em.find(Product, { id: { $in: ids }, hidden: false });
}

/** A delivery type of the shop that buyers may choose now; null when unknown, foreign or inactive. */
export function activeDeliveryType(em: EntityManager, id: number) {
  return em.findOne(DeliveryType, { id, active: true });
}

export function activePaymentType(em: EntityManager, id: number) {
  return em.findOne(PaymentType, { id, active: true });
}

/** The status every placed order starts at (made with the shop). */
export function newOrderStatus(em: EntityManager) {
  return em.findOneOrFail(OrderStatus, { kind: 'NewDefaultOrderStatus' });
}

/** The id of the shop's built-in Paid status (set by clearing and by a paid renewal). */
export async function paidStatusId(em: EntityManager, shopId: string): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>("select id from shop_order_statuses where shop_id = ? and kind = 'PaidDefaultOrderStatus'", [shopId]);
  if (!row) throw new Error(`shop ${shopId} has no Paid status`);
  return row.id;
}

export interface NewOrder {
  shopId: string;
  /** The order's secret `uuid` (a storefront cart's id); a random one when unset. */
  uuid?: string;
  currency: string;
  statusId: number;
  email: string;
  cart: PricedCart;
  delivery: { id: number; name: string; vatRate: number } | null;
  payment: { id: number; name: string; vatRate: number; cashOnDelivery: boolean } | null;
  newsletter: boolean;
  deliveryAddress: OrderAddress | null;
  invoiceAddress: OrderAddress | null;
  comment: string;
  ref: string | null;
  placedIp: string | null;
  placedAt: Date;
  /** The discount code applied: its use is counted in the order's transaction (limits in total and per customer). */
  discount?: { id: number; code: string; perCustomerLimit: number | null } | null;
  /** The automatic discounts the order got: one use of each is counted in the order's transaction. */
  automaticDiscountIds?: readonly number[];
  /** The catalogue price each product was priced at: a product whose price changed since refuses the insert (ProductPricesChanged). */
  pricedAt?: ReadonlyMap<number, string>;
  /**
   * The order records a payment already taken (a subscription renewal): a product switched off or
   * hidden since the charge is still recorded, since refusing would leave a charge without its order.
   */
  alreadyPaid?: boolean;
}

/** Products of the cart that were removed, hidden or switched off while the order was priced. */
export class ProductsUnavailable extends Error {
  constructor(readonly productIds: number[]) {
    super(`products ${productIds.join(', ')} are no longer available`);
  }
}

/** Products whose catalogue price changed (a time-limited discount began or ended, an owner's edit) after the cart was priced: price it again. */
export class ProductPricesChanged extends Error {
  constructor(readonly productIds: number[]) {
    super(`the prices of products ${productIds.join(', ')} changed while the order was priced`);
  }
}

/**
 * Stores a priced order. The shop's counter is taken with `UPDATE ... RETURNING` in the same
 * transaction as the insert: the row lock makes concurrent placements wait for each other, so no
 * two orders share a number, and a failed insert gives its number back.
 */
export async function insertOrder(em: EntityManager, input: NewOrder): Promise<number> {
  return em.transactional(async (tx) => {
    // tx.execute, not tx.getConnection().execute: only the former runs inside the transaction.
    const [counter] = await tx.execute<{ n: number }[]>('update shops set next_ordinal_number = next_ordinal_number + 1 where id = ? returning next_ordinal_number - 1 as n', [input.shopId]);
    const { cart, discount } = input;
    // The products stay as priced until this order is stored: a concurrent DELETE (which locks the
    // product FOR UPDATE and checks for orders after) waits, then finds this order and hides the
    // product; a product removed, hidden or switched off in the meantime refuses the placement, and
    // one whose price changed since it was priced asks for pricing again. Locked in id order, the
    // order every product lock takes (time-limited discounts too), so no deadlock.
    const productIds = [...new Set(cart.lines.map((line) => line.productId))].sort((a, b) => a - b);
    const available = await tx.execute<{ id: number; price: string }[]>(
      `select id, price from shop_products where shop_id = ? and id in (${productIds.map(() => '?').join(', ')}) ${input.alreadyPaid ? '' : 'and active and not hidden'} order by id for share`,
      [input.shopId, ...productIds],
    );
    if (available.length !== productIds.length) {
      const gone = productIds.filter((id) => !available.some((row) => row.id === id));
      throw new ProductsUnavailable(gone);
    }
    const { pricedAt } = input;
    const repriced = pricedAt ? available.filter((row) => pricedAt.has(row.id) && !money(row.price).equals(pricedAt.get(row.id)!)) : [];
    if (repriced.length > 0) throw new ProductPricesChanged(repriced.map((row) => row.id));
    if (discount) {
      const refused = await countCodeUse(tx, input.shopId, discount.id, input.email, discount.perCustomerLimit);
      if (refused) throw new DiscountCodeRefused(refused);
    }
    await countAutomaticDiscountUses(tx, input.shopId, input.automaticDiscountIds ?? []);
    const order = tx.create(Order, {
      shop: input.shopId,
      uuid: input.uuid ?? randomUUID(),
      ordinalNumber: counter!.n,
      internalStatus: 'placed',
      orderStatus: input.statusId,
      email: input.email,
      currency: input.currency,
      productsCost: cart.productsCost,
      deliveryCost: cart.deliveryCost,
      paymentCost: cart.paymentCost,
      giftPackingCost: cart.giftPackingCost,
      totalDiscount: cart.totalDiscount,
      total: cart.total,
      deliveryTypeId: input.delivery?.id ?? null,
      deliveryMethod: input.delivery?.name ?? null,
      deliveryVatRate: input.delivery?.vatRate ?? null,
      paymentTypeId: input.payment?.id ?? null,
      paymentMethod: input.payment?.name ?? null,
      paymentVatRate: input.payment?.vatRate ?? null,
      cashOnDelivery: input.payment?.cashOnDelivery ?? false,
      discountCode: discount?.code ?? null,
      discountCodeId: discount?.id ?? null,
      ref: input.ref,
      comment: input.comment,
      deliveryAddress: input.deliveryAddress,
      invoiceAddress: input.invoiceAddress,
      placedIp: input.placedIp,
      orderAttributes: [],
      notes: [],
      newsletter: input.newsletter,
      placedAt: input.placedAt,
    });
    for (const line of cart.lines) {
      tx.create(OrderItem, {
        shop: input.shopId,
        order,
        productId: line.productId,
        name: line.name,
        sku: line.sku,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        vatRate: line.vatRate,
        price: line.price,
        discount: line.discount,
        finalPrice: line.finalPrice,
        electronic: line.electronic,
        subscriberIdentifiers: [],
        ref: input.ref,
      });
    }
    await tx.flush();
    return order.id;
  });
}

export interface OrderWithItems {
  order: IOrder;
  items: IOrderItem[];
}

/** One order of the scoped shop with its status and lines; null when the shop has no such order. */
export async function findOrderDetail(em: EntityManager, id: number): Promise<OrderWithItems | null> {
  const order = await em.findOne(Order, id, { populate: ['orderStatus'] });
  if (!order) return null;
  const items = await em.find(OrderItem, { order: id }, { orderBy: { id: 'asc' } });
  return { order, items };
}

/** The order read anew from the database (not the identity map's copy), or null. */
export function freshOrder(em: EntityManager, id: number): Promise<IOrder | null> {
  return em.findOne(Order, id, { refresh: true });
}

/** Records the payment's transaction id on an order still unpaid (inside the payment's transaction). */
export async function recordOrderTransactionId(tx: EntityManager, shopId: string, orderId: number, transactionId: string): Promise<void> {
  await tx.execute('update shop_orders set transaction_id = ? where shop_id = ? and id = ? and paid = false', [transactionId, shopId, orderId]);
}
