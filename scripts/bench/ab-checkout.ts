/**
 * A/B of two checkouts' api on the storefront checkout (issue 26 item 2):
 *   npx tsx scripts/bench/ab-checkout.ts <checkout A> <checkout B> [orders per round] [rounds]
 * One fresh database (made from DATABASE_URL, migrated by this checkout), one shop with the
 * shop-checkout part's three products, payment type and code, two api processes
 * (ab-api-process.ts, one per checkout). Rounds alternate the sides (which goes first rotating):
 * `orders` storefront orders at 32 concurrent, the part's order (cart with 3 lines, PATCH with the
 * code, payment type and invoice address, checkout). Per side: orders/s and p99 (medians of the
 * rounds), and CPU ms per order of its api process and of the database's PostgreSQL backends (one
 * side runs at a time, so the backends' time is that side's), from /proc. First, one order on each
 * side with the same input: whether the three replies are byte-identical (ids and numbers masked).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import path from 'node:path';
import { withAbApis } from './ab-apis.ts';
import { cpuFigures, cpuStretch, postgresBackendsOf } from './cpu-usage.ts';
import { closedLoop } from './load.ts';
import { store, storefrontOrder, type Setup } from './shop-checkout.ts';
import { createBenchShop, createProduct } from './shop-fixtures.ts';
import { median, percentile } from './stats.ts';

const rootA = path.resolve(process.argv[2] ?? '.');
const rootB = path.resolve(process.argv[3] ?? '.');
const ORDERS = Number(process.argv[4] ?? 300);
const ROUNDS = Number(process.argv[5] ?? 6);
const CONCURRENCY = 32;

await withAbApis(rootA, rootB, 'coursehub_ab_checkout', async ({ a, b, adminToken, database }) => {
  const shop = await createBenchShop(a.url, adminToken, 'abcheckout');
  const productIds: number[] = [];
  for (const [i, price] of ['40.00', '25.50', '12.99'].entries()) productIds.push(await createProduct(shop, { name: `Book ${i + 1}`, price, electronic: true }));
  const { id: paymentTypeId } = await shop.operator<{ id: number }>('POST', '/shops/:shop/payment_types', { name: 'Transfer' });
  const code = `AB-${randomBytes(3).toString('hex')}`;
  await shop.api('POST', '/discount_codes', { code, discount_type: 'percentage_discount', value: '10' });
  const s: Setup = { shop, productIds, paymentTypeId };
  const sides = { a, b };
  console.log(`A ${rootA} (pid ${a.child.pid}), B ${rootB} (pid ${b.child.pid})`);

  // The same order on both sides: its three replies, ids and numbers masked.
  const mask = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>').replace(/"(order_id|ordinal_number)":\d+/g, '"$1":<n>');
  const replies = async (url: string) => {
    const cart = await store<{ id: string }>(url, s, 'POST', '/carts', { items: productIds.map((product_id) => ({ product_id })), email: 'same@bench.example.com' }, 201);
    const patched = await store(url, s, 'PATCH', `/carts/${cart.id}`, { discount_code: code, payment_type_id: paymentTypeId, invoice_address: { first_name: 'Ola', last_name: 'Nowak', city: 'Kraków' } }, 200);
    const placed = await store(url, s, 'POST', `/carts/${cart.id}/checkout`, undefined, 201);
    return [cart, patched, placed].map((reply) => mask(JSON.stringify(reply)));
  };
  const [repliesA, repliesB] = [await replies(a.url), await replies(b.url)];
  const identical = repliesA.every((reply, i) => reply === repliesB[i]);
  console.log(`replies of POST /carts, PATCH, checkout: ${identical ? 'identical' : 'DIFFER'}`);
  if (!identical) repliesA.forEach((reply, i) => reply !== repliesB[i] && console.log(`A: ${reply}\nB: ${repliesB[i]}`));

  const run = (side: 'a' | 'b', label: string, n: number) =>
    closedLoop({ concurrency: CONCURRENCY, durationMs: 120_000, maxOps: n, op: (i) => storefrontOrder(sides[side].url, s, code, `${label}-${i}@bench.example.com`) });
  await run('a', 'warm-a', 64);
  await run('b', 'warm-b', 64);
  const figures: Record<'a' | 'b', { rate: number[]; p99: number[]; api: number[]; postgres: number[] }> = {
    a: { rate: [], p99: [], api: [], postgres: [] },
    b: { rate: [], p99: [], api: [], postgres: [] },
  };
  const load0 = loadavg()[0]!;
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const cpu = cpuStretch({ api: () => [sides[side].child.pid!], postgres: postgresBackendsOf(database.name) });
      const result = await run(side, `r${round}-${side}`, ORDERS);
      const { ms_per_op } = cpuFigures(cpu.stop(), result.ok);
      const f = figures[side];
      f.rate.push(result.ok / (result.elapsedMs / 1000));
      f.p99.push(percentile(result.latenciesMs, 99));
      f.api.push(ms_per_op.api!);
      f.postgres.push(ms_per_op.postgres!);
      console.log(`round ${round + 1} ${side.toUpperCase()}: ${f.rate.at(-1)!.toFixed(1)} orders/s, p99 ${Math.round(f.p99.at(-1)!)} ms, CPU per order api ${f.api.at(-1)!.toFixed(2)} ms, postgres ${f.postgres.at(-1)!.toFixed(2)} ms, ${result.errors} errors, load ${loadavg()[0]!.toFixed(1)}`);
    }
  }
  for (const side of ['a', 'b'] as const) {
    const f = figures[side];
    console.log(`${side.toUpperCase()} medians: ${median(f.rate).toFixed(1)} orders/s, p99 ${Math.round(median(f.p99))} ms, CPU per order api ${median(f.api).toFixed(2)} ms, postgres ${median(f.postgres).toFixed(2)} ms`);
  }
  console.log(`B / A: rate ${(median(figures.b.rate) / median(figures.a.rate)).toFixed(3)}, CPU per order api ${(median(figures.b.api) / median(figures.a.api)).toFixed(3)}, postgres ${(median(figures.b.postgres) / median(figures.a.postgres)).toFixed(3)}; load ${load0.toFixed(1)}-${loadavg()[0]!.toFixed(1)}`);
});
