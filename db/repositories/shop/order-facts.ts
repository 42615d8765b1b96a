import type { EntityManager } from '@mikro-orm/postgresql';
import { ElectronicContent, Order, OrderItem, Shop } from '../../entities/shop/index.ts';

/** What the effects of an order's transitions read: the order, its lines, status and shop. */
export async function loadOrderFacts(em: EntityManager, orderId: number) {
  const order = await em.findOne(Order, orderId, { populate: ['orderStatus'] });
  if (!order) return null;
  const [items, shop] = await Promise.all([em.find(OrderItem, { order: orderId }, { orderBy: { id: 'asc' } }), em.findOneOrFail(Shop, order.shop.id)]);
  return { order, items, shop, status: order.orderStatus.getEntity() };
}

export type OrderFacts = NonNullable<Awaited<ReturnType<typeof loadOrderFacts>>>;
/** How an activity reads an order's facts: `loadOrderFacts`, or one step's shared read (`orderFactsOnce`). */
export type OrderFactsReader = (em: EntityManager, orderId: number) => Promise<OrderFacts | null>;

/**
 * The order's facts read once for the activities of one step (the clearing's, issue 26 item 1),
 * which read them only: each activity loaded the order, its lines, status and shop again. `forget`
 * after a write to the order (the invoice number the webhook bodies carry), so the next read is fresh.
 */
export function orderFactsOnce(): OrderFactsReader & { forget(): void } {
  const read = new Map<number, Promise<OrderFacts | null>>();
  const reader = (em: EntityManager, orderId: number) => {
    let facts = read.get(orderId);
    if (!facts) {
      facts = loadOrderFacts(em, orderId);
      read.set(orderId, facts);
      facts.catch(() => read.delete(orderId));
    }
    return facts;
  };
  return Object.assign(reader, { forget: () => read.clear() });
}

/** Which of these products are `no_invoice` (left out of the automatic invoice). */
export async function noInvoiceProductIds(em: EntityManager, productIds: readonly number[]): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  const rows = await em.execute<{ id: number }[]>('select id from shop_products where id = any(?::int[]) and no_invoice', [`{${[...new Set(productIds)].join(',')}}`]);
  return new Set(rows.map((row) => Number(row.id)));
}

export function contentsOfProducts(em: EntityManager, productIds: number[]) {
  return em.find(ElectronicContent, { product: { $in: productIds } }, { populate: ['file'], orderBy: { id: 'asc' } });
}

/** Takes the shop's next invoice number and writes it on the order, in one transaction; the existing number when it has one. */
export async function assignInvoiceNumber(em: EntityManager, shopId: string, orderId: number, format: (sequence: number) => string): Promise<string> {
  return em.transactional(async (tx) => {
    const [order] = await tx.execute<{ invoice_number: string | null }[]>('select invoice_number from shop_orders where shop_id = ? and id = ? for update', [shopId, orderId]);
    if (!order) throw new Error(`order ${orderId} of shop ${shopId} not found`);
    if (order.invoice_number) return order.invoice_number;
    const [counter] = await tx.execute<{ n: number }[]>('update shops set next_invoice_number = next_invoice_number + 1 where id = ? returning next_invoice_number - 1 as n', [shopId]);
    const number = format(counter!.n);
    await tx.execute('update shop_orders set invoice_number = ? where shop_id = ? and id = ?', [number, shopId, orderId]);
    return number;
  });
}

export interface NewDownloadCode {
  shopId: string;
  orderId: number;
  orderItemId: number;
  contentId: number;
  token: string;
  fileName: string;
  usagesToExpire: number;
  expiresAt: Date;
}

/** Inserts the codes that do not exist yet (one per order line and content); answers how many are new. */
export async function insertDownloadCodes(em: EntityManager, codes: NewDownloadCode[]): Promise<number> {
  let inserted = 0;
  for (const c of codes) {
    const rows = await em.execute<unknown[]>(
      `insert into shop_download_codes (shop_id, order_id, order_item_id, content_id, token, file_name, usages, usages_to_expire, expires_at, created_at)
       values (?, ?, ?, ?, ?, ?, 0, ?, ?, now()) on conflict (order_item_id, content_id) do nothing returning id`,
      [c.shopId, c.orderId, c.orderItemId, c.contentId, c.token, c.fileName, c.usagesToExpire, c.expiresAt],
    );
    inserted += rows.length;
  }
  return inserted;
}
