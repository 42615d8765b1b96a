/**
 * Part `shop-checkout` (issue 26, item 2). The storefront path of one order, as a buyer's browser
 * makes it: `POST /store/v1/<shop>/carts` with 3 lines and an e-mail, `PATCH` the cart with a
 * discount code, the payment type and the invoice address, `POST .../checkout` (201); per order
 * the three requests back to back; `concurrency` orders at a time, `n` per round. Its baseline:
 * the same order written by raw SQL through `pg` in one transaction (the statements the
 * placement needs at the least: the shop's ordinal number, the products locked, the code's use
 * counted, the order and its 3 lines), at the same concurrency over a pool of the API's size.
 * Rounds alternate storefront and raw SQL; figures are medians of the rounds, ratios paired.
 * Then a race: `racers` carts holding a code with one use left check out at once; `sold` counts
 * the 201s and the orders stored with the code (both must be 1). Requests through http-client.ts
 * (keep-alive `node:http`): the client's cost is not the API's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { cpuFigures, cpuStretch, medianCpuFigures } from './cpu-usage.ts';
import { closedLoop } from './load.ts';
import { httpRequest } from './http-client.ts';
import { createBenchShop, createProduct, type BenchShop } from './shop-fixtures.ts';
import { POOL_MAX, type BenchStack } from './stack.ts';
import { median, percentile } from './stats.ts';
import type { HttpLoad } from './http-load.ts';

export interface CheckoutOptions {
  stack: BenchStack;
  http: HttpLoad;
  n: number;
  warmupN: number;
  rounds: number;
  concurrency: number;
  racers: number;
  log: (line: string) => void;
}

interface Side {
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  rounds_per_second: number[];
  rounds_p99_ms: number[];
}

export interface CheckoutFigures {
  n: number;
  concurrency: number;
  rounds: number;
  storefront: Side & { first_error: string | null };
  raw_sql: Side;
  /**
   * CPU ms per order by process (api, worker, temporal, postgres, bench: the bench sends both sides'
   * requests and statements), medians of the rounds; absent when the stack has no process table.
   */
  cpu_ms_per_order?: { storefront: Record<string, number>; raw_sql: Record<string, number> };
  /** Medians of the rounds' own storefront / raw ratios. */
  ratio_rate: number;
  ratio_p99: number;
  race: { racers: number; sold: number; refused: number; orders_with_code: number; code_usages: number };
}

const PRICES = ['40.00', '25.50', '12.99'];

/** The shop the orders are placed in: its three products and payment type. */
export interface Setup {
  shop: BenchShop;
  productIds: number[];
  paymentTypeId: number;
}

