import { z } from 'zod';
import { DISTRIBUTIONS, isEan, isGtuCode, isWebUrl, lumpCodeOf, vatRateOf } from '../../../domain/shop/product-rules.ts';
import { accessLevelSchema } from '../../../domain/access/access-level.ts';
import { ImageUpload } from '../../shared/schemas.ts';
import { moneyAmount } from '../shared/money-schema.ts';

const NO_NUL = 'must not contain NUL characters';

/** Text PostgreSQL can store: at most `max` characters, no NUL. */
const text = (max: number) => z.string().max(max).refine((value) => !value.includes('\u0000'), NO_NUL);
const name = text(255).trim().min(1, 'must not be empty');
const webUrl = text(2000).refine(isWebUrl, 'must be an absolute http or https URL');
const id = z.number().int().positive().max(2_147_483_647);
const ids = z
  .array(id)
  .max(100)
  .transform((values) => [...new Set(values)]);

const vatRate = z
  .union([text(8), z.number()])
  .transform((value, ctx) => {
    const rate = vatRateOf(value);
    if (rate === null) ctx.addIssue({ code: 'custom', message: 'must be a whole percentage from 0 to 100, such as "23"' });
    return rate ?? z.NEVER;
  })
  .meta({ type: 'string', example: '23' });

const lumpCode = z
  .union([text(16), z.number()])
  .transform((value, ctx) => {
    const code = lumpCodeOf(value);
    if (code === null) ctx.addIssue({ code: 'custom', message: 'must be one of 17, 15, 14, 12.5, 12, 10, 8.5, 5.5, 3' });
    return code ?? z.NEVER;
  })
  .meta({ type: 'string', example: '8.5' });

/** Beyond the spec (issue 14): courses of the shop's linked platform that a cleared order grants, one entry per course. */
const courseAccess = z
  .array(z.strictObject({ course_id: z.uuid(), access_level: accessLevelSchema }))
  .max(100)
  .refine((entries) => new Set(entries.map((e) => e.course_id)).size === entries.length, 'names a course twice')
  .describe('courses of the linked course platform a cleared order grants, each at access level 0 or 1; [] for none');

/** Every write field of the spec (Product (write fields)); nullable ones take `null` to clear. */
const productFields = {
  name,
  price: moneyAmount,
  sku: text(255).trim(),
  vat_rate: vatRate,
  active: z.boolean(),
  description: text(100_000),
  description_for_cart: text(10_000),
  electronic_product: z.boolean(),
  distribution: z.enum(DISTRIBUTIONS),
  producer: text(255),
  ean: text(13).refine(isEan, 'must be exactly 13 digits').nullable(),
  invoice_item_name: text(255),
  pkwiu: text(255).nullable(),
  product_link: z.union([z.literal(''), webUrl]),
  gtu_code: text(6).refine(isGtuCode, 'must be one of GTU_01 to GTU_13').nullable(),
  regular_price_displayed: z.union([z.literal(''), moneyAmount]).describe('the struck-through price; "" for none'),
  allow_price_change: z.boolean(),
  minimal_price: moneyAmount.nullable(),
  allow_zero_minimal_price: z.boolean(),
  delivery_type_ids: ids,
  payment_type_ids: ids,
  product_category_id: id.nullable().describe('the feed (comparison) category; answered as feed_category_id'),
  product_category_ids: ids.describe('main categories'),
  cart_quantity_limit: z.number().int().min(1).max(1_000_000).nullable(),
  lump_code: z.union([z.literal('').transform(() => ''), z.null().transform(() => ''), lumpCode]),
  photo: ImageUpload.nullable().describe('PNG or JPEG under 5 MB; null removes the photo'),
  hide_in_xmls: z.boolean(),
  no_invoice: z.boolean(),
  hide_invoice_address_fields: z.boolean(),
  payment_return_url: webUrl.nullable(),
  course_access: courseAccess,
};

export const CreateProductBody = z
  .strictObject(productFields)
  .partial()
  .required({ name: true, price: true })
  .meta({ description: 'A new product: `name` and `price` are required.' });
export type ProductWrite = z.output<typeof CreateProductBody>;

export const PatchProductBody = z.strictObject(productFields).partial().meta({ description: 'Only the fields sent change.' });
export type ProductPatch = z.output<typeof PatchProductBody>;

export const CloneProductBody = z
  .strictObject({ active: z.boolean(), name })
  .partial()
  .optional()
  .describe('`name` defaults to `Kopia: <name>`; the clone is inactive unless `active: true`.');

export const ProductParams = z.object({ id: z.string().max(20).describe('the product id') });

const boolText = z.enum(['true', 'false']).transform((value) => value === 'true');
export const ProductListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  active: boolText.optional().describe('`true` or `false`'),
  category_id: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('products with this main category'),
  search: text(255).trim().optional().describe('part of the name or SKU, case-insensitive'),
});

export const ProductReply = z
  .object({
    id: z.number(),
    name: z.string(),
    sku: z.string(),
    price: z.string(),
    vat_rate: z.number(),
    active: z.boolean(),
    electronic: z.boolean(),
    distribution: z.string(),
    description: z.string(),
    description_for_cart: z.string(),
    category: z.string().describe('name of the first main category; "" without one'),
    category_id: z.number().nullable().describe('id of the first main category; null without one'),
    ean: z.string().nullable(),
    producer: z.string(),
    invoice_item_name: z.string(),
    pkwiu: z.string().nullable(),
    product_link: z.string(),
    gtu_code: z.string().nullable(),
    regular_price_displayed: z.string(),
    allow_price_change: z.boolean(),
    minimal_price: z.string().nullable(),
    allow_zero_minimal_price: z.boolean(),
    delivery_type_ids: z.array(z.number()),
    payment_type_ids: z.array(z.number()),
    cart_quantity_limit: z.number().nullable(),
    lump_code: z.string(),
    product_category_ids: z.array(z.number()),
    feed_category_id: z.number().nullable(),
    photo_url: z.string().describe('where the photo is served (no key needed); "" without a photo'),
    hide_in_xmls: z.boolean(),
    no_invoice: z.boolean(),
    hide_invoice_address_fields: z.boolean(),
    payment_return_url: z.string().nullable(),
    course_access: z.array(z.object({ course_id: z.string(), access_level: z.number() })).describe('beyond the spec: courses of the linked course platform this product grants'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ShopProduct' });
export type ProductReply = z.infer<typeof ProductReply>;

export const DeleteProductReply = z.object({
  data: z.object({ id: z.number(), deleted: z.boolean(), hidden: z.boolean(), message: z.string().optional() }),
});
