import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * A keyed storefront checkout places its order apart from the key's transaction (issue 41 review):
 * while its PaymentIntent is being created at Stripe, the shop's other orders are placed, since no
 * transaction holds the shop's order-number lock through the Stripe call. The key still replays.
 */
let stack: TestStack;
let stripe: Server;
let shop: TestShop;
let book: number;

/** Stands between the app and stripe-mock; holds the next PaymentIntent creation until released. */
let hold: { held: () => void; release: Promise<void> } | null = null;
/** PaymentIntent creations that reached the stand-in (the adapter's retry of a held one would be a second). */
let intentsAsked = 0;

beforeAll(async () => {
  const target = inject('stripeMockUrl');
  stripe = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const armed = hold;
    const creation = req.method === 'POST' && req.url === '/v1/payment_intents';
    if (creation) intentsAsked += 1;
    if (armed && creation) {
      hold = null;
      armed.held();
      await armed.release;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
  const stripeApiUrl = `http://127.0.0.1:${(stripe.address() as AddressInfo).port}`;
  stack = await startTestApp('storefront-keyed-checkout', { integrationEndpoints: { stripeApiUrl } });
  shop = await createTestShop(stack.app, 'keyed-checkout');
  const gateway = await stack.app.inject({
    method: 'PUT',
    url: `/admin/v1/shops/${shop.id}/payment_gateway`,
    headers: { ...operator, 'content-type': 'application/json' },
    payload: { mode: 'stripe', secret_key: 'sk_test_keyedcheckout4242', webhook_secret: 'whsec_keyedcheckout1234567890' },
  });
  expect(gateway.statusCode, gateway.body).toBe(200);
  book = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '25.00' });
});
afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => stripe?.close(resolve));
});

const storePost = (path: string, payload?: object, headers: Record<string, string> = {}) =>
  stack.app.inject({ method: 'POST', url: `/store/v1/${shop.subdomain}${path}`, headers: { ...(payload && { 'content-type': 'application/json' }), ...headers }, ...(payload && { payload }) });

describe('a keyed storefront checkout paying with Stripe', () => {
  it('lets the shop place other orders while its PaymentIntent is created, and its key replays the 201', async () => {
    const cart = await storePost('/carts', { items: [{ product_id: book, quantity: 1 }], email: 'keyed@example.com' });
    expect(cart.statusCode, cart.body).toBe(201);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      hold = { held: resolve, release: new Promise<void>((r) => (release = r)) };
    });
    const headers = { 'idempotency-key': randomUUID() };
    let settled = false;
    const checkout = storePost(`/carts/${cart.json().data.id}/checkout`, undefined, headers).finally(() => (settled = true));
    await held;
    // The checkout waits on Stripe: an operator placement in the same shop is not kept waiting by it
    // (held by the lock, it would go through only once the checkout gave up on its Stripe call).
    const other = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'other@example.com', items: [{ product_id: book, quantity: 1 }] });
    expect(settled).toBe(false);
    expect(intentsAsked).toBe(1);
    release();
    const first = await checkout;
    expect(first.statusCode, first.body).toBe(201);
    const { order_id: orderId, ordinal_number: ordinal, payment } = first.json().data;
    expect(payment).toMatchObject({ provider: 'stripe', payment_intent_id: expect.stringMatching(/^pi_/), amount: '25.00' });
    expect(other.ordinal_number).toBe(ordinal + 1);

    const again = await storePost(`/carts/${cart.json().data.id}/checkout`, undefined, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(first.json().data);
    expect(orderId).not.toBe(other.id);
  });
});
