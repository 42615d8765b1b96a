import type { EntityManager } from '@mikro-orm/postgresql';
import { automaticRulesAfterIn, type AutomaticStatusRule } from '../../../domain/shop/automatic-status.ts';
import type { Sql } from '../shared/pooled-transaction.ts';
import { recordStatusChange } from './order-transitions.ts';

export interface OrderStatusPosition {
  statusId: number;
  statusKind: string;
  /** The order's latest recorded status change (null: none since placing). */
  lastChangeId: number | null;
  lastChangeAt: Date | null;
  clearedAt: Date | null;
  placedAt: Date | null;
  total: string;
  placedIp: string | null;
}

/** Where an order stands: its status, the change that set it, and what the rules' conditions read. */
export async function orderStatusPosition(em: EntityManager, shopId: string, orderId: number): Promise<OrderStatusPosition | null> {
  const [row] = await em.execute<{ status_id: number; kind: string; change_id: number | null; change_at: Date | null; cleared_at: Date | null; placed_at: Date | null; total: string; placed_ip: string | null }[]>(
    `select o.order_status_id as status_id, s.kind, c.id as change_id, c.at as change_at, o.cleared_at, o.placed_at, o.total, o.placed_ip
     from shop_orders o join shop_order_statuses s on s.id = o.order_status_id
     left join lateral (select id, at from shop_order_status_changes where shop_id = o.shop_id and order_id = o.id order by id desc limit 1) c on true
     where o.shop_id = ? and o.id = ?`,
    [shopId, orderId],
  );
  if (!row) return null;
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return { statusId: row.status_id, statusKind: row.kind, lastChangeId: row.change_id, lastChangeAt: date(row.change_at), clearedAt: date(row.cleared_at), placedAt: date(row.placed_at), total: String(row.total), placedIp: row.placed_ip };
}

/** The shop's statuses set automatically after `statusId`, with their rules (a plain statement: every clearing asks). */
export async function automaticRulesAfter(sql: Sql, shopId: string, statusId: number): Promise<{ statusId: number; rule: AutomaticStatusRule }[]> {
  const statuses = await sql.execute<{ id: number; automaticallySet: unknown }[]>(
    'select id, automatically_set as "automaticallySet" from shop_order_statuses where shop_id = ? and automatically_set is not null order by id',
    [shopId],
  );
  return automaticRulesAfterIn(statuses, statusId);
}

export interface ExpectedPosition {
  fromStatusId: number;
  /** The change that put the order at `fromStatusId` (null: no change recorded then). */
  expectedChangeId: number | null;
}

/**
 * Sets `toStatusId` only when the order has not moved since the timer was planned: still at
 * `fromStatusId` with `expectedChangeId` as its latest change (the order row locked). Answers the
 * new change id, or the one this did before when a retried activity finds its own change (from ->
 * to, right after the expected one); null when the order moved on.
 */
export async function setStatusIfUnmoved(em: EntityManager, shopId: string, orderId: number, expected: ExpectedPosition, toStatusId: number): Promise<number | null> {
  return em.transactional(async (tx) => {
    const [order] = await tx.execute<{ order_status_id: number }[]>('select order_status_id from shop_orders where shop_id = ? and id = ? for update', [shopId, orderId]);
    if (!order) return null;
    const changes = await tx.execute<{ id: number; from_status_id: number; to_status_id: number }[]>(
      'select id, from_status_id, to_status_id from shop_order_status_changes where shop_id = ? and order_id = ? order by id desc limit 2',
      [shopId, orderId],
    );
    const [last, before] = changes;
    const lastId = last?.id ?? null;
    if (order.order_status_id === expected.fromStatusId && lastId === expected.expectedChangeId) {
      const change = await recordStatusChange(tx, shopId, orderId, toStatusId);
      return change?.changed ? change.changeId : null;
    }
    const mine = last && last.from_status_id === expected.fromStatusId && last.to_status_id === toStatusId && (before?.id ?? null) === expected.expectedChangeId;
    return mine && order.order_status_id === toStatusId ? last.id : null;
  });
}
