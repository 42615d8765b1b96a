import { z } from 'zod';
import { moneyAmount } from '../../shop/shared/money-schema.ts';
import { storableText } from '../../shop/orders/schemas.ts';

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
  placed_at: z.iso.datetime({ offset: true }).optional().describe('ISO 8601; default now (for imports)'),
});
export type PlaceOrderInput = z.output<typeof PlaceOrderBody>;
