/**
 * The shop reports' SQL (spec: Reports): each reply is one aggregate statement, the totals and
 * the buckets together through GROUPING SETS, on the covering indexes of shop_orders
 * (`shop_orders_report_placed_index` for sales, `shop_orders_report_paid_index` for payments).
 *
 * Dates are calendar days in the shop's time zone (`shops.time_zone`): the range is
 * [date_from 00:00, date_to + 1 day 00:00) there, and a bucket is the day, ISO week (Monday) or
 * month of the order's time there. Raw SQL: the tenant filter does not apply, so every statement
 * names `shop_id` itself.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReportGrouping } from '../../../domain/shop/reports.ts';

export interface ReportFilter {
  shopId: string;
  /** `YYYY-MM-DD`, inclusive, in the shop's time zone. */
  dateFrom: string;
  dateTo: string;
  /** Orders having a line with one of these products (and, when both are given, one of these SKUs). */
  productIds?: number[];
  skus?: string[];
  orderStatusId?: number;
  paymentStatus?: 'paid' | 'unpaid';
  /** Compared case-insensitively. */
  customerEmail?: string;
}

export interface ReportStatement {
  sql: string;
  params: unknown[];
}

/** One row of the sales aggregate: `date` null on the total row. */
export interface SalesRow {
  date: string | null;
  orders_count: number;
  total_revenue: string;
  paid_orders_count: number;
  paid_revenue: string;
}

/** One row of the payments aggregate: `date` null on rows over the whole range, `payment_type` null on rows over all types. */
export interface PaymentsRow {
  date: string | null;
  /** Name of the order's payment method at placing time; null when the order has none. */
  payment_type: string | null;
  all_dates: boolean;
  all_types: boolean;
  count: number;
  amount: string;
}

const TRUNC: Record<Exclude<ReportGrouping, 'total'>, string> = { day: 'day', week: 'week', month: 'month' };

/**
 * The bucket of `column`: its index in the bucket starts (`bounds`, below), found by binary search
 * (`width_bucket`), so no row pays for a time-zone conversion.
 */
function bucketExpression(column: string): string {
  return `width_bucket(${column}, (select starts from bounds))`;
}

/**
 * The starts of every bucket of the range, as local midnights in the shop's time zone: `days` the
 * dates (`date_trunc('week')` starts on Monday, ISO), `starts` the instants. Dates from the
 * statement's parameters, computed once per statement.
 */
function boundsCte(grouping: Exclude<ReportGrouping, 'total'>): string {
  return `,
bounds as materialized (
  select array_agg(d::date order by d) as days, array_agg(d at time zone (select name from tz) order by d) as starts
    from generate_series(date_trunc('${TRUNC[grouping]}', ?::date::timestamp), ?::date::timestamp, interval '1 ${TRUNC[grouping]}') d)`;
}

/** The shop, the time window on `column` and the optional filters, shared by both reports. */
function whereClause(f: ReportFilter, column: string): { sql: string; params: unknown[] } {
  const conditions = [
    `o.shop_id = ?`,
    `o.internal_status = 'placed'`,
    `o.${column} >= (?::date)::timestamp at time zone (select name from tz)`,
    `o.${column} < (?::date + 1)::timestamp at time zone (select name from tz)`,
  ];
  const params: unknown[] = [f.shopId, f.dateFrom, f.dateTo];
  if (f.orderStatusId !== undefined) {
    conditions.push('o.order_status_id = ?');
    params.push(f.orderStatusId);
  }
  if (f.paymentStatus) conditions.push(f.paymentStatus === 'paid' ? 'o.paid' : 'not o.paid');
  if (f.customerEmail !== undefined) {
    conditions.push('lower(o.email) = lower(?)');
    params.push(f.customerEmail);
  }
  if (f.productIds?.length) {
    conditions.push('exists (select 1 from shop_order_items i where i.order_id = o.id and i.shop_id = o.shop_id and i.product_id in (?))');
    params.push(f.productIds);
  }
  if (f.skus?.length) {
    conditions.push('exists (select 1 from shop_order_items i where i.order_id = o.id and i.shop_id = o.shop_id and i.sku in (?))');
    params.push(f.skus);
  }
  return { sql: conditions.join('\n      and '), params };
}

