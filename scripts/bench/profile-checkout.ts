/**
 * Where the storefront checkout and the order list spend their statements and time (issue 26,
 * items 2 and 4: measure first):
 *   npx tsx scripts/bench/profile-checkout.ts              statements per request of the three
 *                                                          checkout requests and of the order lists,
 *                                                          the shop-checkout part in this process, then
 *                                                          10 s of storefront orders alone
 *   PROFILE_SQL=1 npx tsx scripts/bench/profile-checkout.ts   also prints each statement of one order
 *   PROFILE_LOAD_ONLY=1 ...                                 the counts and the 10 s of load, not the part
 *   npx tsx scripts/bench/profile-checkout.ts orders       then GET /api/v1/orders one at a time for
 *                                                          10 s instead of the checkout load
 *   node --cpu-prof --cpu-prof-dir=.data/prof --import tsx scripts/bench/profile-checkout.ts
 *                                                          the same under the V8 profiler; summarise
 *                                                          with profile-courses.ts <file> (last 10 s)
 * Needs DATABASE_URL (a server where a fresh database can be made); Temporal is not used.
 */
import { performance } from 'node:perf_hooks';
import { cpuFigures, cpuStretch, postgresBackendsOf } from './cpu-usage.ts';
import { closedLoop } from './load.ts';
import { httpRequest } from './http-client.ts';
import { countStatements, withProfiledApi, type ProfiledApi } from './profile-app.ts';
import { measureCheckout } from './shop-checkout.ts';
import { createBenchShop, createProduct } from './shop-fixtures.ts';
import type { HttpLoad } from './http-load.ts';
import type { BenchStack } from './stack.ts';

const SHOW_SQL = process.env.PROFILE_SQL === '1';
const LOAD_MS = 10_000;
const REQUESTS = ['POST /carts', 'PATCH /carts/:id', 'POST /carts/:id/checkout'];

async function profile({ apiUrl, adminToken, databaseUrl }: ProfiledApi): Promise<void> {
  const shop = await createBenchShop(apiUrl, adminToken, 'profile');
  const productIds: number[] = [];
  for (const [name, price] of [['A', '40.00'], ['B', '25.50'], ['C', '12.99']] as const) productIds.push(await createProduct(shop, { name, price, electronic: true }));
  const { id: paymentTypeId } = await shop.operator<{ id: number }>('POST', '/shops/:shop/payment_types', { name: 'Transfer' });
  await shop.api('POST', '/discount_codes', { code: 'PROFILE', discount_type: 'percentage_discount', value: '10' });

  const store = async (method: string, path: string, body: unknown, expect: number) => {
    // node:http as the bench part sends (fetch's own cost was a fifth of this process's busy time).
    const { status, text } = await httpRequest(method, `${apiUrl}/store/v1/${shop.subdomain}${path}`, {}, body === undefined ? undefined : JSON.stringify(body));
    if (status !== expect) throw new Error(`${method} ${path}: HTTP ${status} ${text}`);
    return (JSON.parse(text) as { data: { id: string } }).data;
  };
  // The bench's order: a cart with the three products, the code and the payment type, checked out.
  const orderSteps = (email: string) => {
    let cartId = '';
    return [
      async () => void (cartId = (await store('POST', '/carts', { items: productIds.map((product_id) => ({ product_id })), email }, 201)).id),
      async () => void (await store('PATCH', `/carts/${cartId}`, { discount_code: 'PROFILE', payment_type_id: paymentTypeId, invoice_address: { first_name: 'Ola', last_name: 'Nowak', city: 'Kraków' } }, 200)),
      async () => void (await store('POST', `/carts/${cartId}/checkout`, undefined, 201)),
    ];
  };

  const counter = countStatements();
  const counts = REQUESTS.map(() => 0);
  const sample = 20;
  for (let i = 0; i < sample; i++) {
    for (const [step, run] of orderSteps(`p${i}@bench.example.com`).entries()) {
      counter.count = 0;
      counter.keep = SHOW_SQL && i === sample - 1;
      await run();
      counts[step]! += counter.count;
      if (counter.keep) console.log([`-- ${REQUESTS[step]}`, ...counter.texts].join('\n'));
      counter.texts = [];
    }
  }
  REQUESTS.forEach((name, step) => console.log(`statements per ${name}: ${(counts[step]! / sample).toFixed(2)}`));
  console.log(`statements per storefront order: ${(counts.reduce((a, b) => a + b, 0) / sample).toFixed(2)}`);

  const lists = ['/orders', '/orders?customer_email=p1%40bench.example.com', '/orders?date_from=2026-01-01&date_to=2026-12-31', `/orders?product_id=${productIds[0]}`];
  for (const path of lists) {
    counter.count = 0;
    counter.keep = SHOW_SQL;
    await shop.api('GET', path);
    console.log(`statements per GET /api/v1${path}: ${counter.count}${SHOW_SQL ? `\n${counter.texts.join('\n')}` : ''}`);
    counter.texts = [];
  }
  counter.restore();

  if (process.argv.includes('orders')) {
    // One list request at a time, as shop-orders-1m asks: where a request's time goes beyond its statements.
    const path = '/orders?customer_email=p1%40bench.example.com';
    const started = performance.now();
    let n = 0;
    while (performance.now() - started < LOAD_MS) {
      await shop.api('GET', path);
      n++;
    }
    console.log(`GET /api/v1${path} one at a time: ${((performance.now() - started) / n).toFixed(2)} ms each (${n} requests)`);
    return;
  }

  // The bench part itself, in this process (the api in this thread too); PROFILE_LOAD_ONLY=1 skips it.
  if (process.env.PROFILE_LOAD_ONLY === '1') return storefrontAlone();
  const stack = { apiUrl, adminToken, databaseUrl } as BenchStack;
  const f = await measureCheckout({ stack, http: undefined as unknown as HttpLoad, n: 200, warmupN: 16, rounds: 3, concurrency: 32, racers: 12, log: console.log });
  console.log(`storefront ${f.storefront.per_second.toFixed(1)}/s p99 ${Math.round(f.storefront.p99_ms)} ms; raw ${f.raw_sql.per_second.toFixed(1)}/s p99 ${f.raw_sql.p99_ms.toFixed(1)} ms; ratio rate ${f.ratio_rate.toFixed(3)} p99 ${f.ratio_p99.toFixed(2)}`);

  await storefrontAlone();

  /** The last LOAD_MS: storefront orders alone, what a --cpu-prof summary reads. */
  async function storefrontAlone(): Promise<void> {
    const cpu = cpuStretch({ 'api and client': () => [process.pid], postgres: postgresBackendsOf(new URL(databaseUrl).pathname.slice(1)) });
    const load = await closedLoop({
      concurrency: 32,
      durationMs: LOAD_MS,
      op: async (i) => {
        for (const run of orderSteps(`load${i}@bench.example.com`)) await run();
      },
    });
    const { ms_per_op, cores_busy } = cpuFigures(cpu.stop(), load.ok);
    console.log(`storefront alone for ${LOAD_MS / 1000} s: ${(load.ok / (load.elapsedMs / 1000)).toFixed(1)} orders/s, ${load.errors} errors`);
    console.log(`CPU ms per order: ${Object.entries(ms_per_op).map(([group, ms]) => `${group} ${ms.toFixed(2)}`).join(', ')}; cores busy: ours ${cores_busy.ours.toFixed(2)}, machine ${cores_busy.machine.toFixed(2)}`);
  }
}

await withProfiledApi('coursehub_profile_checkout', profile);
