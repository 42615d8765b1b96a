/**
 * The shop's order list (`GET /api/v1/orders`): a page, newest first, and the count `meta.total`
 * needs. Written as SQL (issue 26): the page reads the list's columns only (not the addresses,
 * notes and attributes), the status name joined, and the count reads the orders alone; both in
 * one statement with its values bound (one pool connection and one round trip per list; not
 * through the ORM's query path: shared/prepared.ts). The page is cheap for every filter (at most
 * a few ms over 1 000 000 orders); the count is what a large match costs.
 * Indexes: (shop_id, placed_at, id) for the newest-first page and the date range, (shop_id, email)
 * for a buyer, the order items' (shop_id, product_id) and (shop_id, sku) for the line filters.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InternalStatus } from '../../../domain/shop/order.ts';
import type { OrderListRecord } from '../../../domain/shop/order-document-types.ts';
import { runStatementArrays, statement } from '../shared/prepared.ts';
import { arrayLiteral, intArray } from '../shared/array-literal.ts';

export interface OrderListFilters {
  statusId?: number;
  internalStatus?: InternalStatus;
  paid?: boolean;
  /** Inclusive lower bound on placed_at. */
  placedFrom?: Date;
  /** Exclusive upper bound on placed_at. */
  placedBefore?: Date;
  /** Lower-case; addresses are stored lower-case. */
  email?: string;
  ordinalNumber?: number;
  productIds?: number[];
  skus?: string[];
}

/**
 * A row of the statement, its columns in order (the driver's array: no object per row): the count,
 * then the list record's columns with the status apart, `placed_at` for the order and the
 * timestamps as epoch milliseconds.
 */
type ListRow = [
  matching: string,
  id: number,
  uuid: string,
  ordinalNumber: number,
  internalStatus: OrderListRecord['internalStatus'],
  statusId: number,
  statusName: string,
  email: string,
  total: string,
  currency: string,
  paid: boolean,
  invoiceNumber: string | null,
  transactionId: string | null,
  paidAt: number | null,
  ref: string | null,
  subscriberIdentifier: string | null,
  deliveryMethod: string | null,
  placedAtText: string,
  placedAt: number,
  createdAt: number,
  updatedAt: number,
];

/**
 * A timestamp column as whole epoch milliseconds (float8: a number to the driver), what the ORM's
 * parsing of its text makes of it (postgres-date drops the microseconds below the millisecond).
 */
export const epochMs = (column: string) => `floor(extract(epoch from ${column}) * 1000)::float8`;

/** The list record's columns of order `o` and its status `s`, in `ListRow`'s order after the count. */
export const LIST_RECORD_COLUMNS = `o.id, o.uuid, o.ordinal_number as "ordinalNumber", o.internal_status as "internalStatus", o.order_status_id as "statusId", s.name as "statusName",
       o.email, o.total, o.currency, o.paid, o.invoice_number as "invoiceNumber", o.transaction_id as "transactionId", ${epochMs('o.paid_at')} as "paidAt", o.ref,
       o.subscriber_identifier as "subscriberIdentifier", o.delivery_method as "deliveryMethod", o.placed_at, ${epochMs('o.placed_at')} as "placedAt",
       ${epochMs('o.created_at')} as "createdAt", ${epochMs('o.updated_at')} as "updatedAt"`;

/** The page's status of an order, as a loaded reference (one class, not a closure per row). */
class LoadedStatus {
  constructor(private readonly status: { id: number; name: string }) {}
  getEntity(): { id: number; name: string } {
    return this.status;
  }
}

/** A page row as the list record: each field named, the timestamps made Dates once. */
function listRecord([, id, uuid, ordinalNumber, internalStatus, statusId, statusName, email, total, currency, paid, invoiceNumber, transactionId, paidAt, ref, subscriberIdentifier, deliveryMethod, , placedAt, createdAt, updatedAt]: ListRow): OrderListRecord {
  return {
    id,
    uuid,
    ordinalNumber,
    internalStatus,
    orderStatus: new LoadedStatus({ id: statusId, name: statusName }),
    email,
    total,
    currency,
    paid,
    invoiceNumber,
    transactionId,
    paidAt: paidAt === null ? null : new Date(paidAt),
    ref,
    subscriberIdentifier,
    deliveryMethod,
    placedAt: new Date(placedAt),
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  };
}

/** The list record of a row read as `LIST_RECORD_COLUMNS` (an array of them in their order). */
export const listRecordOfColumns = (columns: unknown[]): OrderListRecord => listRecord([null, ...columns] as unknown as ListRow);

/** The WHERE of both statements (`:name` placeholders), with its values. */
function condition(shopId: string, filters: OrderListFilters): { sql: string; values: Record<string, unknown> } {
  const parts = ['o.shop_id = :shop'];
  const values: Record<string, unknown> = { shop: shopId };
  const add = (sql: string, name: string, value: unknown) => {
    parts.push(sql);
    values[name] = value;
  };
  if (filters.statusId !== undefined) add('o.order_status_id = :statusId', 'statusId', filters.statusId);
  if (filters.internalStatus !== undefined) add('o.internal_status = :internalStatus', 'internalStatus', filters.internalStatus);
  if (filters.paid !== undefined) add('o.paid = :paid', 'paid', filters.paid);
  if (filters.email !== undefined) add('o.email = :email', 'email', filters.email);
  if (filters.ordinalNumber !== undefined) add('o.ordinal_number = :ordinal', 'ordinal', filters.ordinalNumber);
  if (filters.placedFrom) add('o.placed_at >= :from', 'from', filters.placedFrom);
  if (filters.placedBefore) add('o.placed_at < :before', 'before', filters.placedBefore);
  const lineMatches: string[] = [];
  if (filters.productIds?.length) {
    lineMatches.push('i.product_id = any(:productIds::int[])');
    values.productIds = intArray(filters.productIds);
  }
  if (filters.skus?.length) {
    lineMatches.push('i.sku = any(:skus::text[])');
    values.skus = arrayLiteral(filters.skus);
  }
  if (lineMatches.length > 0) parts.push(`o.id in (select i.order_id from shop_order_items i where i.shop_id = :shop and (${lineMatches.join(' or ')}))`);
  return { sql: parts.join(' and '), values };
}

/** A page of the shop's orders, newest first (placed_at, then id), and how many match in all. */
export async function listOrders(em: EntityManager, shopId: string, filters: OrderListFilters, window: { limit: number; offset: number }): Promise<[OrderListRecord[], number]> {
  const where = condition(shopId, filters);
  // One statement, one round trip: the count (one row), then the page joined to it (a row per
  // order, each carrying the count; one row of nulls but the count when the page is empty).
  // Unprepared: the best plan depends on the values (a buyer's 20 orders or a month of them).
  const found = (await runStatementArrays(
    em,
    statement(
      null,
      `select c.matching, p.* from (select count(*) as matching from shop_orders o where ${where.sql}) c
       left join lateral (
         select ${LIST_RECORD_COLUMNS}
           from shop_orders o left join shop_order_statuses s on s.id = o.order_status_id
          where ${where.sql} order by o.placed_at desc, o.id desc limit :limit offset :offset) p on true
       order by p.placed_at desc, p.id desc`,
      { ...where.values, limit: window.limit, offset: window.offset },
    ),
  )) as ListRow[];
  const [first] = found;
  const total = Number(first![0]);
  return [first![1] === null ? [] : found.map(listRecord), total];
}
