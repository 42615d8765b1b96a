import type { EntityManager } from '@mikro-orm/postgresql';
import { internalStatusAt } from '../../../domain/shop/order-lifecycle.ts';
import { ORDER_STATUS_KINDS } from '../../../domain/shop/order-statuses.ts';
import type { OrderListRecord } from '../../../domain/shop/order-document-types.ts';
import { runStatementArrays, statement } from '../shared/prepared.ts';
import { LIST_RECORD_COLUMNS, epochMs, listRecordOfColumns } from './order-list.ts';

/** `internal_status` of an order at status `s` (domain/shop/order-lifecycle.ts), as SQL. */
const INTERNAL_STATUS_OF_KIND = `case s.kind ${ORDER_STATUS_KINDS.map((kind) => `when '${kind}' then '${internalStatusAt(kind)}'`).join(' ')} else 'placed' end`;

/** The cleared order as the list shows it, and when it was cleared. */
export interface ClearedOrder {
  order: OrderListRecord;
  clearedAt: Date;
}

/**
 * Clears a placed, unpaid order with a total above zero, in one statement: of concurrent clears
 * exactly one changes the row. Sets paid, `paid_at`, `cleared_at` and the shop's Paid status, and
 * answers the order's list record as it now is (the clear's reply).
 * Null when nothing changed (already paid, zero total, or not this shop's order).
 */
export async function markOrderCleared(em: EntityManager, shopId: string, orderId: number, now: Date): Promise<ClearedOrder | null> {
  const [row] = await runStatementArrays(
    em,
    statement(
      null,
      `with cleared as (
         update shop_orders o set paid = true, paid_at = coalesce(o.paid_at, :now), cleared_at = :now, updated_at = :now,
           order_status_id = (select s.id from shop_order_statuses s where s.shop_id = o.shop_id and s.kind = 'PaidDefaultOrderStatus')
         where o.shop_id = :shop and o.id = :order and o.paid = false and o.internal_status = 'placed' and o.total > 0
         returning o.*)
       select ${epochMs('o.cleared_at')} as "clearedAt", ${LIST_RECORD_COLUMNS}
         from cleared o left join shop_order_statuses s on s.id = o.order_status_id`,
      { now, shop: shopId, order: orderId },
    ),
  );
  if (!row) return null;
  const [clearedAt, ...columns] = row;
  return { order: listRecordOfColumns(columns), clearedAt: new Date(clearedAt as number) };
}

/** Why an order cannot be cleared: it is paid already, its total is zero, or it is not placed. */
export async function clearRefusal(em: EntityManager, shopId: string, orderId: number): Promise<'missing' | 'paid' | 'zero' | 'not_placed'> {
  const rows = await em.execute<{ paid: boolean; total: string; internal_status: string }[]>('select paid, total, internal_status from shop_orders where shop_id = ? and id = ?', [shopId, orderId]);
  const order = rows[0];
  if (!order) return 'missing';
  if (order.paid) return 'paid';
  if (Number(order.total) <= 0) return 'zero';
  return 'not_placed';
}

export interface StatusChange<R = null> {
  /** The change's id: the key of its workflow. */
  changeId: number;
  /** False when the order already had the status: `changeId` is then the change that set it (null if none did). */
  changed: boolean;
  /** What `recordEffects` answered for a new change (null when nothing changed). */
  recorded: R | null;
}

/**
 * Sets an order's status and records the change, in one transaction with the order row locked.
 * The built-in Canceled and Returned statuses make the order `canceled` and `returned`; any other
 * status makes it `placed` again (domain/shop/order-lifecycle.ts).
 * A new change's effects are recorded by `recordEffects` in the same transaction (the workflow
 * start's outbox row), so they exist exactly when the change committed. When the order already has
 * that status nothing changes (nothing is recorded), and the answer names the change that set it.
 */
export async function recordStatusChange<R = null>(
  em: EntityManager,
  shopId: string,
  orderId: number,
  statusId: number,
  recordEffects?: (tx: EntityManager, changeId: number) => Promise<R>,
): Promise<StatusChange<R> | null> {
  return em.transactional(async (tx) => {
    const [order] = await tx.execute<{ order_status_id: number }[]>('select order_status_id from shop_orders where shop_id = ? and id = ? for update', [shopId, orderId]);
    if (!order) return null;
    if (order.order_status_id === statusId) {
      const [last] = await tx.execute<{ id: number; to_status_id: number }[]>(
        'select id, to_status_id from shop_order_status_changes where shop_id = ? and order_id = ? order by id desc limit 1',
        [shopId, orderId],
      );
      return last && last.to_status_id === statusId ? { changeId: last.id, changed: false, recorded: null } : null;
    }
    await tx.execute(
      `update shop_orders set order_status_id = s.id, internal_status = ${INTERNAL_STATUS_OF_KIND}, updated_at = now()
       from shop_order_statuses s where s.id = ? and s.shop_id = shop_orders.shop_id and shop_orders.shop_id = ? and shop_orders.id = ?`,
      [statusId, shopId, orderId],
    );
    const [change] = await tx.execute<{ id: number }[]>(
      'insert into shop_order_status_changes (shop_id, order_id, from_status_id, to_status_id, at) values (?, ?, ?, ?, now()) returning id',
      [shopId, orderId, order.order_status_id, statusId],
    );
    return { changeId: change!.id, changed: true, recorded: recordEffects ? await recordEffects(tx, change!.id) : null };
  });
}
