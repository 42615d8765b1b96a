import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderItem } from '../../entities/shop/index.ts';
import type { Sql } from '../shared/pooled-transaction.ts';
import { intArray } from '../shared/array-literal.ts';

/** What the effects of an order's transitions read: the order, its lines, status and shop. */
export async function loadOrderFacts(em: EntityManager, orderId: number) {
  // The status and the shop joined in the order's statement.
  const order = await em.findOne(Order, orderId, { populate: ['orderStatus', 'shop'] });
  if (!order) return null;
  // The order's shop named here, not by the filter: the filter would join the order again for its shop.
  const items = await em.find(OrderItem, { order: orderId, shop: order.shop.id }, { orderBy: { id: 'asc' }, filters: false });
  return { order, items, shop: order.shop.getEntity(), status: order.orderStatus.getEntity() };
}

export type OrderFacts = NonNullable<Awaited<ReturnType<typeof loadOrderFacts>>>;

/** What a download code is made of: the electronic contents of these products with their file's name, oldest first. */
export interface ProductContent {
  id: number;
  productId: number;
  fileName: string;
  daysToExpire: number;
  usagesToExpire: number;
}

/** `ProductContent` of the shop's products, in one plain statement (every clearing asks). */
export function contentsOfProducts(sql: Sql, shopId: string, productIds: readonly number[]): Promise<ProductContent[]> {
  return sql.execute<ProductContent[]>(
    `select c.id, c.product_id as "productId", f.filename as "fileName", c.days_to_expire as "daysToExpire", c.usages_to_expire as "usagesToExpire"
       from shop_electronic_contents c join shop_files f on f.id = c.file_id
      where c.shop_id = ? and c.product_id = any(?::int[]) order by c.id`,
    [shopId, intArray(productIds)],
  );
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
