import { z } from 'zod';
import { DELIVERY_RELATIONS, DISCOUNT_TYPES, PRODUCT_RELATIONS } from '../../../domain/shop/discount-rules.ts';
import { moneyAmount } from '../shared/money-schema.ts';

const NO_NUL = 'must not contain NUL characters';
const text = (max: number) => z.string().max(max).refine((value) => !value.includes('\u0000'), NO_NUL);
const id = z.number().int().positive().max(2_147_483_647);
const ids = z
  .array(id)
  .max(1000)
  .transform((values) => [...new Set(values)]);
const limit = z.number().int().min(1).max(2_147_483_647).nullable();
const timestamp = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .nullable()
  .meta({ type: 'string', format: 'date-time' });

export const discountCodeText = text(255)
  .trim()
  .min(1, 'must not be empty');

/**
 * The write fields of a discount code (spec: Discount code) except `code`; `usages` is read only
 * (sent, it is refused as not writable). Nullable fields take `null` to clear.
 */
export const discountSettingsFields = {
  name: text(255).trim(),
  discount_type: z.enum(DISCOUNT_TYPES),
  value: moneyAmount.nullable().describe('percent (above 0, at most 100) or amount; for unit_price_discount the target price of one unit'),
  case_sensitive: z.boolean().describe('default true'),
  minimum_amount: moneyAmount.nullable().describe('the products cost (before discounts) an order needs for the code'),
  usages_limit: limit,
  usages_per_customer_limit: limit,
  active: z.boolean(),
  start_date: timestamp,
  end_date: timestamp,
  combine_with_other_discount: z.boolean().describe('default true'),
  relation_with_products: z.enum(PRODUCT_RELATIONS),
  product_ids: ids,
  product_category_ids: ids,
  relation_with_delivery_types: z.enum(DELIVERY_RELATIONS),
  delivery_type_ids: ids,
};

const codeFields = { code: discountCodeText, ...discountSettingsFields };

export const CreateDiscountCodeBody = z
  .strictObject(codeFields)
  .partial()
  .required({ code: true, discount_type: true })
  .meta({ description: 'A new discount code: `code` and `discount_type` are required.' });

export const PatchDiscountCodeBody = z.strictObject(codeFields).partial().meta({ description: 'Only the fields sent change.' });
export type DiscountCodePatch = z.output<typeof PatchDiscountCodeBody>;

export const DiscountCodeParams = z.object({ id: z.string().max(20).describe('the discount code id') });

const boolText = z.enum(['true', 'false']).transform((value) => value === 'true');
export const DiscountCodeListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  discount_type: z.enum(DISCOUNT_TYPES).optional(),
  active: boolText.optional().describe('`true` or `false`'),
  search: text(255).trim().optional().describe('part of the code or name, case-insensitive'),
});

export const DiscountCodeReply = z
  .object({
    id: z.number(),
    code: z.string(),
    name: z.string(),
    discount_type: z.enum(DISCOUNT_TYPES),
    value: z.string().nullable(),
    case_sensitive: z.boolean(),
    minimum_amount: z.string().nullable(),
    usages_limit: z.number().nullable(),
    usages_per_customer_limit: z.number().nullable(),
    usages: z.number(),
    active: z.boolean(),
    start_date: z.string().nullable(),
    end_date: z.string().nullable(),
    combine_with_other_discount: z.boolean(),
    relation_with_products: z.enum(PRODUCT_RELATIONS),
    product_ids: z.array(z.number()),
    product_category_ids: z.array(z.number()),
    relation_with_delivery_types: z.enum(DELIVERY_RELATIONS),
    delivery_type_ids: z.array(z.number()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ShopDiscountCode' });

export const DeleteDiscountCodeReply = z.object({ data: z.object({ id: z.number(), deleted: z.literal(true) }) });
