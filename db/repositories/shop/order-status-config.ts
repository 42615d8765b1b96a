import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, OrderStatus, Sender } from '../../entities/shop/index.ts';

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

export async function shopOrderStatusIds(em: EntityManager): Promise<Set<number>> {
  return new Set((await em.find(OrderStatus, {}, { fields: ['id'] })).map((s) => s.id));
}

export async function shopDeliveryTypeIds(em: EntityManager): Promise<Set<number>> {
  return new Set((await em.find(DeliveryType, {}, { fields: ['id'] })).map((d) => d.id));
}

export async function isShopSender(em: EntityManager, id: number): Promise<boolean> {
  return (await em.count(Sender, { id })) > 0;
}
