import { z } from 'zod';
import { AddressInput, AnalyticsClientIdInput, CheckoutDataFields } from '../../shop/placement/schemas.ts';
import { storableText } from '../../shop/orders/schemas.ts';
import { moneyAmount } from '../../shop/shared/money-schema.ts';
import { StorefrontRecommendation } from '../products/schemas.ts';
import { SubdomainParams } from '../shop.ts';

const INT_MAX = 2_147_483_647;
const id = z.number().int().positive().max(INT_MAX);

export const CartParams = SubdomainParams.extend({ cart_id: z.uuid().describe("the cart's secret id") });

const CartItemInput = z.strictObject({
  product_id: id,
  quantity: z.number().int().min(1).max(10_000).default(1),
  price: moneyAmount.optional().describe("the buyer's unit price, for products with allow_price_change (not below minimal_price)"),
});
const Items = z.array(CartItemInput).max(100);
const SetSlug = z.string().trim().min(1).max(255).describe("a product set's slug (its link); a link_only_discount set only when the cart is created with it (its link)");

export const CreateCartBody = z.strictObject({
  items: Items.optional(),
  product_set: SetSlug.optional(),
  email: z.email().max(254).optional(),
  copy_of: z.uuid().optional().describe("an order's uuid: the new cart carries its email, addresses, parcel locker, invoice recipient, delivery and payment types (still active ones)"),
});
export type CreateCartInput = z.output<typeof CreateCartBody>;

export const PatchCartBody = z.strictObject({
  items: Items.optional().describe('replaces the items'),
  product_set: SetSlug.nullish().describe('a product set ordered whole (pool mode: the picks in `items`); null removes it'),
  email: z.email().max(254).nullish(),
  newsletter: z.boolean().optional().describe('newsletter consent (signs up at checkout; newsletter discounts apply)'),
  discount_code: storableText(255).nullish().describe('null removes it'),
  delivery_type_id: id.nullish(),
  payment_type_id: id.nullish(),
  delivery_address: AddressInput.nullish(),
  invoice_address: AddressInput.nullish(),
  comment: storableText(10_000).optional(),
  ref: storableText(255).nullish(),
  delivery_point_code: CheckoutDataFields.delivery_point_code.nullish().describe('the parcel locker (pickup point) chosen, e.g. `KRA01M`; null or "" removes it'),
  invoice_recipient_name: CheckoutDataFields.invoice_recipient_name.optional(),
  order_attributes: CheckoutDataFields.order_attributes.optional(),
  analytics_client_id: AnalyticsClientIdInput.nullish(),
});
export type PatchCartInput = z.output<typeof PatchCartBody>;

const Address = z.record(z.string(), z.string()).nullable();
const ChargeType = z.object({ id: z.number(), name_displayed: z.string(), price: z.string() });

/** A cart (DESIGN.md section 9), priced again on every read. */
export const CartReply = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    items: z.array(
      z.object({ product_id: z.number(), name: z.string(), quantity: z.number(), unit_price: z.string(), price: z.string(), discount: z.string(), final_price: z.string() }),
    ),
    product_set: z.string().nullable(),
    discount_code: z.string().nullable(),
    newsletter: z.boolean(),
    delivery_type_id: z.number().nullable(),
    payment_type_id: z.number().nullable(),
    delivery_address: Address,
    invoice_address: Address,
    comment: z.string(),
    ref: z.string().nullable(),
    delivery_point_code: z.string().nullable(),
    invoice_recipient_name: z.string(),
    order_attributes: z.array(z.object({ name: z.string(), value: z.string() })),
    analytics_client_id: z.string().nullable().describe('the GA4 client id as kept (a `_ga` cookie value normalized to `<n>.<n>`)'),
    pricing: z
      .object({ products_cost: z.string(), delivery_cost: z.string(), payment_cost: z.string(), total_discount: z.string(), total: z.string() })
      .nullable()
      .describe('null when the cart cannot be priced now (see `problems`)'),
    problems: z.record(z.string(), z.array(z.string())).describe('why the cart cannot be checked out now (a product switched off since, ...), by field; {} when it can'),
    currency: z.string(),
    checked_out: z.boolean(),
    recommendations: z.array(StorefrontRecommendation),
    delivery_types: z.array(ChargeType),
    payment_types: z.array(ChargeType),
  })
  .meta({ id: 'StorefrontCart' });

export const CheckoutReply = z
  .object({
    order_id: z.number(),
    uuid: z.string(),
    ordinal_number: z.number(),
    total: z.string(),
    currency: z.string(),
    payment: z
      .object({
        provider: z.literal('stripe'),
        payment_intent_id: z.string(),
        client_secret: z.string().describe("for Stripe.js (`confirmPayment`) on the buyer's side"),
        amount: z.string(),
        currency: z.string(),
      })
      .nullable()
      .describe('what the client needs to pay when the shop\'s gateway is Stripe and the total is above zero; null otherwise (the order waits for PATCH .../clear, or is free)'),
  })
  .meta({ id: 'StorefrontCheckout' });
