/**
 * Part `shop-orders-1m` (issue 26, item 4): one shop with `orders` orders of 3 lines each, seeded
 * by SQL (spread evenly over a year in time order, 20 orders per buyer address, 100 products),
 * then VACUUM ANALYZE as after a night's autovacuum. One request at a time, alternating API and
 * raw SQL (the order flips every run), p99 and median over `listRuns` runs per list and `runs`
 * per report, each figure the median of `rounds` rounds' figures: `ratio_p99` is the median of
 * the rounds' own p99 ratios, not the printed api p99 over raw p99 (each the median of its side's
 * rounds). A round's p99 of 101 runs is near its second largest run, of 21 (the reports) near its
 * largest: one pause of either side decides a round's, not the median of three:
 * - `GET /api/v1/orders`: first page; with customer_email; with a date range (one month of the
 *   shop's time zone, as the API reads date_from/date_to); with product_id. Raw: the page's select
 *   (the list's columns, status joined, newest first, 25 rows) and the count `meta.total` needs,
 *   as one would write them, through `pg` on one connection. The API is asked through
 *   http-client.ts (keep-alive `node:http`, as the load thread asks): `fetch`'s own work is the
 *   client's, not the API's;
 * - the sales and payments reports by month over the whole range against their one statement
 *   (db/repositories/shop/reports.ts, parameters inlined as MikroORM inlines them).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import pg from 'pg';
import { openOrm } from '../../db/orm.ts';
import { shopEm } from '../../db/repositories/shared/tenant-em.ts';
import { listOrders, type OrderListFilters } from '../../db/repositories/shop/order-list.ts';
import { paymentsStatement, salesStatement } from '../../db/repositories/shop/reports.ts';
import { nextDay, startOfDayIn } from '../../domain/shared/time-zones.ts';
import { createBenchShop } from './shop-fixtures.ts';
import { httpRequest } from './http-client.ts';
import type { BenchStack } from './stack.ts';
import { DATE_FROM, DATE_TO, seedOrders } from './seed-orders.ts';
import { median, percentile } from './stats.ts';

export interface OrderListsOptions {
  stack: BenchStack;
  orders: number;
  warmups: number;
  /** Runs per list query. */
  listRuns: number;
  /** Runs per report. */
  runs: number;
  /** Rounds of those runs; every figure is the median of the rounds'. */
  rounds: number;
  log: (line: string) => void;
}

interface QueryFigures {
  /** What the API answered as meta.total (lists) or the buckets (reports). */
  total: number;
  api_p50_ms: number;
  api_p99_ms: number;
  raw_p50_ms: number;
  raw_p99_ms: number;
  /** Lists only: the repository's listOrders called in the bench's process (ORM, no HTTP): where the API's time goes. */
  orm_p50_ms?: number;
  ratio_p99: number;
  ratio_median: number;
  /** Each round's p99 ratio (ratio_p99 is their median). */
  ratio_p99_rounds: number[];
}

export interface OrderListsFigures {
  orders: number;
  lines_per_order: 3;
  seed_s: number;
  list_runs: number;
  runs: number;
  rounds: number;
  queries: Record<string, QueryFigures>;
}

const EMAIL = 'buyer4242@example.com';
const PRODUCT = 42;
/** The list's columns, as the API's page selects them (db/repositories/shop/order-list.ts). */
const LIST_COLUMNS = `o.id, o.uuid, o.ordinal_number, o.internal_status, o.order_status_id, s.name, o.email, o.total, o.currency, o.paid, o.invoice_number,
  o.transaction_id, o.paid_at, o.ref, o.subscriber_identifier, o.delivery_method, o.placed_at, o.created_at, o.updated_at`;

