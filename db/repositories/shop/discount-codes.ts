/**
 * Discount codes of one shop (the request's entity manager is scoped to it by the shop filter; raw
 * SQL names the shop itself). A pool's codes are discount-code rows with `pool_id` (pools:
 * discount-code-pools.ts); the discount-code endpoints see only the codes made one by one.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, DiscountCode, Product, ProductCategory, type IDiscountCode, type IDiscountCodePool } from '../../entities/shop/index.ts';
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
export async function deleteDiscountCode(em: EntityManager, code: IDiscountCode): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute('update shop_orders set discount_code_id = null where shop_id = ? and discount_code_id = ?', [code.shop.id, code.id]);
    await tx.execute('delete from shop_discount_codes where shop_id = ? and id = ?', [code.shop.id, code.id]);
  });
  em.getUnitOfWork().unsetIdentity(code);
}

// ---- Checkout ----------------------------------------------------------------------------------

/** The shop's code (any, a pool's too) matching `typed` ignoring case, with its pool; the caller checks case. */
export async function codeForCheckout(em: EntityManager, shopId: string, typed: string): Promise<{ code: IDiscountCode; pool: IDiscountCodePool | null } | null> {
  const [row] = await em.execute<{ id: number }[]>('select id from shop_discount_codes where shop_id = ? and lower(code) = lower(?)', [shopId, typed]);
  if (!row) return null;
  const code = await em.findOne(DiscountCode, row.id, { populate: ['pool'] });
  return code ? { code, pool: code.pool ? (code.pool.getEntity() as IDiscountCodePool) : null } : null;
}

export type UseRefusal = 'used_up' | 'used_up_by_customer';

/** Thrown inside the placement's transaction when a code's use cannot be counted: nothing is stored. */
export class DiscountCodeRefused extends Error {
  constructor(readonly reason: UseRefusal) {
    super(reason === 'used_up' ? 'has been used up' : 'has been used as many times as one customer may');
  }
}

/**
 * Counts one use of a code inside the order placement's transaction (`tx`). The conditional
 * `UPDATE ... RETURNING` holds the code's row lock until the transaction ends, so placements with
 * the same code queue here and the total limit can never be passed; the per-customer count is read
 * after the lock is held (read committed: it sees every order committed before), so it cannot be
 * passed either. Returns why the use is refused, or null when it was counted.
 */
export async function countCodeUse(tx: EntityManager, shopId: string, codeId: number, email: string, perCustomerLimit: number | null): Promise<UseRefusal | null> {
  const taken = await tx.execute<{ id: number }[]>(
    'update shop_discount_codes set usages = usages + 1 where shop_id = ? and id = ? and (usages_limit is null or usages < usages_limit) returning id',
    [shopId, codeId],
  );
  if (taken.length === 0) return 'used_up';
  if (perCustomerLimit !== null) {
    const [row] = await tx.execute<{ n: string }[]>('select count(*) as n from shop_orders where shop_id = ? and email = ? and discount_code_id = ?', [shopId, email, codeId]);
    if (Number(row!.n) >= perCustomerLimit) return 'used_up_by_customer';
  }
  return null;
}
