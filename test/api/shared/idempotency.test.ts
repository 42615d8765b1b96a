import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockKey } from '../../../db/repositories/shared/idempotency-keys.ts';
import { errorsPlugin } from '../../../api/shared/errors-plugin.ts';
import { idempotency } from '../../../api/shared/idempotency/index.ts';
import { ormPlugin } from '../../../api/shared/orm-context.ts';
import { configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { createDeliveryType, createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer } from '../../helpers/storefront.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let productId: number;
let otherProductId: number;
let platform: TestPlatform;
let platformKey: TestConfigurationKey;

beforeAll(async () => {
  stack = await startTestApp('idempotency');
  [shop, other, platform] = await Promise.all([createTestShop(stack.app, 'idem-one'), createTestShop(stack.app, 'idem-two'), createPlatform(stack.app, 'Idempotent academy')]);
  productId = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '40.00' });
  otherProductId = await insertProduct(stack.orm, other.id, { name: 'Book', price: '40.00' });
  platformKey = await createConfigurationKey(stack.app, platform.id);
});
afterAll(() => stack?.close());

const placeOrder = async (owner = shop, product = productId) =>
  (await adminPost(stack.app, `/admin/v1/shops/${owner.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: product, quantity: 1 }] })).id as number;

const clear = (id: number, key?: string, owner = shop) =>
  stack.app.inject({ method: 'PATCH', url: `/api/v1/orders/${id}/clear`, headers: { 'x-api-key': owner.key, ...(key === undefined ? {} : { 'idempotency-key': key }) } });

const clearingWorkflows = async (owner: TestShop, id: number) => {
  const ids: string[] = [];
  for await (const wf of stack.temporal.workflow.list({ query: `WorkflowId = "shop/${owner.id}/order/${id}/clear"` })) ids.push(wf.workflowId);
  return ids;
};

const webhookBody = (name = 'CRM') => ({ name, url: 'https://hooks.example.com/idem', events: ['access_granted'], secret_key: 's3cret-signing-key-0123456789' });
const createWebhook = (key: string | undefined, body: object = webhookBody()) =>
  configure(stack.app, 'POST', '/webhooks', platformKey.token, body, key === undefined ? {} : { 'idempotency-key': key });
const webhookCount = async () => (await configure(stack.app, 'GET', '/webhooks?per_page=100', platformKey.token)).json().meta.total as number;

describe('Idempotency-Key on the shop API', () => {
  it('replays the first reply to a retry of a clearing (200, not 422 Already Cleared), marked Idempotent-Replayed', async () => {
    const id = await placeOrder();
    const key = randomUUID();
    const first = await clear(id, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await clear(id, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toContain('application/json');
    expect(retry.json()).toEqual(first.json());
    // Without the key nothing changes: the retry is refused as before.
    const unkeyed = await clear(id);
    expect(unkeyed.statusCode).toBe(422);
    expect(unkeyed.json().error).toBe('Already Cleared');
  });

  it('replays a stored 4xx too (the first reply, whatever it was)', async () => {
    const id = await placeOrder();
    expect((await clear(id)).statusCode).toBe(200);
    const key = randomUUID();
    const refused = await clear(id, key);
    expect(refused.statusCode).toBe(422);
    const again = await clear(id, key);
    expect(again.statusCode).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(refused.json());
  });

  it('answers 422 naming Idempotency-Key when the key comes with another request (another order)', async () => {
    const [a, b] = [await placeOrder(), await placeOrder()];
    const key = randomUUID();
    expect((await clear(a, key)).statusCode).toBe(200);
    const reused = await clear(b, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors).toEqual({ 'Idempotency-Key': [expect.stringContaining('another request')] });
    // The other order was not touched.
    const detail = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${b}`, headers: { 'x-api-key': shop.key } });
    expect(detail.json().data.paid).toBe(false);
  });

  it('runs twelve identical keyed clearings once: every reply is the one 200 (or a 409 while it runs), one workflow', async () => {
    const id = await placeOrder();
    const key = randomUUID();
    const replies = await Promise.all(Array.from({ length: 12 }, () => clear(id, key)));
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 200 || s === 409), statuses.join(',')).toBe(true);
    const fresh = replies.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const r of replies.filter((r) => r.statusCode === 200)) expect(r.json()).toEqual(fresh[0]!.json());
    expect(replies.some((r) => r.statusCode === 422)).toBe(false);
    expect(await clearingWorkflows(shop, id)).toHaveLength(1);
    // After the race, a repeat gets the replay.
    const after = await clear(id, key);
    expect(after.statusCode).toBe(200);
    expect(after.headers['idempotent-replayed']).toBe('true');
  });

  it('never crosses shops: another shop with the same key runs its own request', async () => {
    const key = randomUUID();
    const mine = await placeOrder();
    const theirs = await placeOrder(other, otherProductId);
    expect((await clear(mine, key)).statusCode).toBe(200);
    const res = await clear(theirs, key, other);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.json().data.id).toBe(theirs);
  });

  it('answers 409 at once while another transaction holds the key, and runs as soon as it ends', async () => {
    const id = await placeOrder();
    const key = randomUUID();
    const holder = stack.orm.em.fork();
    await holder.begin();
    try {
      expect(await lockKey(holder, { tenantKind: 'shop', tenantId: shop.id, key })).toBe(true);
      const res = await clear(id, key);
      expect(res.statusCode).toBe(409);
      expect(res.headers['retry-after']).toBe('1');
      expect(await clearingWorkflows(shop, id)).toHaveLength(0);
    } finally {
      await holder.rollback();
    }
    const after = await clear(id, key);
    expect(after.statusCode, after.body).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
  });

  it("mid-deploy, runs over a key an api of the previous release left claimed `running` (no reply) and keeps its own reply there", async () => {
    const id = await placeOrder();
    const key = randomUUID();
    const conn = stack.orm.em.fork().getConnection();
    await conn.execute(
      `insert into idempotency_keys (tenant_kind, tenant_id, key, fingerprint, state, claimed_at, expires_at) values ('shop', ?, ?, ?, 'running', now(), now() + interval '1 day')`,
      [shop.id, key, 'f'.repeat(64)],
    );
    const res = await clear(id, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await conn.execute('select state, status from idempotency_keys where tenant_id = ? and key = ?', [shop.id, key])).toEqual([{ state: 'done', status: 200 }]);
    expect((await clear(id, key)).headers['idempotent-replayed']).toBe('true');
  });

  it('refuses a malformed key with 422 naming the header, and ignores the key on reads', async () => {
    const id = await placeOrder();
    const res = await clear(id, 'x'.repeat(256));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty(['Idempotency-Key']);
    const read = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${id}`, headers: { 'x-api-key': shop.key, 'idempotency-key': 'read-key' } });
    expect(read.statusCode).toBe(200);
    const reread = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${id}`, headers: { 'x-api-key': shop.key, 'idempotency-key': 'read-key' } });
    expect(reread.headers['idempotent-replayed']).toBeUndefined();
  });

  it('runs a key again once it expired (the expired row is taken over, whether or not the hourly cleanup removed it)', async () => {
    const id = await placeOrder();
    const key = randomUUID();
    expect((await clear(id, key)).statusCode).toBe(200);
    const conn = stack.orm.em.fork().getConnection();
    await conn.execute("update idempotency_keys set expires_at = now() - interval '1 second' where tenant_id = ? and key = ?", [shop.id, key]);
    const again = await clear(id, key);
    expect(again.statusCode).toBe(422);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('Idempotency-Key on the storefront', () => {
  it('places one order for a keyed checkout sent three times at once and again after: the one 201, replayed (the placement runs in the request\'s transaction)', async () => {
    const store = buyer(stack.app, shop.subdomain);
    const [courier, transfer] = [await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '12.30' }), await createPaymentType(stack.app, shop.id, { name: 'Transfer' })];
    const address = { first_name: 'Anna', last_name: 'Nowak', address: 'Polna 2', postcode: '30-001', city: 'Kraków', country: 'PL', phone: '+48 600 000 000' };
    const cart = (await store.post('/carts', { items: [{ product_id: productId, quantity: 2 }], email: 'anna@example.com' })).json().data;
    const patched = await store.patch(`/carts/${cart.id}`, { delivery_type_id: courier, payment_type_id: transfer, delivery_address: address, invoice_address: address });
    expect(patched.statusCode, patched.body).toBe(200);
    const headers = { 'idempotency-key': randomUUID() };
    const replies = await Promise.all([0, 1, 2].map(() => store.post(`/carts/${cart.id}/checkout`, undefined, headers)));
    const fresh = replies.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(fresh, replies.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toHaveLength(1);
    expect(replies.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    const again = await store.post(`/carts/${cart.id}/checkout`, undefined, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.order_id).toBe(fresh[0]!.json().data.order_id);
    const [{ n }] = (await stack.orm.em.fork().getConnection().execute<{ n: string }[]>("select count(*) as n from shop_orders where shop_id = ? and email = 'anna@example.com'", [shop.id])) as [{ n: string }];
    expect(Number(n)).toBe(1);
  });
});

describe('Idempotency-Key on the configuration interface', () => {
  it('creates one webhook for a repeated keyed POST, replaying the 201; another body with the key is 422', async () => {
    const before = await webhookCount();
    const key = randomUUID();
    const first = await createWebhook(key);
    expect(first.statusCode, first.body).toBe(201);
    const repeat = await createWebhook(key, { ...webhookBody(), events: ['access_granted'] });
    expect(repeat.statusCode).toBe(201);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json().data.id).toBe(first.json().data.id);
    expect(await webhookCount()).toBe(before + 1);
    const changed = await createWebhook(key, webhookBody('Another CRM'));
    expect(changed.statusCode).toBe(422);
    expect(changed.json().errors).toHaveProperty(['Idempotency-Key']);
    expect(await webhookCount()).toBe(before + 1);
    // Without a key every POST creates.
    expect((await createWebhook(undefined)).statusCode).toBe(201);
    expect((await createWebhook(undefined)).statusCode).toBe(201);
    expect(await webhookCount()).toBe(before + 3);
  });

  it('keeps keys of a platform apart from a shop using the same key', async () => {
    const key = randomUUID();
    const id = await placeOrder();
    expect((await clear(id, key)).statusCode).toBe(200);
    const res = await createWebhook(key);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('the idempotency plugin', () => {
  // A minimal interface on the real database: a route that fails with 503 the first time, and one that waits for a gate.
  it('keeps no 5xx (a retry runs again) and answers 409 to a repeat while the first still runs', async () => {
    let calls = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let slowRuns = 0;
    const app = Fastify();
    await app.register(errorsPlugin);
    await app.register(ormPlugin, { orm: stack.orm });
    await app.register(async (scope) => {
      await scope.register(idempotency, { tenantKind: 'test', tenantOf: () => 'tenant-a' });
      scope.post('/flaky', async (_request, reply) => {
        calls += 1;
        return calls === 1 ? reply.code(503).send({ error: 'unavailable' }) : reply.code(201).send({ call: calls });
      });
      scope.post('/slow', async () => {
        slowRuns += 1;
        await gate;
        return { slow: true };
      });
    });
    await app.ready();
    try {
      const key = randomUUID();
      const post = (url: string, k = key) => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'idempotency-key': k }, payload: { a: 1, b: [1, 2] } });
      expect((await post('/flaky')).statusCode).toBe(503);
      const second = await post('/flaky');
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual({ call: 2 });
      const third = await app.inject({ method: 'POST', url: '/flaky', headers: { 'content-type': 'application/json', 'idempotency-key': key }, payload: '{"b":[1,2],"a":1}' });
      expect(third.statusCode).toBe(201);
      expect(third.headers['idempotent-replayed']).toBe('true');
      expect(calls).toBe(2);

      const slowKey = randomUUID();
      const running = post('/slow', slowKey);
      for (let i = 0; slowRuns === 0 && i < 600; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const during = await post('/slow', slowKey);
      expect(during.statusCode).toBe(409);
      open();
      expect((await running).statusCode).toBe(200);
      const after = await post('/slow', slowKey);
      expect(after.statusCode).toBe(200);
      expect(after.headers['idempotent-replayed']).toBe('true');
      expect(slowRuns).toBe(1);
    } finally {
      open();
      await app.close();
    }
  });
});
