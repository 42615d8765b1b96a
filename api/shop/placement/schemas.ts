/**
 * The placement's input (`PlaceOrderBody`, `PlaceOrderInput`): the operator's body, and what a
 * storefront cart becomes at checkout; its parts the cart and the panel's order edit take too.
 */
import { z } from 'zod';
import { moneyAmount } from '../shared/money-schema.ts';
import { storableText } from '../orders/schemas.ts';
import { gaClientId } from '../../../domain/shop/analytics-client-id.ts';

const INT_MAX = 2_147_483_647;
const id = z.number().int().positive().max(INT_MAX);

/** A buyer's address: every field optional text; stored with all ten fields ('' when not sent). */
export const AddressInput = z.strictObject({
  first_name: storableText(100).optional(),
  last_name: storableText(100).optional(),
  company: storableText(255).optional(),
  nip: storableText(32).optional(),
  address: storableText(255).optional(),
  postcode: storableText(16).optional(),
  city: storableText(100).optional(),
  country: storableText(100).optional(),
  phone: storableText(32).optional(),
  email: z.union([z.literal(''), z.email().max(254)]).optional(),
});

/** Stored text, trimmed (the order's columns are varchar(255)). */
const trimmedText = (max: number) => z.string().trim().max(max).refine((text) => !text.includes('\u0000'), 'must not contain NUL characters');

/**
 * The checkout data beside pricing (DESIGN.md section 10, "Checkout data"), taken alike by the
 * operator's placement, the storefront cart's PATCH and the panel's order edit: one definition,
 * so a value one of them takes the others take too.
 */
export const CheckoutDataFields = {
  delivery_point_code: trimmedText(255).describe("the parcel locker (pickup point) the buyer chose, e.g. InPost's `KRA01M`; \"\" or null for none"),
  invoice_recipient_name: trimmedText(255).describe("the name the invoice is made out to, beside `invoice_address`; \"\" for none"),
  order_attributes: z
    .array(z.strictObject({ name: trimmedText(255).min(1), value: storableText(10_000) }))
    .max(100)
    .describe('free name/value pairs kept on the order (gift message, NIP confirmation, ...); replaces the whole list'),
};

/**
 * The buyer's GA4 client id: `<digits>.<digits>` as gtag.js makes it, or the raw `_ga` cookie
 * value (`GA1.1.<digits>.<digits>`), kept as the client id; the purchase event reports it.
 */
export const AnalyticsClientIdInput = z
  .string()
  .max(64)
  .transform((raw, ctx) => {
    const id = gaClientId(raw);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a GA client id like 1234567890.1234567890 or a _ga cookie value like GA1.1.1234567890.1234567890' });
      return z.NEVER;
    }
    return id;
  })
  .describe("the buyer's GA4 client id from the `_ga` cookie: `1234567890.1234567890`, or the cookie's raw value `GA1.1.1234567890.1234567890` (kept as the id); the clearing's purchase event reports it as `client_id`");

/** Operator order placement (DESIGN.md section 8), priced by domain/shop/pricing.ts. */
export const PlaceOrderBody = z.strictObject({
  email: z.email().max(254),
  items: z
    .array(
      z.strictObject({
        product_id: id,
        quantity: z.number().int().min(1).max(10_000).default(1),
        price: moneyAmount.optional().describe('the buyer\'s unit price, for products with allow_price_change (not below minimal_price)'),
      }),
    )
    .max(100)
    .default([])
    .describe('the products (at least one); with a product set in pool mode the buyer\'s picks; with any other set empty'),
  product_set_id: id
    .nullish()
    .describe('a product set of the shop ordered whole at its price (in pool mode: the picks in `items`); inactive, link-only without via_set_link, or another shop\'s: 422'),
  via_set_link: z.boolean().default(false).describe('the buyer came through the product set\'s direct link (needed for link_only_discount sets)'),
  delivery_type_id: id.nullish(),
  payment_type_id: id.nullish(),
  discount_code: storableText(255).nullish().describe('a discount code of the shop (case as the code says); empty for none'),
  newsletter: z.boolean().default(false),
  delivery_address: AddressInput.nullish(),
  invoice_address: AddressInput.nullish(),
  comment: storableText(10_000).default(''),
  ref: storableText(255).nullish(),
  placed_ip: z.union([z.ipv4(), z.ipv6()]).nullish(),
  delivery_point_code: CheckoutDataFields.delivery_point_code.nullish(),
  invoice_recipient_name: CheckoutDataFields.invoice_recipient_name.default(''),
  order_attributes: CheckoutDataFields.order_attributes.default([]),
  analytics_client_id: AnalyticsClientIdInput.nullish(),
  placed_at: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; default now (for imports)'),
});
export type PlaceOrderInput = z.output<typeof PlaceOrderBody>;