export async function measureCheckout(o: CheckoutOptions): Promise<CheckoutFigures> {
  const shop = await createBenchShop(o.stack.apiUrl, o.stack.adminToken, 'checkout');
  const productIds: number[] = [];
  for (const [i, price] of PRICES.entries()) productIds.push(await createProduct(shop, { name: `Book ${i + 1}`, price, electronic: true }));
  const { id: paymentTypeId } = await shop.operator<{ id: number }>('POST', '/shops/:shop/payment_types', { name: 'Transfer' });
  const s: Setup = { shop, productIds, paymentTypeId };
  const tag = randomBytes(3).toString('hex');
  await shop.api('POST', '/discount_codes', { code: `BENCH-${tag}`, discount_type: 'percentage_discount', value: '10' });
  const code = `BENCH-${tag}`;
  const [codeRow] = await shop.api<{ id: number }[]>('GET', `/discount_codes?search=${code}`);

  const pool = new pg.Pool({ connectionString: o.stack.databaseUrl, max: POOL_MAX });
  try {
    /** A side's round with the CPU each process spent on it (the stack's groups; none in profile-checkout.ts). */
    const measured = async (run: () => ReturnType<typeof closedLoop>) => {
      const cpu = o.stack.cpuGroups ? cpuStretch(o.stack.cpuGroups()) : undefined;
      const result = await run();
      return { ...result, cpu: cpu && cpuFigures(cpu.stop(), result.ok) };
    };
    const storefront = (count: number, label: string) =>
      closedLoop({ concurrency: o.concurrency, durationMs: 120_000, maxOps: count, op: (i) => storefrontOrder(o.stack.apiUrl, s, code, `${label}-${i}@bench.example.com`) });
    const raw = (count: number, label: string) =>
      closedLoop({ concurrency: o.concurrency, durationMs: 120_000, maxOps: count, op: (i) => rawOrder(pool, s, codeRow!.id, code, `${label}-${i}@bench.example.com`) });
    const warmed = [await storefront(o.warmupN, `warm-s-${tag}`), await raw(o.warmupN, `warm-r-${tag}`)];
    o.log(`shop checkout warm-up: storefront ${warmed[0]!.ok}, raw SQL ${warmed[1]!.ok} of ${o.warmupN} orders each`);
    type Round = Awaited<ReturnType<typeof measured>>;
    const rounds: { s: Round; r: Round }[] = [];
    for (let i = 0; i < o.rounds; i++) {
      let sRes, rRes;
      if (i % 2 === 0) {
        sRes = await measured(() => storefront(o.n, `r${i}-s-${tag}`));
        rRes = await measured(() => raw(o.n, `r${i}-r-${tag}`));
      } else {
        rRes = await measured(() => raw(o.n, `r${i}-r-${tag}`));
        sRes = await measured(() => storefront(o.n, `r${i}-s-${tag}`));
      }
      rounds.push({ s: sRes, r: rRes });
      o.log(`shop checkout round ${i + 1}/${o.rounds}: storefront ${(sRes.ok / (sRes.elapsedMs / 1000)).toFixed(1)}/s p99 ${Math.round(percentile(sRes.latenciesMs, 99))} ms (${sRes.errors} errors${sRes.firstError ? `: ${sRes.firstError}` : ''}), raw SQL ${(rRes.ok / (rRes.elapsedMs / 1000)).toFixed(1)}/s p99 ${percentile(rRes.latenciesMs, 99).toFixed(1)} ms`);
    }
    const side = (pick: (r: (typeof rounds)[number]) => Round): Side => {
      const all = rounds.map(pick);
      const rates = all.map((x) => x.ok / (x.elapsedMs / 1000));
      const p99s = all.map((x) => percentile(x.latenciesMs, 99));
      return {
        per_second: median(rates),
        p50_ms: median(all.map((x) => percentile(x.latenciesMs, 50))),
        p99_ms: median(p99s),
        errors: all.reduce((sum, x) => sum + x.errors, 0),
        rounds_per_second: rates,
        rounds_p99_ms: p99s,
      };
    };
    const st = side((r) => r.s);
    const rw = side((r) => r.r);
    const cpuOf = (pick: (r: (typeof rounds)[number]) => Round) => {
      const all = rounds.map(pick).flatMap((x) => (x.cpu ? [x.cpu] : []));
      return all.length > 0 ? medianCpuFigures(all).ms_per_op : undefined;
    };
    const [cpuStorefront, cpuRaw] = [cpuOf((r) => r.s), cpuOf((r) => r.r)];
    const race = await raceForLastUse(o, s, tag);
    o.log(`shop checkout race: ${race.racers} checkouts for a code with one use left sold ${race.sold}`);
    return {
      n: o.n,
      concurrency: o.concurrency,
      rounds: o.rounds,
      storefront: { ...st, first_error: rounds.find((r) => r.s.firstError)?.s.firstError ?? null },
      raw_sql: rw,
      ...(cpuStorefront && cpuRaw && { cpu_ms_per_order: { storefront: cpuStorefront, raw_sql: cpuRaw } }),
      ratio_rate: median(st.rounds_per_second.map((v, i) => v / rw.rounds_per_second[i]!)),
      ratio_p99: median(st.rounds_p99_ms.map((v, i) => v / rw.rounds_p99_ms[i]!)),
      race,
    };
  } finally {
    await pool.end();
  }
}

