/**
 * Discount codes of one shop (the request's entity manager is scoped to it by the shop filter; raw
 * SQL names the shop itself). A pool's codes are discount-code rows with `pool_id` (pools:
 * discount-code-pools.ts); the discount-code endpoints see only the codes made one by one.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, DiscountCode, Product, ProductCategory, type IDiscountCode } from '../../entities/shop/index.ts';
import { likeContains } from '../../../domain/shop/product-rules.ts';
import type { DiscountType } from '../../../domain/shop/discount-rules.ts';
import type { CodeSnapshot } from '../../../domain/shop/discount-code-pricing.ts';
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

interface CheckoutCodeRow {
  id: number;
  code: string;
  case_sensitive: boolean;
  discount_type: DiscountType;
  value: string | null;
  minimum_amount: string | null;
  usages: number;
  usages_limit: number | null;
  usages_per_customer_limit: number | null;
  active: boolean;
  combine_with_other_discount: boolean;
  start_date: string | null;
  end_date: string | null;
  relation_with_products: CodeSnapshot['relationWithProducts'];
  product_ids: number[];
  product_category_ids: number[];
  relation_with_delivery_types: CodeSnapshot['relationWithDeliveryTypes'];
  delivery_type_ids: number[];
  drawn_at: string | null;
  pool_id: number | null;
  activate_on_draw: boolean | null;
}

/**
 * The shop's code (any, a pool's too) matching `typed` ignoring case, as checkout sees it, with its
 * pool's setting, in one statement; null when there is none. The caller checks case.
 */
export async function codeForCheckout(em: EntityManager, shopId: string, typed: string): Promise<CodeSnapshot | null> {
  const [row] = await em.execute<CheckoutCodeRow[]>(
    `select c.*, p.activate_on_draw from shop_discount_codes c left join shop_discount_code_pools p on p.id = c.pool_id
      where c.shop_id = ? and lower(c.code) = lower(?)`,
    [shopId, typed],
  );
  if (!row) return null;
  // Timestamps come as text from em.execute; parsed as the ORM parses them.
  const date = (value: string | null) => (value === null ? null : new Date(em.getPlatform().parseDate(value)));
  return {
    id: row.id,
    code: row.code,
    caseSensitive: row.case_sensitive,
    discountType: row.discount_type,
    value: row.value,
    minimumAmount: row.minimum_amount,
    usages: row.usages,
    usagesLimit: row.usages_limit,
    usagesPerCustomerLimit: row.usages_per_customer_limit,
    active: row.active,
    combineWithOtherDiscount: row.combine_with_other_discount,
    startDate: date(row.start_date),
    endDate: date(row.end_date),
    relationWithProducts: row.relation_with_products,
    productIds: row.product_ids,
    productCategoryIds: row.product_category_ids,
    relationWithDeliveryTypes: row.relation_with_delivery_types,
    deliveryTypeIds: row.delivery_type_ids,
    pool: row.pool_id === null ? null : { activateOnDraw: row.activate_on_draw ?? false },
    drawnAt: date(row.drawn_at),
  };
}

export type UseRefusal = 'used_up' | 'used_up_by_customer';

/** Thrown by the placement (order-placement.ts) when a code's use cannot be counted: nothing is stored. */
export class DiscountCodeRefused extends Error {
  constructor(readonly reason: UseRefusal) {
    super(reason === 'used_up' ? 'has been used up' : 'has been used as many times as one customer may');
  }
}
