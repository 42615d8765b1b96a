import type { EntityManager } from '@mikro-orm/postgresql';
import { filesOfOrders, type OrderFile } from '../../../domain/access/order-files.ts';
import type { OrderItem } from '../../../domain/access/order-contents.ts';

/**
 * The files a person holds on the platform: those of their fulfilled orders that are not
 * cancelled (issue 40 item 5). Read from the orders themselves, so a cancellation withdraws an
 * order's files at once and a file another active order gives stays.
 */
export async function activeOrderFilesOf(em: EntityManager, platformId: string, email: string): Promise<OrderFile[]> {
  const rows: { ordered_contents: OrderItem[] }[] = await em.execute(
    `select ordered_contents from orders
      where platform_id = ? and lower(email) = lower(?) and status = 'registered' and fulfilled_at is not null
      order by created_at, seq`,
    [platformId, email],
  );
  return filesOfOrders(rows.map((r) => r.ordered_contents));
}