export async function store<T = unknown>(apiUrl: string, s: Setup, method: string, path: string, body: unknown, expect: number): Promise<T> {
  const { status, text } = await httpRequest(method, `${apiUrl}/store/v1/${s.shop.subdomain}${path}`, {}, body === undefined ? undefined : JSON.stringify(body), 30_000);
  if (status !== expect) throw new Error(`${method} /store/v1/...${path.replace(/[0-9a-f-]{36}/, ':id')}: HTTP ${status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: T }).data;
}

async function openCart(apiUrl: string, s: Setup, code: string, email: string): Promise<string> {
  const cart = await store<{ id: string }>(apiUrl, s, 'POST', '/carts', { items: s.productIds.map((product_id) => ({ product_id })), email }, 201);
  await store(apiUrl, s, 'PATCH', `/carts/${cart.id}`, { discount_code: code, payment_type_id: s.paymentTypeId, invoice_address: { first_name: 'Ola', last_name: 'Nowak', city: 'Kraków' } }, 200);
  return cart.id;
}

/** One order the storefront's way: cart, PATCH with the code, checkout. */
export async function storefrontOrder(apiUrl: string, s: Setup, code: string, email: string): Promise<void> {
  const cartId = await openCart(apiUrl, s, code, email);
  await store(apiUrl, s, 'POST', `/carts/${cartId}/checkout`, undefined, 201);
}

/** The same order in one transaction: ordinal number, products locked, code use counted, order and lines. */
async function rawOrder(pool: pg.Pool, s: Setup, codeId: number, code: string, email: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows: [counter] } = await client.query<{ n: number }>('update shops set next_ordinal_number = next_ordinal_number + 1 where id = $1 returning next_ordinal_number - 1 as n', [s.shop.id]);
    const { rows: products } = await client.query<{ id: number; price: string; name: string; sku: string }>(
      'select id, price, name, sku from shop_products where shop_id = $1 and id = any($2) and active and not hidden order by id for share',
      [s.shop.id, s.productIds],
    );
    const used = await client.query('update shop_discount_codes set usages = usages + 1 where shop_id = $1 and id = $2 and (usages_limit is null or usages < usages_limit) returning id', [s.shop.id, codeId]);
    if (used.rowCount !== 1) throw new Error('code used up');
    const cost = products.reduce((sum, p) => sum + Number(p.price), 0);
    const discount = Math.round(cost * 10) / 100;
    const { rows: [order] } = await client.query<{ id: number }>(
      `insert into shop_orders (shop_id, uuid, ordinal_number, internal_status, order_status_id, email, currency, products_cost, delivery_cost, payment_cost,
         total_discount, total, payment_type_id, payment_method, discount_code, discount_code_id, paid, invoice_address, order_attributes, notes, placed_at, created_at, updated_at)
       select $1, $2, $3, 'placed', s.id, $4, 'PLN', $5, 0, 0, $6, $7, $8, 'Transfer', $9, $10, false, $11, '[]', '[]', now(), now(), now()
         from shop_order_statuses s where s.shop_id = $1 and s.name = 'New' returning id`,
      [s.shop.id, randomUUID(), counter!.n, email, cost.toFixed(2), discount.toFixed(2), (cost - discount).toFixed(2), s.paymentTypeId, code, codeId, JSON.stringify({ first_name: 'Ola', last_name: 'Nowak', city: 'Kraków' })],
    );
    await client.query(
      `insert into shop_order_items (shop_id, order_id, product_id, name, sku, quantity, unit_price, vat_rate, price, discount, final_price, electronic)
       select $1, $2, p.id, p.name, p.sku, 1, p.price, 23, p.price, round(p.price * 0.1, 2), p.price - round(p.price * 0.1, 2), true
         from shop_products p where p.shop_id = $1 and p.id = any($3)`,
      [s.shop.id, order!.id, products.map((p) => p.id)],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function raceForLastUse(o: CheckoutOptions, s: Setup, tag: string): Promise<CheckoutFigures['race']> {
  const code = `LAST-${tag}`;
  const created = await s.shop.api<{ id: number }>('POST', '/discount_codes', { code, discount_type: 'percentage_discount', value: '50', usages_limit: 1 });
  const carts = await Promise.all(Array.from({ length: o.racers }, (_, i) => openCart(o.stack.apiUrl, s, code, `race-${tag}-${i}@bench.example.com`)));
  const results = await Promise.allSettled(carts.map((id) => store(o.stack.apiUrl, s, 'POST', `/carts/${id}/checkout`, undefined, 201)));
  const sold = results.filter((r) => r.status === 'fulfilled').length;
  const db = new pg.Client({ connectionString: o.stack.databaseUrl });
  await db.connect();
  try {
    const { rows: [row] } = await db.query<{ orders: string; usages: number }>(
      'select (select count(*) from shop_orders where shop_id = $1 and discount_code_id = $2) as orders, (select usages from shop_discount_codes where id = $2) as usages',
      [s.shop.id, created.id],
    );
    return { racers: o.racers, sold, refused: o.racers - sold, orders_with_code: Number(row!.orders), code_usages: row!.usages };
  } finally {
    await db.end();
  }
}
