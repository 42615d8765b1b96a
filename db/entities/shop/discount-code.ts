import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { DeliveryRelation, DiscountType, ProductRelation } from '../../../domain/shop/discount-rules.ts';
import { shopFilters } from '../../tenant.ts';
import { Shop } from './shop.ts';

const intArray = () => p.array<number>((v) => Number(v), (v) => String(v)).columnType('int[]').default([]);
const money = () => p.decimal('string').precision(12).scale(2);

/**
 * A pool of discount codes (spec: Discount code pool), made by the operator with its codes. With
 * `activateOnDraw` its codes stay inactive until a draw gives each a validity window.
 */
export const DiscountCodePool = defineEntity({
  name: 'DiscountCodePool',
  tableName: 'shop_discount_code_pools',
  filters: shopFilters,
  indexes: [{ properties: ['shop'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    shop: () => p.manyToOne(Shop).ref(),
    name: p.string(),
    activateOnDraw: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IDiscountCodePool = InferEntity<typeof DiscountCodePool>;

/**
 * A discount code (spec: Discount code). A pool's codes are rows here too, with `pool` set and the
 * pool's settings copied, so checkout reads one kind of row. The code is unique per shop ignoring
 * case (index on `lower(code)`), so a case-insensitive code never shadows another. `usages` is
 * counted by the order placement with `UPDATE ... RETURNING`; `drawnAt` marks a drawn pool code.
 */
export const DiscountCode = defineEntity({
  name: 'DiscountCode',
  tableName: 'shop_discount_codes',
  filters: shopFilters,
  indexes: [
    { name: 'shop_discount_codes_shop_code_unique', expression: 'create unique index "shop_discount_codes_shop_code_unique" on "shop_discount_codes" ("shop_id", lower("code"))' },
    { properties: ['shop', 'createdAt'] },
    {
      name: 'shop_discount_codes_pool_free_index',
      expression: 'create index "shop_discount_codes_pool_free_index" on "shop_discount_codes" ("pool_id", "id") where "drawn_at" is null',
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    shop: () => p.manyToOne(Shop).ref(),
    pool: () => p.manyToOne(DiscountCodePool).ref().nullable(),
    code: p.string(),
    name: p.string().default(''),
    discountType: p.string().length(48).$type<DiscountType>(),
    value: money().nullable(),
    caseSensitive: p.boolean().default(true),
    minimumAmount: money().nullable(),
    usagesLimit: p.integer().nullable(),
    usagesPerCustomerLimit: p.integer().nullable(),
    usages: p.integer().default(0),
    active: p.boolean().default(true),
    startDate: p.datetime().nullable(),
    endDate: p.datetime().nullable(),
    combineWithOtherDiscount: p.boolean().default(true),
    relationWithProducts: p.string().length(32).$type<ProductRelation>().default('all_products'),
    productIds: intArray(),
    productCategoryIds: intArray(),
    relationWithDeliveryTypes: p.string().length(32).$type<DeliveryRelation>().default('all_delivery_types'),
    deliveryTypeIds: intArray(),
    drawnAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IDiscountCode = InferEntity<typeof DiscountCode>;
