import type { z } from 'zod';
import type { IProductSet } from '../../../db/entities/shop/index.ts';
import type { SetItemValues } from '../../../db/repositories/shop/product-sets.ts';
import type { ProductSetDraft } from '../../../domain/shop/product-set-rules.ts';
import type { ProductSetReply, ProductSetWrite, SetItemInput } from './schemas.ts';

export function productSetReply(set: IProductSet): z.infer<typeof ProductSetReply> {
  return {
    id: set.id,
    name: set.name,
    slug: set.slug,
    price: set.price,
    active: set.active,
    priority: set.priority,
    auto_calculate_prices: set.autoCalculatePrices,
    link_only_discount: set.linkOnlyDiscount,
    pool_mode: set.poolMode,
    pool_pick_count: set.poolPickCount ?? null,
    custom_payment_types: set.customPaymentTypes,
    payment_type_ids: set.paymentTypeIds,
    expose_in_feeds: set.exposeInFeeds,
    feed_description: set.feedDescription,
    ean: set.ean ?? null,
    google_product_category: set.googleProductCategory,
    producer: set.producer,
    product_category_id: set.productCategoryId ?? null,
    items: set.items.getItems().map((item) => ({
      id: item.id,
      product_id: item.product.id,
      product_name: item.product.getEntity().name,
      quantity: item.quantity,
      custom_price: item.customPrice ?? null,
    })),
    created_at: set.createdAt.toISOString(),
    updated_at: set.updatedAt.toISOString(),
  };
}

/** The entity properties of the fields sent (only those sent), items aside. */
export function productSetValues(body: ProductSetWrite): Partial<IProductSet> {
  const map: [keyof ProductSetWrite, keyof IProductSet][] = [
    ['name', 'name'],
    ['price', 'price'],
    ['active', 'active'],
    ['priority', 'priority'],
    ['auto_calculate_prices', 'autoCalculatePrices'],
    ['link_only_discount', 'linkOnlyDiscount'],
    ['pool_mode', 'poolMode'],
    ['pool_pick_count', 'poolPickCount'],
    ['custom_payment_types', 'customPaymentTypes'],
    ['payment_type_ids', 'paymentTypeIds'],
    ['expose_in_feeds', 'exposeInFeeds'],
    ['feed_description', 'feedDescription'],
    ['ean', 'ean'],
    ['google_product_category', 'googleProductCategory'],
    ['producer', 'producer'],
    ['product_category_id', 'productCategoryId'],
  ];
  return Object.fromEntries(map.filter(([field]) => body[field] !== undefined).map(([field, property]) => [property, body[field]])) as Partial<IProductSet>;
}

/** The set the rules check: the stored set (or the defaults) with the fields and items sent. */
export function draftAfter(current: IProductSet | null, body: ProductSetWrite): ProductSetDraft {
  const after = { ...current, ...productSetValues(body) };
  const items = body.items
    ? body.items.map((item) => ({ productId: item.product_id, quantity: item.quantity, customPrice: item.custom_price }))
    : (current?.items.getItems() ?? []).map((item) => ({ productId: item.product.id, quantity: item.quantity, customPrice: item.customPrice ?? null }));
  return {
    price: after.price!,
    autoCalculatePrices: after.autoCalculatePrices ?? true,
    poolMode: after.poolMode ?? false,
    poolPickCount: after.poolPickCount ?? null,
    customPaymentTypes: after.customPaymentTypes ?? false,
    paymentTypeIds: after.paymentTypeIds ?? [],
    exposeInFeeds: after.exposeInFeeds ?? false,
    feedDescription: after.feedDescription ?? '',
    items,
  };
}

/** The sent items as the repository writes them (`undefined`: the items stay). */
export function setItemValues(items: readonly SetItemInput[] | undefined): SetItemValues[] | undefined {
  return items?.map((item) => ({ id: item.id, productId: item.product_id, quantity: item.quantity, customPrice: item.custom_price }));
}
