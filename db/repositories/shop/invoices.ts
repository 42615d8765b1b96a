import type { EntityManager } from '@mikro-orm/postgresql';
import { invoiceNumber, yearIn, type InvoiceDocument, type InvoiceKind } from '../../../domain/shop/invoice.ts';
import type { IShop } from '../../entities/shop/index.ts';
import { Order, ShopInvoice, type IShopInvoice } from '../../entities/shop/index.ts';
import { intArray } from '../shared/array-literal.ts';

/**
 * The shop's time zone, the one place invoices read it (their numbering year, issue and sale
 * days); DESIGN.md section 10 lets the owner set it (`PATCH /admin/v1/shops/:shop_id {time_zone}`).
 */
export function shopTimeZone(shop: Pick<IShop, 'timeZone'>): string {
  return shop.timeZone || 'Europe/Warsaw';
}

export interface InvoiceToIssue {
  shopId: string;
  orderId: number;
  kind: InvoiceKind;
  issuedAt: Date;
  timeZone: string;
  correctsId?: number | null;
  /** The document under its number (built once the number is taken). */
  build: (number: string) => InvoiceDocument;
}

export interface IssuedInvoice {
  id: number;
  number: string;
  created: boolean;
}

/**
 * Issues the order's document of `kind` once, in one transaction: the order's row locked (one
 * issuer per order), the existing one answered, else the next number of the shop's year and kind
 * taken by upserting its counter (the row lock orders concurrent issuers; a rollback gives the
 * number back: no gaps) and the document written. An invoice's number is also the order's
 * `invoice_number`.
 */
export async function issueInvoiceDocument(em: EntityManager, input: InvoiceToIssue): Promise<IssuedInvoice> {
  return em.transactional(async (tx) => {
    const [order] = await tx.execute<{ id: number }[]>('select id from shop_orders where shop_id = ? and id = ? for update', [input.shopId, input.orderId]);
    if (!order) throw new Error(`order ${input.orderId} of shop ${input.shopId} not found`);
    const [existing] = await tx.execute<{ id: number; number: string }[]>('select id, number from shop_invoices where order_id = ? and kind = ?', [input.orderId, input.kind]);
    if (existing) return { id: Number(existing.id), number: existing.number, created: false };
    const year = yearIn(input.issuedAt, input.timeZone);
    const [counter] = await tx.execute<{ last: number }[]>(
      `insert into shop_invoice_counters (shop_id, year, kind, last) values (?, ?, ?, 1)
       on conflict (shop_id, year, kind) do update set last = shop_invoice_counters.last + 1 returning last`,
      [input.shopId, year, input.kind],
    );
    const number = invoiceNumber(input.kind, year, Number(counter!.last));
    const document = input.build(number);
    const [row] = await tx.execute<{ id: number }[]>(
      `insert into shop_invoices (shop_id, order_id, kind, number, corrects_id, currency, total, issued_at, document) values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      [input.shopId, input.orderId, input.kind, number, input.correctsId ?? null, document.currency, document.total.gross, input.issuedAt, JSON.stringify(document)],
    );
    if (input.kind === 'invoice') await tx.execute('update shop_orders set invoice_number = ? where shop_id = ? and id = ?', [number, input.shopId, input.orderId]);
    return { id: Number(row!.id), number, created: true };
  });
}

/** The order's documents, oldest first; null when the order is not the shop's (the shop filter). */
export async function invoicesOfOrder(em: EntityManager, orderId: number): Promise<IShopInvoice[] | null> {
  if (!(await em.count(Order, { id: orderId }))) return null;
  return em.find(ShopInvoice, { order: orderId }, { orderBy: { id: 'asc' } });
}

/** One document of the order; null when it is not the order's (or not the shop's). */
export function invoiceOfOrder(em: EntityManager, orderId: number, invoiceId: number) {
  return em.findOne(ShopInvoice, { id: invoiceId, order: orderId });
}

/** What an invoice reads of the shop's products, in one statement: which are `no_invoice`, and the `invoice_item_name` where one is set. */
export async function invoiceProductSettings(em: EntityManager, shopId: string, productIds: readonly number[]): Promise<{ noInvoice: Set<number>; names: Map<number, string> }> {
  if (productIds.length === 0) return { noInvoice: new Set(), names: new Map() };
  const rows = await em.execute<{ id: number; no_invoice: boolean; invoice_item_name: string }[]>(
    `select id, no_invoice, invoice_item_name from shop_products where shop_id = ? and id = any(?::int[]) and (no_invoice or invoice_item_name <> '')`,
    [shopId, intArray(productIds)],
  );
  return {
    noInvoice: new Set(rows.filter((row) => row.no_invoice).map((row) => Number(row.id))),
    names: new Map(rows.filter((row) => row.invoice_item_name !== '').map((row) => [Number(row.id), row.invoice_item_name])),
  };
}

/** The order's document of a kind, if issued. */
export function invoiceOfKind(em: EntityManager, orderId: number, kind: InvoiceKind) {
  return em.findOne(ShopInvoice, { order: orderId, kind });
}
