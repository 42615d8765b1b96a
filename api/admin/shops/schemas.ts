import { z } from 'zod';
import { SHOP_SCOPES } from '../../../domain/shop/scopes.ts';
import { ORDER_STATUS_KINDS } from '../../../domain/shop/order-statuses.ts';
import { moneyAmount } from '../../shop/shared/money-schema.ts';
import { patchOf } from '../../shared/patch-body.ts';
import { InvoiceSellerBody, InvoiceSellerReply } from './invoice-seller-schema.ts';
import { isTimeZone } from '../../../domain/shared/time-zones.ts';

export const ShopParams = z.object({ shop_id: z.uuid() });
export const ShopKeyParams = ShopParams.extend({ key_id: z.uuid() });

const name = z.string().trim().min(1).max(255);

export const CreateShopBody = z.object({
  subdomain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lower-case letters, digits and inner dashes, at most 63'),
  name,
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as PLN').default('PLN'),
  admin_email: z.email().max(254).nullish(),
});
/** An IANA time zone name Intl knows (`Europe/Warsaw`, `America/New_York`). */
const TimeZone = z.string().max(64).refine(isTimeZone, 'must be an IANA time zone name such as Europe/Warsaw');
export const PatchShopBody = z.object({
  name: name.optional(),
  api_enabled: z.boolean().optional(),
  automatic_invoicing: z.boolean().optional(),
  invoice_seller: InvoiceSellerBody.nullable().optional(),
  time_zone: TimeZone.optional().describe('reports, order-list dates, invoice years and mail dates follow it (default Europe/Warsaw)'),
});
export const ShopReply = z
  .object({
    id: z.uuid(),
    subdomain: z.string(),
    name: z.string(),
    currency: z.string(),
    admin_email: z.string().nullable(),
    api_enabled: z.boolean(),
    automatic_invoicing: z.boolean(),
    invoice_seller: InvoiceSellerReply.describe('the seller block of its invoices; null: the shop\'s name alone'),
    time_zone: z.string(),
  })
  .meta({ id: 'OperatorShop' });

export const CreateShopKeyBody = z.object({ name, scopes: z.array(z.enum(SHOP_SCOPES)).min(1).max(SHOP_SCOPES.length) });
export const ShopKeyReply = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(SHOP_SCOPES)),
  token: z.string().describe('The full key: shown once, only its hash is stored.'),
});

export const CreateCategoryBody = z.object({ name, parent_id: z.number().int().positive().nullish() });
export const CategoryReply = z.object({ id: z.number(), name: z.string(), parent_id: z.number().nullable() });

export const CreateDeliveryTypeBody = z.object({
  name,
  name_displayed: name.optional(),
  default_price: moneyAmount,
  vat_rate: z.number().int().min(0).max(100).default(23),
  active: z.boolean().default(true),
  domestic: z.boolean().default(true),
});
export const DeliveryTypeAdminReply = z.object({
  id: z.number(),
  name: z.string(),
  name_displayed: z.string(),
  default_price: z.string(),
  vat_rate: z.number(),
  active: z.boolean(),
  domestic: z.boolean(),
});

export const CreatePaymentTypeBody = z.object({
  name,
  name_displayed: name.optional(),
  default_price: moneyAmount.default('0.00'),
  vat_rate: z.number().int().min(0).max(100).default(23),
  cash_on_delivery: z.boolean().default(false),
  active: z.boolean().default(true),
});
export const PaymentTypeAdminReply = z.object({
  id: z.number(),
  name: z.string(),
  name_displayed: z.string(),
  default_price: z.string(),
  vat_rate: z.number(),
  cash_on_delivery: z.boolean(),
  active: z.boolean(),
});

export const CreateOrderStatusBody = z.object({ name, visible: z.boolean().default(true) });
export const OrderStatusAdminReply = z.object({ id: z.number(), name: z.string(), kind: z.enum(ORDER_STATUS_KINDS), visible: z.boolean() });

export const CreateSenderBody = z.object({ name, email: z.email().max(254) });
export const SenderReply = z.object({ id: z.number(), name: z.string(), email: z.string() });

/** The panel's edits (DESIGN.md section 10): each PATCH takes any field of its POST, checked as there. */
export const IdParams = ShopParams.extend({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const PatchDeliveryTypeBody = patchOf(CreateDeliveryTypeBody);
export const PatchPaymentTypeBody = patchOf(CreatePaymentTypeBody);
export const PatchCategoryBody = patchOf(CreateCategoryBody);
export const PatchSenderBody = patchOf(CreateSenderBody);
export const PatchOrderStatusBody = patchOf(CreateOrderStatusBody);
export const DeletedReply = z.object({ id: z.number(), deleted: z.literal(true) });
