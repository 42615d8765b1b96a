import { z } from 'zod';
import { isEan } from '../../../domain/shop/product-rules.ts';
import { moneyAmount } from '../shared/money-schema.ts';
import { rowId, text } from '../shared/fields.ts';
import { MAX_ITEMS, itemName, itemRef } from '../shared/item-list.ts';
import { wrapped } from '../shared/wrapped-body.ts';

const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);

const SetItemInput = z.strictObject({
  ...itemRef,
  quantity: z.number().int().min(1).max(10_000).default(1).describe('pieces of the product in the set; default 1'),
  custom_price: moneyAmount.nullable().default(null).describe('price of one piece in the set; required on every item when auto_calculate_prices is false'),
});
export type SetItemInput = z.output<typeof SetItemInput>;

/** The write fields of a set (spec: Product set (bundle)); `slug` is made from the name on create. */
const setFields = {
  name: itemName,
  price: moneyAmount,
  active: z.boolean().describe('default true'),
  priority: int32.describe('higher means higher in lists; default 0'),
  auto_calculate_prices: z.boolean().describe('default true'),
  link_only_discount: z.boolean(),
  pool_mode: z.boolean(),
  pool_pick_count: z.number().int().min(0).max(MAX_ITEMS).nullable(),
  custom_payment_types: z.boolean(),
  payment_type_ids: z.array(rowId).max(100).transform((ids) => [...new Set(ids)]).describe('replaces the whole list'),
  expose_in_feeds: z.boolean(),
  feed_description: text(30_000),
  ean: text(13).refine(isEan, 'must be exactly 13 digits').nullable(),
  google_product_category: text(255),
  producer: text(255),
  product_category_id: rowId.nullable(),
  items: z.array(SetItemInput).max(MAX_ITEMS).describe('replaces all items'),
};

export const CreateProductSetBody = wrapped('product_set', z.strictObject(setFields).partial().required({ name: true, price: true, items: true }));
export const PatchProductSetBody = wrapped('product_set', z.strictObject(setFields).partial());
export type ProductSetWrite = z.output<typeof PatchProductSetBody>['product_set'];

export const ProductSetReply = z
  .object({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    price: z.string(),
    active: z.boolean(),
    priority: z.number(),
    auto_calculate_prices: z.boolean(),
    link_only_discount: z.boolean(),
    pool_mode: z.boolean(),
    pool_pick_count: z.number().nullable(),
    custom_payment_types: z.boolean(),
    payment_type_ids: z.array(z.number()),
    expose_in_feeds: z.boolean(),
    feed_description: z.string(),
    ean: z.string().nullable(),
    google_product_category: z.string(),
    producer: z.string(),
    product_category_id: z.number().nullable(),
    items: z.array(z.object({ id: z.number(), product_id: z.number(), product_name: z.string(), quantity: z.number(), custom_price: z.string().nullable() })),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ShopProductSet' });
