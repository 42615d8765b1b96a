import { LockMode, type EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { storedAutomaticRule } from '../../../domain/shop/automatic-status.ts';
import { DeliveryType, OrderStatus, Sender, type IOrderStatus, type IShop } from '../../entities/shop/index.ts';
import type { Sql } from '../shared/pooled-transaction.ts';

/** The shop's order statuses for the configuration interface, in the panel's order. */
export function listOrderStatuses(em: EntityManager, window?: { limit: number; offset: number }) {
  return em.findAndCount(OrderStatus, {}, { orderBy: { position: 'asc', id: 'asc' }, ...window });
}

/** One status of the request's shop (the tenant filter): null for another shop's. */
export function findOrderStatus(em: EntityManager, id: number) {
  return em.findOne(OrderStatus, id);
}

/** The status row locked until the transaction ends, so concurrent writes of its blocks queue. */
export function lockOrderStatus(tx: EntityManager, id: number) {
  return tx.findOne(OrderStatus, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** The shop's status ids and its automatic rules as edges (after -> status), for checking a new rule. */
export async function shopAutomaticGraph(em: EntityManager): Promise<{ statusIds: Set<number>; edges: { from: number; to: number }[] }> {
  const statuses = await em.find(OrderStatus, {}, { fields: ['id', 'automaticallySet'] });
  const edges = statuses.flatMap((s) => {
    const rule = storedAutomaticRule(s.automaticallySet);
    return rule ? [{ from: rule.automatically_set_after_status_id, to: s.id }] : [];
  });
  return { statusIds: new Set(statuses.map((s) => s.id)), edges };
}

export async function shopDeliveryTypeIds(em: EntityManager): Promise<Set<number>> {
  return new Set((await em.find(DeliveryType, {}, { fields: ['id'] })).map((d) => d.id));
}

export async function isShopSender(em: EntityManager, id: number): Promise<boolean> {
  return (await em.count(Sender, { id })) > 0;
}

/** Whether the id is one of the request's shop's order statuses. */
export async function isShopOrderStatus(em: EntityManager, id: number): Promise<boolean> {
  return (await em.count(OrderStatus, { id })) > 0;
}

/** The highest position among the shop's order statuses (0 when it has none): a new status goes after it. */
/**
 * Rewrites the status in one transaction under its row lock: `change` reads the status as locked
 * (its current blocks) and answers the fields to write, so two writes queue and the second builds
 * on the first's. The status must exist (the caller found it).
 */
export function rewriteOrderStatus(em: EntityManager, id: number, change: (status: IOrderStatus) => EntityData<IOrderStatus>): Promise<IOrderStatus> {
  return em.transactional(async (tx) => {
    const status = (await lockOrderStatus(tx, id))!;
    tx.assign(status, change(status));
    return status;
  });
}

async function lastOrderStatusPosition(em: EntityManager): Promise<number> {
  const last = await em.findOne(OrderStatus, {}, { orderBy: { position: 'desc' } });
  return last?.position ?? 0;
}

/** An operator's own status (`UserOrderStatus`), placed after the shop's last one. */
export async function createOrderStatus(em: EntityManager, shop: IShop, values: { name: string; visible: boolean }): Promise<IOrderStatus> {
  const position = (await lastOrderStatusPosition(em)) + 1;
  const status = em.create(OrderStatus, { shop, name: values.name, kind: 'UserOrderStatus', visible: values.visible, position });
  await em.flush();
  return status;
}

/** What a status's mail needs of its status. */
export interface StatusMailSettings {
  id: number;
  name: string;
  senderId: number | null;
  /** The stored template (domain/shop/status-mail.ts `storedTemplate`). */
  email: Record<string, unknown> | null;
  sendEmailOnStatusChange: boolean;
  bccEmailAddress: string | null;
}

/**
 * The mail settings of the shop's status `status`, or of its built-in Paid status (the one the
 * clearing sets); null when the shop has no such status. A plain statement: a clearing reads them
 * on its hot path, where the ORM's read cost more than the row.
 */
export async function statusMailSettings(sql: Sql, shopId: string, status: number | 'paid'): Promise<StatusMailSettings | null> {
  const [row] = await sql.execute<StatusMailSettings[]>(
    `select id, name, sender_id as "senderId", email, send_email_on_status_change as "sendEmailOnStatusChange", bcc_email_address as "bccEmailAddress"
       from shop_order_statuses where shop_id = ? and ${status === 'paid' ? "kind = 'PaidDefaultOrderStatus'" : 'id = ?'}`,
    status === 'paid' ? [shopId] : [shopId, status],
  );
  return row ?? null;
}
