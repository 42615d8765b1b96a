/**
 * The orders the shop parts read (order lists, reports), written straight into the tables: `n`
 * orders spread evenly over the report range ending DATE_TO in time order (as a shop takes them),
 * 90 % placed, 5 % canceled, 5 % returned; 70 % paid an hour after placing; three payment
 * methods; totals 10.00 to 509.99. Their lines and the VACUUM are each part's own.
 */
import type pg from 'pg';
import { dayNumber, dayText, REPORT_MAX_DAYS } from '../../domain/shop/reports.ts';

export const DATE_TO = '2026-10-31';
export const DATE_FROM = dayText(dayNumber(DATE_TO)! - REPORT_MAX_DAYS + 1);

export async function seedOrders(client: pg.Client, shopId: string, statuses: Record<string, number>, n: number): Promise<void> {
  const lit = (value: string) => client.escapeLiteral(value);
  await client.query(`
    insert into shop_orders (shop_id, uuid, ordinal_number, internal_status, order_status_id, email, currency, products_cost,
      delivery_cost, payment_cost, total_discount, total, payment_method, paid, paid_at, order_attributes, notes, placed_at, created_at, updated_at)
    select ${lit(shopId)}, gen_random_uuid(), g,
           case g % 20 when 0 then 'canceled' when 1 then 'returned' else 'placed' end,
           case when g % 10 < 7 then ${statuses.Paid!} else ${statuses.New!} end,
           'buyer' || (g % 50000) || '@example.com', 'PLN', t.total, 0, 0, 0, t.total,
           case g % 3 when 0 then 'Przelewy24' when 1 then 'Transfer' else 'BLIK' end,
           g % 10 < 7, case when g % 10 < 7 then t.placed_at + interval '1 hour' end, '[]', '[]', t.placed_at, t.placed_at, t.placed_at
      from generate_series(1, ${n}) g
     cross join lateral (select ${lit(DATE_FROM)}::timestamptz + (g - 0.5) / ${n}::float8 * interval '${REPORT_MAX_DAYS - 1} days' as placed_at,
                                (((g::bigint * 7919) % 50000) / 100.0 + 10)::numeric(12,2) as total) t`);
}
