import { z } from 'zod';
import { INTERNAL_STATUSES } from '../../../domain/shop/order.ts';

const INT_MAX = 2_147_483_647;

export const OrderParams = z.object({ id: z.coerce.number().int().positive().max(INT_MAX) });

/** Text PostgreSQL can store: no NUL characters (refused 422 naming the field, never a 500). */
export const storableText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => !text.includes('\u0000'), 'must not contain NUL characters');

const commaList = <T extends z.ZodType>(item: T, what: string) =>
  z
    .string()
    .max(4000)
    .transform((text, ctx) => {
      const parts = text.split(',').map((part) => part.trim()).filter(Boolean);
      if (parts.length === 0 || parts.length > 100) {
        ctx.addIssue({ code: 'custom', message: `must be one ${what} or a comma-separated list of at most 100` });
        return z.NEVER;
      }
      const parsed = parts.map((part) => item.safeParse(part));
      if (parsed.some((p) => !p.success)) {
        ctx.addIssue({ code: 'custom', message: `must be one ${what} or a comma-separated list of them` });
        return z.NEVER;
      }
      return parsed.map((p) => p.data as z.output<T>);
    });

const idText = z.string().regex(/^\d{1,10}$/).transform(Number).pipe(z.number().int().positive().max(INT_MAX));

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
  }, 'must be a calendar date YYYY-MM-DD');

/** The orders list query (spec: Endpoints/Orders). Unknown parameters are refused, as on every list (shared/strict-queries.ts), so a typo never widens the list. */
export const OrderListQuery = z
  .strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(25),
    status: idText.optional().describe('order_status_id'),
    internal_status: z.enum(INTERNAL_STATUSES).optional(),
    payment_status: z.enum(['paid', 'unpaid']).optional(),
    date_from: day.optional().describe("YYYY-MM-DD, inclusive, on placed_at as a day in the shop's time_zone"),
    date_to: day.optional().describe("YYYY-MM-DD, inclusive, on placed_at as a day in the shop's time_zone"),
    customer_email: storableText(254).optional().describe('exact address, case-insensitive'),
    search: z
      .string()
      .regex(/^#?\s*\d{1,9}$/, 'must be an order number such as 123 or #123')
      .transform((text) => Number(text.replace(/^#\s*/, '')))
      .optional()
      .describe('order number (ordinal_number), "123" or "#123"'),
    product_id: commaList(idText, 'product id').optional().describe('one id or a comma-separated list: orders containing any of them'),
    sku: commaList(storableText(255), 'SKU').optional().describe('one SKU or a comma-separated list: orders containing any of them'),
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, { path: ['date_to'], message: 'must not be before date_from' });
export type OrderListQueryInput = z.output<typeof OrderListQuery>;

const AddressReply = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    company: z.string(),
    nip: z.string(),
    address: z.string(),
    postcode: z.string(),
    city: z.string(),
    country: z.string(),
    phone: z.string(),
    email: z.string(),
  })
  .meta({ id: 'ShopOrderAddress' });

export const OrderListItemReply = z
  .object({
    id: z.number(),
    uuid: z.uuid().describe('secret cart key: never logged'),
    ordinal_number: z.number(),
    internal_status: z.enum(INTERNAL_STATUSES),
    order_status: z.string(),
    order_status_id: z.number(),
    email: z.string(),
    total: z.string(),
    currency: z.string(),
    paid: z.boolean(),
    invoice_number: z.string().nullable(),
    transaction_id: z.string().nullable(),
    paid_at: z.string().nullable(),
    ref: z.string().nullable(),
    subscriber_identifier: z.string().nullable(),
    delivery_method: z.string().nullable(),
    placed_at: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ShopOrderListItem' });

export const OrderItemReply = z
  .object({
    id: z.number(),
    product_id: z.number().nullable(),
    name: z.string(),
    sku: z.string(),
    quantity: z.number(),
    unit_price: z.string(),
    vat_rate: z.number(),
    price: z.string(),
    discount: z.string(),
    final_price: z.string(),
    subscriber_identifiers: z.array(z.string()),
    ref: z.string().nullable(),
  })
  .meta({ id: 'ShopOrderItem' });

export const OrderDetailReply = OrderListItemReply.extend({
  products_cost: z.string(),
  delivery_cost: z.string(),
  payment_cost: z.string(),
  gift_packing_cost: z.string(),
  total_discount: z.string(),
  delivery_vat_rate: z.number().nullable().describe('null when the order has no delivery type'),
  payment_vat_rate: z.number().nullable().describe('null when the order has no payment type'),
  discount_code: z.string().describe('empty when none was used'),
  cash_on_delivery: z.boolean(),
  comment: z.string(),
  delivery_point_code: z.string().nullable(),
  tracking_number: z.string(),
  tracking_url: z.string(),
  items: z.array(OrderItemReply),
  delivery_address: AddressReply.nullable().describe('null when none was given'),
  invoice_address: AddressReply.nullable().describe('null when none was given'),
  invoice_recipient_name: z.string(),
  placed_ip: z.string().nullable(),
  order_attributes: z.array(z.object({ name: z.string(), value: z.string() })),
  notes: z.array(z.object({ content: z.string(), created_at: z.string() })),
}).meta({ id: 'ShopOrderDetail' });

/** `GET /orders/:id`: the detail with the storefront's copy link (DESIGN.md section 9). */
export const OrderDetailWithCopyReply = OrderDetailReply.extend({
  copy_url: z.string().describe("STOREFRONT_URL_TEMPLATE for the shop + `/cart?copy_of=<uuid>`: a new cart with this order's email, addresses, delivery and payment types"),
}).meta({ id: 'ShopOrderDetailWithCopy' });
