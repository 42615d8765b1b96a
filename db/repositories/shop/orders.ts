/**
 * Orders of a shop: what placing reads (products, delivery and payment types, the New status),
 * and the detail (the placing write: order-placement.ts; the list: order-list.ts). The entity
 * manager is scoped to the shop.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, Order, OrderItem, PaymentType, Product, type IOrder, type IOrderItem } from '../../entities/shop/index.ts';

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

/** The id of the shop's built-in Paid status (set by clearing and by a paid renewal). */
export function paidStatusId(em: EntityManager, shopId: string): Promise<number> {
  return builtInStatusId(em, shopId, 'PaidDefaultOrderStatus');
}

/** The shop's New status (where placing puts an order). */
export function newStatusId(em: EntityManager, shopId: string): Promise<number> {
  return builtInStatusId(em, shopId, 'NewDefaultOrderStatus');
}

async function builtInStatusId(em: EntityManager, shopId: string, kind: 'PaidDefaultOrderStatus' | 'NewDefaultOrderStatus'): Promise<number> {
  const [row] = await em.execute<{ id: number }[]>('select id from shop_order_statuses where shop_id = ? and kind = ?', [shopId, kind]);
  if (!row) throw new Error(`shop ${shopId} has no ${kind}`);
  return row.id;
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

/** One order of the scoped shop, or null. */
export function findOrder(em: EntityManager, id: number): Promise<IOrder | null> {
  return em.findOne(Order, id);
}

/** The order's invoice and delivery addresses only, or null. */
export function orderAddresses(em: EntityManager, id: number): Promise<Pick<IOrder, 'invoiceAddress' | 'deliveryAddress'> | null> {
  return em.findOne(Order, id, { fields: ['invoiceAddress', 'deliveryAddress'] });
}
