import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ProductCourseAccess } from '../../../domain/shop/course-access.ts';
import { shopFilters } from '../../tenant.ts';
import { ShopFile } from './shop-file.ts';
import { Shop } from './shop.ts';

const intArray = () => p.array<number>((v) => Number(v), (v) => String(v)).columnType('int[]').default([]);

/**
 * A shop product (spec: Product). Main categories, delivery and payment types are id arrays
 * checked against the shop on write; `feedCategoryId` is the write field `product_category_id`.
 * `hidden` marks a product deleted while orders still point at it. `courseAccess` lists courses of
 * the shop's linked platform that a cleared order grants (issue 14).
 */
export const Product = defineEntity({
  name: 'Product',
  tableName: 'shop_products',
  filters: shopFilters,
  indexes: [
    { properties: ['shop', 'createdAt'] },
    { name: 'shop_products_category_ids_gin', expression: 'create index "shop_products_category_ids_gin" on "shop_products" using gin ("product_category_ids")' },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    shop: () => p.manyToOne(Shop).ref(),
    name: p.string(),
    sku: p.string().default(''),
    price: p.decimal('string').precision(12).scale(2),
    vatRate: p.integer().default(23),
    active: p.boolean().default(true),
    electronic: p.boolean().default(false),
    distribution: p.string().length(16).default('normal'),
    description: p.text().default(''),
    descriptionForCart: p.text().default(''),
    ean: p.string().length(13).nullable(),
    producer: p.string().default(''),
    invoiceItemName: p.string().default(''),
    pkwiu: p.string().nullable(),
    productLink: p.text().default(''),
    gtuCode: p.string().length(6).nullable(),
    regularPriceDisplayed: p.string().default(''),
    allowPriceChange: p.boolean().default(false),
    minimalPrice: p.decimal('string').precision(12).scale(2).nullable(),
    allowZeroMinimalPrice: p.boolean().default(false),
    deliveryTypeIds: intArray(),
    paymentTypeIds: intArray(),
    productCategoryIds: intArray(),
    feedCategoryId: p.integer().nullable(),
    cartQuantityLimit: p.integer().nullable(),
    lumpCode: p.string().length(8).default(''),
    photo: () => p.manyToOne(ShopFile).ref().nullable(),
    hideInXmls: p.boolean().default(false),
    noInvoice: p.boolean().default(false),
    hideInvoiceAddressFields: p.boolean().default(false),
    paymentReturnUrl: p.text().nullable(),
    hidden: p.boolean().default(false),
    courseAccess: p.json<ProductCourseAccess[]>().default('[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IProduct = InferEntity<typeof Product>;

/**
 * An electronic content of a product (spec: Product files). Several contents may share one stored
 * file (`source_content_id` attaches the same bytes); deleting a content never deletes a file
 * another content still uses.
 */
export const ElectronicContent = defineEntity({
  name: 'ElectronicContent',
  tableName: 'shop_electronic_contents',
  filters: shopFilters,
  indexes: [{ properties: ['product'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    shop: () => p.manyToOne(Shop).ref(),
    product: () => p.manyToOne(Product).ref(),
    file: () => p.manyToOne(ShopFile).ref(),
    kind: p.string().length(16).default('normal'),
    contentTitle: p.string().nullable(),
    daysToExpire: p.integer(),
    usagesToExpire: p.integer(),
    watermark: p.string().length(128).default(''),
    watermarkInterval: p.integer().default(1),
    description: p.text().default(''),
    distributeViaShopCas: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IElectronicContent = InferEntity<typeof ElectronicContent>;