async function seed(client: pg.Client, shopId: string, statuses: Record<string, number>, n: number): Promise<void> {
  const lit = (value: string) => client.escapeLiteral(value);
  await seedOrders(client, shopId, statuses, n);
  await client.query(`update shops set next_ordinal_number = ${n + 1} where id = ${lit(shopId)}`);
  // Three lines each, products 1..100 (ids the shop need not have: the filter reads the lines).
  await client.query(`
    insert into shop_order_items (shop_id, order_id, product_id, name, sku, quantity, unit_price, vat_rate, price, discount, final_price)
    select o.shop_id, o.id, 1 + (o.id * 3 + k) % 100, 'Product', 'SKU-' || ((o.id * 3 + k) % 100), 1, round(o.total / 3, 2), 23, round(o.total / 3, 2), 0, round(o.total / 3, 2)
      from shop_orders o cross join generate_series(0, 2) k where o.shop_id = ${lit(shopId)}`);
  await client.query('vacuum analyze shop_orders');
  await client.query('vacuum analyze shop_order_items');
}

export async function measureOrderLists(o: OrderListsOptions): Promise<OrderListsFigures> {
  const shop = await createBenchShop(o.stack.apiUrl, o.stack.adminToken, `orders-${randomUUID().slice(0, 4)}`);
  const client = new pg.Client({ connectionString: o.stack.databaseUrl, statement_timeout: 1_800_000 });
  await client.connect();
  // A stop mid-run drops the database under us: logged, not an unhandled error.
  client.on('error', (error) => o.log(`shop-orders: database connection: ${error.message}`));
  try {
    const seedStart = performance.now();
    await seed(client, shop.id, shop.statuses, o.orders);
    const seedS = (performance.now() - seedStart) / 1000;
    o.log(`shop orders: ${o.orders} orders with 3 lines each seeded and vacuumed in ${seedS.toFixed(1)} s`);
    const lit = (value: string) => client.escapeLiteral(value);
    const shopLit = lit(shop.id);
    const monthFrom = '2026-06-01';
    const monthTo = '2026-06-30';
    // The API's bounds: whole days in the shop's time zone, date_to inclusive.
    const { rows: [shopRow] } = await client.query<{ time_zone: string }>(`select time_zone from shops where id = ${shopLit}`);
    const [from, before] = [startOfDayIn(monthFrom, shopRow!.time_zone), startOfDayIn(nextDay(monthTo), shopRow!.time_zone)];

    const page = (where: string) => [
      `select ${LIST_COLUMNS} from shop_orders o left join shop_order_statuses s on s.id = o.order_status_id where o.shop_id = ${shopLit}${where} order by o.placed_at desc, o.id desc limit 25 offset 0`,
      `select count(*) from shop_orders o where o.shop_id = ${shopLit}${where}`,
    ];
    const productWhere = ` and o.id in (select i.order_id from shop_order_items i where i.shop_id = ${shopLit} and i.product_id in (${PRODUCT}))`;
    const report = (statement: { sql: string; params: unknown[] }) => [new PostgreSqlPlatform().formatQuery(statement.sql, statement.params)];
    const filter = { shopId: shop.id, dateFrom: DATE_FROM, dateTo: DATE_TO };
    const cases: Record<string, { path: string; sql: string[]; orm?: OrderListFilters; total: (data: { buckets?: unknown[] }, meta: { total?: number } | undefined) => number }> = {
      first_page: { path: '/orders', sql: page(''), orm: {}, total: (_d, m) => m?.total ?? Number.NaN },
      customer_email: { path: `/orders?customer_email=${encodeURIComponent(EMAIL)}`, sql: page(` and o.email = ${lit(EMAIL)}`), orm: { email: EMAIL }, total: (_d, m) => m?.total ?? Number.NaN },
      date_range: {
        path: `/orders?date_from=${monthFrom}&date_to=${monthTo}`,
        sql: page(` and o.placed_at >= ${lit(from.toISOString())} and o.placed_at < ${lit(before.toISOString())}`),
        orm: { placedFrom: from, placedBefore: before },
        total: (_d, m) => m?.total ?? Number.NaN,
      },
      product_id: { path: `/orders?product_id=${PRODUCT}`, sql: page(productWhere), orm: { productIds: [PRODUCT] }, total: (_d, m) => m?.total ?? Number.NaN },
      sales_report_month: { path: `/reports/sales?date_from=${DATE_FROM}&date_to=${DATE_TO}&group_by=month`, sql: report(salesStatement(filter, 'month')), total: (d) => d.buckets?.length ?? Number.NaN },
      payments_report_month: { path: `/reports/payments?date_from=${DATE_FROM}&date_to=${DATE_TO}&group_by=month`, sql: report(paymentsStatement(filter, 'month')), total: (d) => d.buckets?.length ?? Number.NaN },
    };

    const orm = await openOrm({ databaseUrl: o.stack.databaseUrl, poolMax: 1 });
    const queries: Record<string, QueryFigures> = {};
    for (const [name, c] of Object.entries(cases)) {
      let total = Number.NaN;
      const api = async () => {
        const { status, text } = await httpRequest('GET', `${o.stack.apiUrl}/api/v1${c.path}`, { 'x-api-key': shop.key });
        if (status !== 200) throw new Error(`GET /api/v1${c.path}: HTTP ${status} ${text.slice(0, 300)}`);
        const body = JSON.parse(text) as { data: { buckets?: unknown[] }; meta?: { total?: number } };
        total = c.total(body.data, body.meta);
      };
      const raw = async () => {
        for (const sql of c.sql) await client.query(sql);
      };
      const timed = async (op: () => Promise<void>) => {
        const start = performance.now();
        await op();
        return performance.now() - start;
      };
      for (let i = 0; i < o.warmups; i++) {
        await api();
        await raw();
      }
      // Rounds of alternating runs; each figure is the median of the rounds' figures (issue 26:
      // medians of at least 3 rounds): one pause of either side moves one round's p99, not the figure.
      const runs = c.orm ? o.listRuns : o.runs;
      const rounds: { api: number[]; raw: number[] }[] = [];
      for (let r = 0; r < o.rounds; r++) {
        const round = { api: [] as number[], raw: [] as number[] };
        for (let i = 0; i < runs; i++) {
          if ((r * runs + i) % 2 === 0) {
            round.api.push(await timed(api));
            round.raw.push(await timed(raw));
          } else {
            round.raw.push(await timed(raw));
            round.api.push(await timed(api));
          }
        }
        rounds.push(round);
      }
      const ormMs: number[] = [];
      const filters = c.orm;
      if (filters) {
        const viaOrm = async () => void (await listOrders(shopEm(orm, shop.id), shop.id, filters, { limit: 25, offset: 0 }));
        await viaOrm();
        for (let i = 0; i < Math.min(runs, 5); i++) ormMs.push(await timed(viaOrm));
      }
      const ofRounds = (figure: (round: { api: number[]; raw: number[] }) => number) => median(rounds.map(figure));
      const q: QueryFigures = {
        total,
        ...(ormMs.length > 0 && { orm_p50_ms: median(ormMs) }),
        api_p50_ms: ofRounds((round) => median(round.api)),
        api_p99_ms: ofRounds((round) => percentile(round.api, 99)),
        raw_p50_ms: ofRounds((round) => median(round.raw)),
        raw_p99_ms: ofRounds((round) => percentile(round.raw, 99)),
        ratio_p99: ofRounds((round) => percentile(round.api, 99) / percentile(round.raw, 99)),
        ratio_median: ofRounds((round) => median(round.api) / median(round.raw)),
        ratio_p99_rounds: rounds.map((round) => percentile(round.api, 99) / percentile(round.raw, 99)),
      };
      queries[name] = q;
      o.log(`shop orders ${name}: API p50 ${q.api_p50_ms.toFixed(1)} ms p99 ${q.api_p99_ms.toFixed(1)} ms; ${ormMs.length ? `ORM p50 ${median(ormMs).toFixed(1)} ms; ` : ''}raw p50 ${q.raw_p50_ms.toFixed(1)} ms p99 ${q.raw_p99_ms.toFixed(1)} ms; p99 ratio by round ${q.ratio_p99_rounds.map((x) => x.toFixed(2)).join(' / ')} (total ${total})`);
    }
    await orm.close();
    return { orders: o.orders, lines_per_order: 3, seed_s: seedS, list_runs: o.listRuns, runs: o.runs, rounds: o.rounds, queries };
  } finally {
    await client.end();
  }
}
