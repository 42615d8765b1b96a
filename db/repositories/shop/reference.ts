/** Reads of the shop's reference lists (the request's entity manager is scoped to the shop). */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, OrderStatus, PaymentType, ProductCategory } from '../../entities/shop/index.ts';

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

export function listVisibleOrderStatuses(em: EntityManager, window: ListWindow) {
  return em.findAndCount(OrderStatus, { visible: true }, { orderBy: { position: 'asc', id: 'asc' }, ...window });
}

export function listProductCategories(em: EntityManager) {
  return em.find(ProductCategory, {}, { orderBy: { id: 'asc' } });
}