/** The bucket as text (never a JS Date, whose day would depend on the process's time zone); null on whole-range rows. */
const dateColumn = (grouping: ReportGrouping) => (grouping === 'total' ? 'null::text as date' : `to_char((select days from bounds)[bucket], 'YYYY-MM-DD') as date`);

const boundsParams = (f: ReportFilter, grouping: ReportGrouping) => (grouping === 'total' ? [] : [f.dateFrom, f.dateTo]);

const TIME_ZONE_CTE = `with tz as materialized (select time_zone as name from shops where id = ?)`;

/** The sales aggregate: placed orders in the range, the total row first, then one row per non-empty bucket. */
export function salesStatement(f: ReportFilter, grouping: ReportGrouping): ReportStatement {
  const where = whereClause(f, 'placed_at');
  const bucket = grouping === 'total' ? 'null' : bucketExpression('o.placed_at');
  const groups = grouping === 'total' ? '()' : '(bucket), ()';
  const sql = `${TIME_ZONE_CTE}${grouping === 'total' ? '' : boundsCte(grouping)}
select ${dateColumn(grouping)},
       count(*)::int as orders_count,
       coalesce(sum(total), 0)::text as total_revenue,
       (count(*) filter (where paid))::int as paid_orders_count,
       coalesce(sum(total) filter (where paid), 0)::text as paid_revenue
  from (select ${bucket} as bucket, o.total, o.paid
          from shop_orders o
         where ${where.sql}) o
 group by grouping sets (${groups})${grouping === 'total' ? '' : '\n order by grouping(bucket) desc, bucket'}`;
  return { sql, params: [f.shopId, ...boundsParams(f, grouping), ...where.params] };
}

/**
 * The payments aggregate: paid placed orders whose `paid_at` is in the range, by payment type,
 * by bucket, and by both (GROUPING SETS), the whole-range rows first.
 */
export function paymentsStatement(f: ReportFilter, grouping: ReportGrouping): ReportStatement {
  const where = whereClause(f, 'paid_at');
  const bucket = grouping === 'total' ? 'null' : bucketExpression('o.paid_at');
  const groups = grouping === 'total' ? '(payment_type), ()' : '(payment_type), (), (bucket), (bucket, payment_type)';
  const sql = `${TIME_ZONE_CTE}${grouping === 'total' ? '' : boundsCte(grouping)}
select ${dateColumn(grouping)},
       payment_type,
       ${grouping === 'total' ? 'true' : 'grouping(bucket) = 1'} as all_dates,
       grouping(payment_type) = 1 as all_types,
       count(*)::int as count,
       coalesce(sum(total), 0)::text as amount
  from (select ${bucket} as bucket, o.payment_method as payment_type, o.total
          from shop_orders o
         where ${where.sql}
           and o.paid) o
 group by grouping sets (${groups})
 order by ${grouping === 'total' ? '' : 'grouping(bucket) desc, bucket, '}grouping(payment_type) desc, payment_type nulls last`;
  return { sql, params: [f.shopId, ...boundsParams(f, grouping), ...where.params] };
}

export function salesReportRows(em: EntityManager, f: ReportFilter, grouping: ReportGrouping): Promise<SalesRow[]> {
  const { sql, params } = salesStatement(f, grouping);
  return em.getConnection().execute<SalesRow[]>(sql, params);
}

export function paymentsReportRows(em: EntityManager, f: ReportFilter, grouping: ReportGrouping): Promise<PaymentsRow[]> {
  const { sql, params } = paymentsStatement(f, grouping);
  return em.getConnection().execute<PaymentsRow[]>(sql, params);
}
