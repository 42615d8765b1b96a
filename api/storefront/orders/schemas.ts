import { z } from 'zod';
import { SubdomainParams } from '../shop.ts';

export const OrderUuidParams = SubdomainParams.extend({ uuid: z.uuid().describe("the order's secret uuid (its cart's id)") });

/** The buyer's view of an order (DESIGN.md section 9): never `placed_ip`, notes or another buyer's data. */
export const BuyerOrderReply = z
  .object({
    uuid: z.string(),
    ordinal_number: z.number(),
    order_status: z.string(),
    paid: z.boolean(),
    products_cost: z.string(),
    delivery_cost: z.string(),
    payment_cost: z.string(),
    total_discount: z.string(),
    total: z.string(),
    currency: z.string(),
    items: z.array(z.object({ product_id: z.number().nullable(), name: z.string(), quantity: z.number(), unit_price: z.string(), price: z.string(), discount: z.string(), final_price: z.string() })),
    delivery_method: z.string().nullable(),
    payment_method: z.string().nullable(),
    placed_at: z.string(),
    copy_url: z.string().describe('opens a new cart with this order\'s email, addresses, delivery and payment types'),
    invoices: z
      .array(z.object({ id: z.number(), kind: z.enum(['invoice', 'correction']), number: z.string(), url: z.string().describe("absolute link to the invoice's PDF") }))
      .describe('the invoice and its correction, oldest first'),
  })
  .meta({ id: 'StorefrontOrder' });

export const OrderInvoiceParams = OrderUuidParams.extend({ invoice_id: z.coerce.number().int().positive().max(2_147_483_647) });
