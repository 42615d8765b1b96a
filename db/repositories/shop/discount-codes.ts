/**
 * Discount codes of one shop (the request's entity manager is scoped to it by the shop filter; raw
 * SQL names the shop itself). A pool's codes are discount-code rows with `pool_id` (pools:
 * discount-code-pools.ts); the discount-code endpoints see only the codes made one by one.
 */
import { UniqueConstraintViolationException, type EntityData, type RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, DiscountCode, Product, ProductCategory, type IDiscountCode } from '../../entities/shop/index.ts';
import { likeContains } from '../../../domain/shop/product-rules.ts';
import type { DiscountType } from '../../../domain/shop/discount-rules.ts';
import type { ListWindow } from './reference.ts';

export interface DiscountCodeFilter {
  discountType?: DiscountType;
  active?: boolean;
  search?: string;
}

export function listDiscountCodes(em: EntityManager, filter: DiscountCodeFilter, window: ListWindow) {
  const pattern = filter.search ? likeContains(filter.search) : undefined;
  return em.findAndCount(
    DiscountCode,
    {
      pool: null,
      ...(filter.discountType === undefined ? {} : { discountType: filter.discountType }),
      ...(filter.active === undefined ? {} : { active: filter.active }),
      ...(pattern ? { $or: [{ code: { $ilike: pattern } }, { name: { $ilike: pattern } }] } : {}),
    },
    { orderBy: { id: 'asc' }, ...window },
  );
}

/** A code of the shop made one by one (not a pool's); null for anything else. */
export function findDiscountCode(em: EntityManager, id: number) {
  return em.findOne(DiscountCode, { id, pool: null });
}

/** Which of `codes` the shop already has, compared ignoring case (lower-cased). */
export async function takenCodes(em: EntityManager, shopId: string, codes: readonly string[], exceptId?: number): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await em.execute<{ code: string }[]>(
    'select lower(code) as code from shop_discount_codes where shop_id = ? and lower(code) in (?) and id <> ?',
    [shopId, codes.map((c) => c.toLowerCase()), exceptId ?? 0],
  );
  return new Set(rows.map((row) => row.code));
}

export type DiscountReference = 'product_ids' | 'product_category_ids' | 'delivery_type_ids';

/** Which of `ids` the shop has (visible products, categories, delivery types); another shop's are not found. */
export async function existingReferenceIds(em: EntityManager, field: DiscountReference, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const where = { id: { $in: [...ids] } };
  const rows =
    field === 'product_ids'
      ? await em.find(Product, { ...where, hidden: false }, { fields: ['id'] })
      : field === 'product_category_ids'
        ? await em.find(ProductCategory, where, { fields: ['id'] })
        : await em.find(DeliveryType, where, { fields: ['id'] });
  return new Set(rows.map((row) => row.id));
}

/** Deletes a code; its orders keep the code's text and lose only the link. */
/** Flushes; false when the code was taken meanwhile (the unique index, ignoring case), which the caller's check did not see. */
async function flushUnlessTaken(em: EntityManager): Promise<boolean> {
  try {
    await em.flush();
    return true;
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return false;
    throw error;
  }
}

/** A code made one by one; null when its code was taken meanwhile. */
export async function createDiscountCode(em: EntityManager, values: RequiredEntityData<IDiscountCode>): Promise<IDiscountCode | null> {
  const code = em.create(DiscountCode, values);
  return (await flushUnlessTaken(em)) ? code : null;
}

/** Writes the fields given; false when the new code was taken meanwhile. */
export async function updateDiscountCode(em: EntityManager, code: IDiscountCode, values: EntityData<IDiscountCode>): Promise<boolean> {
  em.assign(code, values);
  return flushUnlessTaken(em);
}

export async function deleteDiscountCode(em: EntityManager, code: IDiscountCode): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute('update shop_orders set discount_code_id = null where shop_id = ? and discount_code_id = ?', [code.shop.id, code.id]);
    await tx.execute('delete from shop_discount_codes where shop_id = ? and id = ?', [code.shop.id, code.id]);
  });
  em.getUnitOfWork().unsetIdentity(code);
}

// ---- Checkout (the code is read by checkout-reads.ts) ---------------------------------------------

export type UseRefusal = 'used_up' | 'used_up_by_customer';

/** Thrown by the placement (order-placement.ts) when a code's use cannot be counted: nothing is stored. */
export class DiscountCodeRefused extends Error {
  constructor(readonly reason: UseRefusal) {
    super(reason === 'used_up' ? 'has been used up' : 'has been used as many times as one customer may');
  }
}
