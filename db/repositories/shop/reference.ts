/** The shop's reference lists (the request's entity manager is scoped to the shop): reads, and the operator's additions. */
import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  DeliveryType,
  OrderStatus,
  PaymentType,
  ProductCategory,
  Sender,
  type IDeliveryType,
  type IPaymentType,
  type IProductCategory,
  type ISender,
} from '../../entities/shop/index.ts';
import { insertRow } from '../shared/insert-row.ts';

export interface ListWindow {
  limit: number;
  offset: number;
}

export function listActiveDeliveryTypes(em: EntityManager, window: ListWindow) {
  return em.findAndCount(DeliveryType, { active: true }, { orderBy: { id: 'asc' }, ...window });
}

export function listActivePaymentTypes(em: EntityManager, window: ListWindow) {
  return em.findAndCount(PaymentType, { active: true }, { orderBy: { id: 'asc' }, ...window });
}

export interface ActiveChargeType {
  id: number;
  nameDisplayed: string;
  defaultPrice: string;
}

/** The shop's active delivery and payment types (at most 1000 of each, by id) in one statement: what a cart may choose from. */
export async function activeChargeTypes(em: EntityManager, shopId: string): Promise<{ deliveries: ActiveChargeType[]; payments: ActiveChargeType[] }> {
  const rows = await em.execute<(ActiveChargeType & { kind: 'delivery' | 'payment' })[]>(
    `(select 'delivery' as kind, id, name_displayed as "nameDisplayed", default_price as "defaultPrice" from shop_delivery_types where shop_id = ? and active order by id limit 1000)
     union all
     (select 'payment' as kind, id, name_displayed, default_price from shop_payment_types where shop_id = ? and active order by id limit 1000)`,
    [shopId, shopId],
  );
  const of = (kind: 'delivery' | 'payment') => rows.filter((row) => row.kind === kind).map(({ id, nameDisplayed, defaultPrice }) => ({ id, nameDisplayed, defaultPrice })).sort((a, b) => a.id - b.id);
  return { deliveries: of('delivery'), payments: of('payment') };
}

export function listVisibleOrderStatuses(em: EntityManager, window: ListWindow) {
  return em.findAndCount(OrderStatus, { visible: true }, { orderBy: { position: 'asc', id: 'asc' }, ...window });
}

export function listProductCategories(em: EntityManager) {
  return em.find(ProductCategory, {}, { orderBy: { id: 'asc' } });
}

export function createProductCategory(em: EntityManager, values: RequiredEntityData<IProductCategory>): Promise<IProductCategory> {
  return insertRow(em, ProductCategory, values);
}

export function createDeliveryType(em: EntityManager, values: RequiredEntityData<IDeliveryType>): Promise<IDeliveryType> {
  return insertRow(em, DeliveryType, values);
}

export function createPaymentType(em: EntityManager, values: RequiredEntityData<IPaymentType>): Promise<IPaymentType> {
  return insertRow(em, PaymentType, values);
}

/** A mail sender of the shop (its address lower-cased by the caller). */
export function createSender(em: EntityManager, values: RequiredEntityData<ISender>): Promise<ISender> {
  return insertRow(em, Sender, values);
}

/** One sender of the shop, or null. */
export function findSender(em: EntityManager, id: number): Promise<ISender | null> {
  return em.findOne(Sender, id);
}

/** The shop's first sender (lowest id), or null when it has none. */
export function firstSender(em: EntityManager): Promise<ISender | null> {
  return em.findOne(Sender, {}, { orderBy: { id: 'asc' } });
}
