import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../shared/pooled-transaction.ts';
import type { OrderItem } from '../../../domain/access/order-contents.ts';

/** The access interface's orders (table `orders`) as fulfilment and cancellation use them, inside the caller's transaction. */

/** The order's status, share-locked so a cancellation cannot commit in between; undefined when unknown. */
export async function orderStatusForShare(tx: Sql, platformId: string, orderId: string): Promise<string | undefined> {
  const rows: { status: string }[] = await tx.execute('select status from orders where id = ? and platform_id = ? for share', [orderId, platformId]);
  return rows[0]?.status;
}

/** Locks the order for this transaction; false when the platform has no such order. */
export async function lockOrder(tx: EntityManager, platformId: string, orderId: string): Promise<boolean> {
  const rows: unknown[] = await tx.execute('select 1 from orders where id = ? and platform_id = ? for update', [orderId, platformId]);
  return rows.length > 0;
}

/** What `order_fulfilled` reports of the order. */
export interface FulfilledOrder {
  external_id: string;
  ordinal_number: string | null;
  gift_code: string | null;
  ordered_contents: OrderItem[];
}

/** Marks a still-registered, unfulfilled order fulfilled in one statement; what the event reports, or undefined when nothing changed. */
export async function markOrderFulfilled(tx: Sql, platformId: string, orderId: string): Promise<FulfilledOrder | undefined> {
  const rows: FulfilledOrder[] = await tx.execute(
    `update orders set fulfilled_at = now()
      where id = ? and platform_id = ? and status = 'registered' and fulfilled_at is null
     returning external_id, ordinal_number, gift_code, ordered_contents`,
    [orderId, platformId],
  );
  return rows[0];
}

/** The order's (normalised) e-mail: whom its fulfilment grants to; undefined when the platform has no such order. */
export async function orderEmail(tx: Sql, platformId: string, orderId: string): Promise<string | undefined> {
  const rows: { email: string }[] = await tx.execute('select email from orders where id = ? and platform_id = ?', [orderId, platformId]);
  return rows[0]?.email;
}
