/**
 * Part (c): `GET /api/v1/reports/sales?group_by=month` over one shop with ORDERS orders (seeded by
 * two INSERT ... SELECT generate_series statements: the orders, then one line each), against the
 * same aggregate as one raw SQL statement through `pg`: the text the API sends
 * (db/repositories/shop/reports.ts, parameters inlined as MikroORM inlines them). One request at a
 * time, alternating API and raw SQL; the figures are medians of the runs.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import pg from 'pg';
import { salesStatement } from '../../db/repositories/shop/reports.ts';
import { REPORT_MAX_DAYS } from '../../domain/shop/reports.ts';
import { DATE_FROM, DATE_TO, seedOrders } from './seed-orders.ts';
import { median, round } from './stats.ts';

export interface ShopReportsOptions {
  apiUrl: string;
  adminToken: string;
  databaseUrl: string;
  orders: number;
  warmups: number;
  runs: number;
  log: (line: string) => void;
}

export interface ShopReportsFigures {
  orders: number;
  seed_s: number;
  runs: number;
  group_by: 'month';
  days: number;
  buckets: number;
  api_ms: number;
  raw_sql_ms: number;
  api_runs_ms: number[];
  raw_sql_runs_ms: number[];
}

/** The widest range the API allows, ending on a fixed day: every order falls inside it. */

async function operator<T>(o: ShopReportsOptions, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${o.apiUrl}/admin/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${o.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`/admin/v1${path}: HTTP ${res.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** The orders of seed-orders.ts, one line each, and VACUUM ANALYZE as after a night's autovacuum. */
async function seed(client: pg.Client, shopId: string, statuses: Record<string, number>, n: number): Promise<void> {
  const lit = (value: string) => client.escapeLiteral(value);
  await seedOrders(client, shopId, statuses, n);
  await client.query(`
    insert into shop_order_items (shop_id, order_id, product_id, name, sku, quantity, unit_price, vat_rate, price, discount, final_price)
    select shop_id, id, 1 + id % 100, 'Product', 'SKU-' || (id % 100), 1, total, 23, total, 0, total
      from shop_orders where shop_id = ${lit(shopId)}`);
  await client.query('vacuum analyze shop_orders');
  await client.query('vacuum analyze shop_order_items');
}

interface Bucket {
  date: string;
  orders_count: number;
  total_revenue: string;
}

export async function measureShopReports(o: ShopReportsOptions): Promise<ShopReportsFigures> {
  const shop = await operator<{ id: string }>(o, '/shops', { subdomain: `bench-${randomUUID().slice(0, 8)}`, name: 'Bench shop' });
  const { token } = await operator<{ token: string }>(o, `/shops/${shop.id}/api_keys`, { name: 'reports', scopes: ['read'] });
  const statuses = Object.fromEntries((await operator<{ id: number; name: string }[]>(o, `/shops/${shop.id}/order_statuses`)).map((s) => [s.name, s.id]));

  const client = new pg.Client({ connectionString: o.databaseUrl, statement_timeout: 600_000 });
  await client.connect();
  try {
    const seedStart = performance.now();
    await seed(client, shop.id, statuses, o.orders);
    const seedS = (performance.now() - seedStart) / 1000;
    o.log(`shop reports: ${o.orders} orders with one line each seeded and vacuumed in ${seedS.toFixed(1)} s`);

    const url = `${o.apiUrl}/api/v1/reports/sales?date_from=${DATE_FROM}&date_to=${DATE_TO}&group_by=month`;
    const api = async (): Promise<Bucket[]> => {
      const res = await fetch(url, { headers: { 'x-api-key': token }, signal: AbortSignal.timeout(60_000) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GET /api/v1/reports/sales: HTTP ${res.status} ${text}`);
      return (JSON.parse(text) as { data: { buckets: Bucket[] } }).data.buckets;
    };
    const statement = salesStatement({ shopId: shop.id, dateFrom: DATE_FROM, dateTo: DATE_TO }, 'month');
    const sql = new PostgreSqlPlatform().formatQuery(statement.sql, statement.params);
    const raw = async () => (await client.query<Bucket & { date: string | null }>(sql)).rows;

    const buckets = await api();
    const rows = (await raw()).filter((r) => r.date !== null);
    const same = (b: Bucket[]) => JSON.stringify(b.filter((x) => x.orders_count > 0).map((x) => [x.date, x.orders_count, x.total_revenue]));
    if (same(buckets) !== same(rows)) throw new Error(`the API and the raw statement disagree:\n  api: ${same(buckets)}\n  sql: ${same(rows)}`);

    const timed = async (op: () => Promise<unknown>) => {
      const start = performance.now();
      await op();
      return performance.now() - start;
    };
    for (let i = 0; i < o.warmups; i++) {
      await timed(api);
      await timed(raw);
    }
    const apiMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < o.runs; i++) {
      // Alternate which goes first, so neither always finds the other's warm caches.
      if (i % 2 === 0) {
        apiMs.push(await timed(api));
        rawMs.push(await timed(raw));
      } else {
        rawMs.push(await timed(raw));
        apiMs.push(await timed(api));
      }
      o.log(`shop reports run ${i + 1}/${o.runs}: API ${apiMs.at(-1)!.toFixed(0)} ms, raw SQL ${rawMs.at(-1)!.toFixed(0)} ms`);
    }
    return {
      orders: o.orders,
      seed_s: seedS,
      runs: o.runs,
      group_by: 'month',
      days: REPORT_MAX_DAYS,
      buckets: buckets.length,
      api_ms: median(apiMs),
      raw_sql_ms: median(rawMs),
      api_runs_ms: apiMs,
      raw_sql_runs_ms: rawMs,
    };
  } finally {
    await client.end();
  }
}

/** The figures for the `bench` line, rounded, with the ratio API / raw statement. */
export function shopReportsSummary(f: ShopReportsFigures) {
  return {
    orders: f.orders,
    group_by: f.group_by,
    days: f.days,
    buckets: f.buckets,
    runs: f.runs,
    api_ms: round(f.api_ms, 1),
    raw_sql_ms: round(f.raw_sql_ms, 1),
    ratio: round(f.api_ms / f.raw_sql_ms, 3),
    api_runs_ms: f.api_runs_ms.map((ms) => round(ms, 0)),
    raw_sql_runs_ms: f.raw_sql_runs_ms.map((ms) => round(ms, 0)),
    seed_s: round(f.seed_s, 1),
  };
}

export function formatShopReports(f: ShopReportsFigures): string {
  const s = shopReportsSummary(f);
  return [
    '',
    `GET /api/v1/reports/sales?group_by=month over ${s.orders} orders of one shop (${s.days} days, ${s.buckets} buckets), one request at a time; medians of ${s.runs} runs`,
    `  API ${s.api_ms} ms (runs ${s.api_runs_ms.join(' ')}), raw SQL statement ${s.raw_sql_ms} ms (runs ${s.raw_sql_runs_ms.join(' ')}): ratio ${s.ratio}`,
    `  seeding took ${s.seed_s} s`,
  ].join('\n');
}
