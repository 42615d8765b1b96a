import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { AutomaticDiscountKind, AutomaticDiscountType } from '../../../domain/shop/automatic-discount-rules.ts';
import type { ProductRelation } from '../../../domain/shop/discount-rules.ts';
import { shopOwned } from './shop-owned.ts';

const intArray = () => p.array<number>((v) => Number(v), (v) => String(v)).columnType('int[]').default([]);
const money = () => p.decimal('string').precision(12).scale(2);

/**
 * The shop's automatic discounts (spec: Automatic discounts), all four resources in one table told
 * apart by `kind` (`email_address`, `email_domain`, `newsletter`, `time_limited`): checkout reads
 * one kind of row. The own fields of the other kinds stay null. `usages` is counted by checkout
 * with `UPDATE ... RETURNING`; `revision` grows (under the row lock) on every PATCH that changes
 * the row, and goes with the schedule signalled to the price workflow, which keeps the highest it
 * was sent: a late signal never replaces newer settings.
 */
export const AutomaticDiscount = defineEntity({
  name: 'AutomaticDiscount',
  tableName: 'shop_automatic_discounts',
  indexes: [{ properties: ['shop', 'kind', 'id'] }],
  ...shopOwned({
    kind: p.string().length(16).$type<AutomaticDiscountKind>(),
    discountType: p.string().length(48).$type<AutomaticDiscountType>(),
    value: money(),
    relationWithProducts: p.string().length(32).$type<ProductRelation>().default('all_products'),
    productIds: intArray(),
    productCategoryIds: intArray(),
    usagesLimit: p.integer().nullable(),
    usages: p.integer().default(0),
    active: p.boolean().default(true),
    email: p.string().nullable(),
    emailDomain: p.string().nullable(),
    minimumOrderValue: money().nullable(),
    startDate: p.datetime().nullable(),
    endDate: p.datetime().nullable(),
    revision: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IAutomaticDiscount = InferEntity<typeof AutomaticDiscount>;

/**
 * One product's price changed by a time-limited price-history discount (percentage_product_discount,
 * value_product_discount): the price before (`originalPrice`, never lost) and the one set. An open
 * row (`restoredAt` null) means the product is under that discount now; at most one open row per
 * product (a partial unique index), so two discounts never stack on one price and a restore always
 * knows the price to go back to. Rows stay after the restore as the product's price history.
 */
export const ProductPriceChange = defineEntity({
  name: 'ProductPriceChange',
  tableName: 'shop_product_price_changes',
  indexes: [
    { properties: ['shop', 'discountId'] },
    {
      name: 'shop_product_price_changes_open_unique',
      expression: 'create unique index "shop_product_price_changes_open_unique" on "shop_product_price_changes" ("product_id") where "restored_at" is null',
    },
  ],
  ...shopOwned({
    discountId: p.integer(),
    productId: p.integer(),
    originalPrice: money(),
    discountedPrice: money(),
    appliedAt: p.datetime(),
    restoredAt: p.datetime().nullable(),
  }),
});
export type IProductPriceChange = InferEntity<typeof ProductPriceChange>;
