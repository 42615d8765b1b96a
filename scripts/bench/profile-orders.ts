/**
 * Where a request of the order list spends the api's time (issue 26 item 4: the api's fixed cost
 * per request, beyond its statement):
 *   npx tsx scripts/bench/profile-orders.ts             the api's busy time per request (its event
 *                                                       loop's, the client being another thread) of
 *                                                       a 404, the buyer's 20 orders and the empty
 *                                                       list, one request at a time, 10 s each
 *   node --cpu-prof --cpu-prof-dir=.data/prof --import tsx scripts/bench/profile-orders.ts
 *                                                       the same under the V8 profiler; summarise the
 *                                                       main thread's file with profile-courses.ts
 *                                                       <file> (its last 10 s: the buyer's list)
 *   ... profile-orders.ts empty                         one case only (its name's start: 404, empty, buyer)
 * 20 000 orders seeded by SQL (seed-orders.ts), 20 of them the buyer's. Needs DATABASE_URL (a
 * server where a fresh database can be made); Temporal is not used.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startHttpLoadThread } from './http-load.ts';
import { withProfiledApi } from './profile-app.ts';
import { createBenchShop } from './shop-fixtures.ts';
import { seedOrders } from './seed-orders.ts';

const LOAD_MS = 10_000;
const ORDERS = 20_000;
const EMAIL = 'buyer4242@example.com';

const http = startHttpLoadThread();
try {
  await withProfiledApi('coursehub_profile_orders', async ({ apiUrl, adminToken, databaseUrl }) => {
    const shop = await createBenchShop(apiUrl, adminToken, 'profile-orders');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await seedOrders(client, shop.id, shop.statuses, ORDERS);
      await client.query(`update shop_orders set email = $1 where shop_id = $2 and ordinal_number % ${ORDERS / 20} = 0`, [EMAIL, shop.id]);
      await client.query('vacuum analyze shop_orders');
    } finally {
      await client.end();
    }
    const headers = { 'x-api-key': shop.key };
    const cases: [string, string, number][] = [
      ['404', '/api/v1/nothing-here', 404],
      ['empty list', '/api/v1/orders?customer_email=nobody%40example.com', 200],
      ['buyer (20 orders)', `/api/v1/orders?customer_email=${encodeURIComponent(EMAIL)}`, 200],
    ];
    const only = process.argv[2];
    for (const [name, path, expectStatus] of cases.filter(([name]) => !only || name.startsWith(only))) {
      const job = { method: 'GET' as const, url: `${apiUrl}${path}`, headers, concurrency: 1, expectStatus };
      await http.run({ ...job, durationMs: 2_000 });
      const before = performance.eventLoopUtilization();
      const { result } = await http.run({ ...job, durationMs: LOAD_MS });
      const elu = performance.eventLoopUtilization(before);
      console.log(
        `${name}: ${result.ok} requests (${result.errors} errors), ${(result.elapsedMs / result.ok).toFixed(3)} ms each, ` +
          `api busy ${(elu.active / result.ok).toFixed(3)} ms a request (utilisation ${(elu.utilization * 100).toFixed(0)} %)`,
      );
    }
  });
} finally {
  await http.close();
}
