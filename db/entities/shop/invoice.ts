import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { InvoiceDocument, InvoiceKind } from '../../../domain/shop/invoice.ts';
import { Order } from './order.ts';
import { Shop } from './shop.ts';
import { shopOwned } from './shop-owned.ts';

/**
 * An issued invoice or correction (DESIGN.md section 10): `document` is everything its PDF prints,
 * so it renders again byte for byte. One of each kind per order; numbers unique per shop.
 */
export const ShopInvoice = defineEntity({
  name: 'ShopInvoice',
  tableName: 'shop_invoices',
  uniques: [{ properties: ['order', 'kind'] }, { properties: ['shop', 'number'] }],
  ...shopOwned({
    order: () => p.manyToOne(Order).ref(),
    kind: p.string().length(16).$type<InvoiceKind>(),
    number: p.string().length(64),
    /** The corrected invoice (a correction), else null. */
    correctsId: p.integer().nullable(),
    currency: p.string().length(3),
    /** Signed: a correction's is negative. */
    total: p.decimal('string').precision(12).scale(2),
    issuedAt: p.datetime(),
    document: p.json<InvoiceDocument>(),
  }),
});
export type IShopInvoice = InferEntity<typeof ShopInvoice>;

/**
 * The last number issued per shop, year (in the shop's zone) and kind: upserted in the
 * transaction that writes the invoice, so numbers start at 1 each year and have no gaps.
 */
export const ShopInvoiceCounter = defineEntity({
  name: 'ShopInvoiceCounter',
  tableName: 'shop_invoice_counters',
  properties: {
    shop: () => p.manyToOne(Shop).ref().primary(),
    year: p.integer().primary(),
    kind: p.string().length(16).primary().$type<InvoiceKind>(),
    last: p.integer(),
  },
});
export type IShopInvoiceCounter = InferEntity<typeof ShopInvoiceCounter>;
