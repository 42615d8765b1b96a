import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Product } from './product.ts';
import { shopOwned } from './shop-owned.ts';

const money = () => p.decimal('string').precision(12).scale(2);
const intArray = () => p.array<number>((v) => Number(v), (v) => String(v)).columnType('int[]').default([]);

/**
 * A product set (spec: Product set (bundle)): several products sold together for `price`. With
 * `autoCalculatePrices` off every item carries its `customPrice` (their sum times quantity is the
 * price); in `poolMode` the buyer picks `poolPickCount` of the items. The slug is made from the
 * name when the set is created and is unique in the shop (a direct link keeps working after a
 * rename). Rules: domain/shop/product-set-rules.ts.
 */
export const ProductSet = defineEntity({
  name: 'ProductSet',
  tableName: 'shop_product_sets',
  uniques: [{ properties: ['shop', 'slug'] }],
  indexes: [{ properties: ['shop', 'priority'] }],
  ...shopOwned({
    name: p.string(),
    slug: p.string(),
    price: money(),
    active: p.boolean().default(true),
    priority: p.integer().default(0),
    autoCalculatePrices: p.boolean().default(true),
    linkOnlyDiscount: p.boolean().default(false),
    poolMode: p.boolean().default(false),
    poolPickCount: p.integer().nullable(),
    customPaymentTypes: p.boolean().default(false),
    paymentTypeIds: intArray(),
    exposeInFeeds: p.boolean().default(false),
    feedDescription: p.text().default(''),
    ean: p.string().length(13).nullable(),
    googleProductCategory: p.string().default(''),
    producer: p.string().default(''),
    productCategoryId: p.integer().nullable(),
    items: () => p.oneToMany(ProductSetItem).mappedBy('productSet').orderBy({ id: 'asc' }).orphanRemoval(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IProductSet = InferEntity<typeof ProductSet>;

/**
 * One product of a set, `quantity` pieces of it. Removing the product (a product without orders;
 * one with orders is only hidden) removes it from its sets.
 */
export const ProductSetItem = defineEntity({
  name: 'ProductSetItem',
  tableName: 'shop_product_set_items',
  indexes: [{ properties: ['productSet'] }, { properties: ['shop', 'product'] }],
  ...shopOwned({
    productSet: () => p.manyToOne(ProductSet).ref().deleteRule('cascade'),
    product: () => p.manyToOne(Product).ref().deleteRule('cascade'),
    quantity: p.integer().default(1),
    customPrice: money().nullable(),
  }),
});
export type IProductSetItem = InferEntity<typeof ProductSetItem>;
