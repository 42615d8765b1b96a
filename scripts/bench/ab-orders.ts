/**
 * A/B of two checkouts' api on the order list (issue 26 item 4: the api's per-request cost):
 *   npx tsx scripts/bench/ab-orders.ts <checkout A> <checkout B> [orders] [rounds]
 * One fresh database (made from DATABASE_URL, migrated by B), `orders` orders seeded by SQL
 * (seed-orders.ts; 20 of them the buyer's), two api processes (ab-api-process.ts, one per
 * checkout) and the raw SQL of each list (its page and count, as shop-orders-1m sends them).
 * Each case's requests of A, B and the raw SQL interleave (their order rotating), one at a time;
 * per case: p50/p99 of each side, each api process's CPU per request (from /proc), and whether
 * A's and B's replies were byte-identical. Last, the access interface's course list (A and B only).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { withAbApis } from './ab-apis.ts';
import { httpRequest } from './http-client.ts';
import { seedOrders } from './seed-orders.ts';
import { createFixtures } from './fixtures.ts';
import { createBenchShop } from './shop-fixtures.ts';
import { median, percentile } from './stats.ts';

const rootA = path.resolve(process.argv[2] ?? '.');
const rootB = path.resolve(process.argv[3] ?? '.');
const ORDERS = Number(process.argv[4] ?? 200_000);
const ROUNDS = Number(process.argv[5] ?? 500);
const EMAIL = 'buyer4242@example.com';
const LIST_COLUMNS = `o.id, o.uuid, o.ordinal_number, o.internal_status, o.order_status_id, s.name, o.email, o.total, o.currency, o.paid, o.invoice_number,
  o.transaction_id, o.paid_at, o.ref, o.subscriber_identifier, o.delivery_method, o.placed_at, o.created_at, o.updated_at`;

/** utime + stime of a process, in clock ticks (10 ms). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

await withAbApis(rootA, rootB, 'coursehub_ab', async ({ a, b, adminToken, database }) => {
  const shop = await createBenchShop(a.url, adminToken, 'ab');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const lit = (value: string) => client.escapeLiteral(value);
  const started = performance.now();
  await seedOrders(client, shop.id, shop.statuses, ORDERS);
  await client.query(`update shop_orders set email = $1 where shop_id = $2 and ordinal_number % ${Math.floor(ORDERS / 20)} = 0`, [EMAIL, shop.id]);
  await client.query('vacuum analyze shop_orders');
  console.log(`${ORDERS} orders seeded in ${((performance.now() - started) / 1000).toFixed(1)} s; A ${rootA} (pid ${a.child.pid}), B ${rootB} (pid ${b.child.pid})`);

  const page = (where: string) => [
    `select ${LIST_COLUMNS} from shop_orders o left join shop_order_statuses s on s.id = o.order_status_id where o.shop_id = ${lit(shop.id)}${where} order by o.placed_at desc, o.id desc limit 25 offset 0`,
    `select count(*) from shop_orders o where o.shop_id = ${lit(shop.id)}${where}`,
  ];
  const school = await createFixtures(a.url, adminToken);
  const cases: [string, string, string[], Record<string, string>?][] = [
    ['404', '/api/v1/nothing-here', []],
    ['empty', '/api/v1/orders?customer_email=nobody%40example.com', page(` and o.email = 'nobody@example.com'`)],
    ['customer_email', `/api/v1/orders?customer_email=${encodeURIComponent(EMAIL)}`, page(` and o.email = ${lit(EMAIL)}`)],
    ['first_page', '/api/v1/orders', page('')],
    // The access interface's course list (its own key), without a raw side: that its cost did not grow.
    ['courses', '/api/courses', [], { 'x-api-key': school.apiKey }],
  ];
  const headers = { 'x-api-key': shop.key };
  for (const [name, urlPath, sql, caseHeaders = headers] of cases) {
    const replies: Record<'a' | 'b', string | undefined> = { a: undefined, b: undefined };
    let identical = true;
    const api = (side: 'a' | 'b', base: string) => async () => {
      const { text } = await httpRequest('GET', `${base}${urlPath}`, caseHeaders);
      const seen = text.replace(/"x-request-id"[^,]*,?/, '');
      if (replies[side] === undefined) replies[side] = seen;
      if (replies.a !== undefined && replies.b !== undefined && replies.a !== replies.b) identical = false;
    };
    const raw = async () => {
      for (const s of sql) await client.query(s);
    };
    const ops = { a: api('a', a.url), b: api('b', b.url), raw };
    const times: Record<keyof typeof ops, number[]> = { a: [], b: [], raw: [] };
    for (let i = 0; i < 50; i++) for (const op of Object.values(ops)) await op();
    const cpu0 = { a: cpuTicks(a.child.pid!), b: cpuTicks(b.child.pid!) };
    const load0 = loadavg()[0]!;
    const order = Object.keys(ops) as (keyof typeof ops)[];
    for (let i = 0; i < ROUNDS; i++) {
      for (let k = 0; k < order.length; k++) {
        const side = order[(i + k) % order.length]!;
        const t = performance.now();
        await ops[side]();
        times[side].push(performance.now() - t);
      }
    }
    const ms = (side: 'a' | 'b') => ((cpuTicks((side === 'a' ? a : b).child.pid!) - cpu0[side]) * 10) / ROUNDS;
    const fig = (xs: number[]) => `p50 ${median(xs).toFixed(2)} p99 ${percentile(xs, 99).toFixed(2)}`;
    console.log(
      `${name.padEnd(15)} A ${fig(times.a)} cpu ${ms('a').toFixed(2)} | B ${fig(times.b)} cpu ${ms('b').toFixed(2)} | raw ${fig(times.raw)} | ` +
        `p99 ratio A ${(percentile(times.a, 99) / percentile(times.raw, 99)).toFixed(2)} B ${(percentile(times.b, 99) / percentile(times.raw, 99)).toFixed(2)} | ` +
        `replies ${identical ? 'identical' : 'DIFFER'} | load ${load0.toFixed(1)}-${loadavg()[0]!.toFixed(1)}`,
    );
    if (!identical) console.log(`A: ${replies.a?.slice(0, 600)}\nB: ${replies.b?.slice(0, 600)}`);
  }
  await client.end();
});
