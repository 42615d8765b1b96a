/**
 * A customer's data on request (issue 29), end to end: the API, a worker with the real activities
 * and a webhook receiver on loopback. The export shows what the shop holds about one address; the
 * erasure (a workflow, started once however many requests race) keeps what tax law requires and
 * leaves the person's e-mail, name, address, phone, tax id and IP in no table of the database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookEndToEnd, type WebhookEndToEnd } from '../../helpers/e2e.ts';
import { searchEveryTable } from '../../helpers/personal-data.ts';
import { expectRepeatedErasureChangesNothing } from '../../helpers/repeated-erasure.ts';
import { shopPrefix } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertSubscriber } from '../../helpers/shop-subscribers.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { connectTemporal, eventually, type TestStack } from '../../helpers/stack.ts';
import { verifySignatures, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const SECRET = 'erasure-signing-secret-0123456789';
const u = randomBytes(4).toString('hex');
const digits = String(100_000_000 + (randomBytes(4).readUInt32BE() % 900_000_000));
const person = {
  email: `Erin.${u}@Example.com`,
  first_name: `Erinfirst${u}`,
  last_name: `Erinlast${u}`,
  company: `Erincorp${u}`,
  nip: `9${digits}`,
  address: `Erinstreet ${u} 5`,
  postcode: '30-001',
  city: 'Kraków',
  country: 'PL',
  phone: `+48${digits}`,
  ip: `2001:db8::${u.slice(0, 4)}:${u.slice(4)}`,
};
const address = { ...person, email: person.email } as Record<string, string>;
delete address.ip;
const stripeCustomer = `cus_erasure${u}`;
const stripeCard = `pm_erasure${u}`;
const needles = [person.email, encodeURIComponent(person.email.toLowerCase()), person.first_name, person.last_name, person.company, person.nip, person.address, person.phone, person.ip];

let e2e: WebhookEndToEnd;
let stack: TestStack;
let receiver: WebhookReceiver;
let http: WebhookEndToEnd['http'];
let shop: TestShop;
let productId: number;
let order: { id: number; ordinal_number: number; total: string };
let otherOrder: { id: number };

const operatorGet = async (path: string) => {
  const res = await http('GET', path, { operator: true });
  return res;
};
const erase = (email: string) => http('POST', `/admin/v1/shops/${shop.id}/customers/erase`, { operator: true, body: { email } });
const erasure = async (workflowId: string) => operatorGet(`/admin/v1/shops/${shop.id}/customers/erasures/${workflowId.split('/').pop()}`);

beforeAll(async () => {
  e2e = await startWebhookEndToEnd('e2e-shop-customer-data', [200, 200, 200]);
  ({ stack, receiver, http } = e2e);
  shop = await createTestShop(stack.app, 'erasure');
  productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', sku: 'ATLAS', price: '120.00' });
  await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url: receiver.url('/erased'), events: ['customer_erased', 'order_cleared'], secret_key: SECRET });
  await adminPost(stack.app, `/admin/v1/shops/${shop.id}/newsletter_subscribers`, { email: person.email });
  order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, {
    email: person.email,
    items: [{ product_id: productId, quantity: 2 }],
    delivery_address: address,
    invoice_address: address,
    comment: `Leave it with ${person.first_name}`,
    placed_ip: person.ip,
  });
  otherOrder = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: `other-${u}@example.com`, items: [{ product_id: productId }], delivery_address: { first_name: 'Olga', city: 'Gdańsk' } });
  const cleared = await http('PATCH', `/api/v1/orders/${order.id}/clear`, { headers: { 'x-api-key': shop.key } });
  expect(cleared.status).toBe(200);
  // The cleared order reached the webhook (its stored payload holds the person's data).
  await eventually(async () => expect(receiver.requests('/erased')).toHaveLength(1));

  // A storefront cart the person left with their e-mail and address.
  const cart = await http('POST', `/store/v1/${shop.subdomain}/carts`, { body: { items: [{ product_id: productId }], email: person.email } });
  expect(cart.status).toBe(201);
  // Sent with an Idempotency-Key: the stored reply (24 h) holds the person's data too.
  const patched = await http('PATCH', `/store/v1/${shop.subdomain}/carts/${cart.body.data.id}`, {
    headers: { 'idempotency-key': randomUUID() },
    body: { delivery_address: address, comment: `For ${person.last_name}` },
  });
  expect(patched.status).toBe(200);

  // What the shop holds besides: a subscriber, a download code, mails, an audit line.
  const plan = await http('POST', '/api/v1/subscription_plans', { headers: { 'x-api-key': shop.key }, body: { subscription_plan: { name: 'Monthly' } } });
  await insertSubscriber(stack.orm, shop.id, { planId: plan.body.data.id, email: person.email.toLowerCase(), customIdentifier: person.last_name, periods: [{ startsAt: new Date(Date.now() - 86_400_000), endsAt: new Date(Date.now() + 20 * 86_400_000) }] });
  const em = stack.orm.em.fork();
  const [item]: { id: number }[] = await em.execute('select id from shop_order_items where order_id = ?', [order.id]);
  await em.execute(
    `insert into shop_download_codes (shop_id, order_id, order_item_id, token, file_name, usages, usages_to_expire, expires_at, created_at) values (?, ?, ?, ?, 'atlas.pdf', 0, 5, now() + interval '30 days', now())`,
    [shop.id, order.id, item!.id, randomUUID()],
  );
  for (const status of ['sent', 'sending']) {
    await em.execute(`insert into shop_mails (id, shop_id, key, kind, from_address, from_name, "to", subject, html, status, sent_at) values (gen_random_uuid(), ?, ?, 'status_mail', 'shop@example.com', 'Shop', ?, ?, ?, ?, now())`, [
      shop.id,
      `order/${order.id}/${status}/${person.email.toLowerCase()}`,
      person.email.toLowerCase(),
      `Hello ${person.first_name}`,
      `<p>${person.first_name} ${person.last_name}, ${person.address}, ${person.phone}</p>`,
      status,
    ]);
  }
  // Stripe: the person's customer at the shop's Stripe account and the order's payment with its card.
  await em.execute(`insert into shop_stripe_customers (shop_id, email, customer_id, created_at) values (?, ?, ?, now())`, [shop.id, person.email.toLowerCase(), stripeCustomer]);
  await em.execute(
    `insert into shop_order_payments (shop_id, order_id, provider, payment_intent_id, amount, currency, customer_id, save_for_later, payment_method_id, succeeded_at, created_at)
     values (?, ?, 'stripe', 'pi_erasure_kept', ?, 'PLN', ?, true, ?, now(), now())`,
    [shop.id, order.id, order.total, stripeCustomer, stripeCard],
  );
  await http('GET', `/api/v1/orders?email=${encodeURIComponent(person.email)}`, { headers: { 'x-api-key': shop.key } });
  await em.execute(`insert into shop_audit_log (shop_id, at, method, path, status) values (?, now(), 'GET', ?, 200)`, [shop.id, `/api/v1/orders?email=${encodeURIComponent(person.email)}`]);
});
afterAll(() => e2e?.close());

describe('GET /admin/v1/shops/:shop_id/customers/export', () => {
  it('answers everything the shop holds about the address, compared without letter case', async () => {
    const res = await operatorGet(`/admin/v1/shops/${shop.id}/customers/export?email=${encodeURIComponent(person.email.toUpperCase())}`);
    expect(res.status).toBe(200);
    const doc = res.body.data;
    expect(doc.email).toBe(person.email.toLowerCase());
    expect(doc.orders).toHaveLength(1);
    expect(doc.orders[0]).toMatchObject({ id: order.id, ordinal_number: order.ordinal_number, email: person.email.toLowerCase(), placed_ip: person.ip, total: expect.anything() });
    expect(doc.orders[0].delivery_address).toMatchObject({ first_name: person.first_name, phone: person.phone, nip: person.nip });
    expect(doc.orders[0].items).toEqual([expect.objectContaining({ product_id: productId, quantity: 2 })]);
    expect(doc.orders[0]).not.toHaveProperty('uuid');
    expect(doc.download_codes).toEqual([expect.objectContaining({ order_id: order.id, file_name: 'atlas.pdf' })]);
    expect(doc.subscribers).toEqual([expect.objectContaining({ email: person.email.toLowerCase(), custom_identifier: person.last_name, periods: [expect.anything()] })]);
    expect(doc.payment_methods).toEqual([expect.objectContaining({ payment_reference: 'tok_test_saved_card' })]);
    expect(doc.stripe_customers).toEqual([expect.objectContaining({ customer_id: stripeCustomer, email: person.email.toLowerCase() })]);
    expect(doc.order_payments).toEqual([expect.objectContaining({ order_id: order.id, payment_intent_id: 'pi_erasure_kept', customer_id: stripeCustomer, payment_method_id: stripeCard })]);
    expect(doc.newsletter_consent).toEqual([expect.objectContaining({ email: person.email.toLowerCase() })]);
    expect(doc.carts).toEqual([expect.objectContaining({ state: expect.objectContaining({ email: person.email, delivery_address: expect.objectContaining({ last_name: person.last_name }) }) })]);
    expect(doc.mails.length).toBeGreaterThanOrEqual(2);
    expect(doc.webhook_payloads).toEqual([expect.objectContaining({ event_type: 'order_cleared' })]);
    // Nothing of the other customer.
    expect(JSON.stringify(doc)).not.toContain(`other-${u}`);
  });

  it('an unknown person gets an empty document, not an error; a bad address is a 422 naming email', async () => {
    const res = await operatorGet(`/admin/v1/shops/${shop.id}/customers/export?email=nobody-${u}@example.com`);
    expect(res.status).toBe(200);
    const { email, ...lists } = res.body.data;
    expect(email).toBe(`nobody-${u}@example.com`);
    expect(Object.keys(lists).length).toBeGreaterThan(5);
    for (const list of Object.values(lists)) expect(list).toEqual([]);
    const bad = await operatorGet(`/admin/v1/shops/${shop.id}/customers/export?email=not-an-address`);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual([expect.stringContaining('email')]);
    expect((await operatorGet(`/admin/v1/shops/${randomUUID()}/customers/export?email=a@b.co`)).status).toBe(404);
  });
});

describe('POST /admin/v1/shops/:shop_id/customers/erase', () => {
  let workflowId: string;

  it('12 concurrent requests make one erasure: 202 with one workflow id that holds no e-mail', async () => {
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => erase(i % 2 ? person.email : person.email.toUpperCase())));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(202));
    const ids = new Set(replies.map((r) => r.body.data.workflow_id as string));
    expect(new Set(replies.map((r) => r.body.data.erasure_id))).toEqual(new Set([[...ids][0]!.split('/').pop()]));
    expect(ids.size).toBe(1);
    workflowId = [...ids][0]!;
    expect(workflowId).toMatch(new RegExp(`^shop/${shop.id}/customer-erasure/[0-9a-f]{64}$`));
    expect(workflowId.toLowerCase()).not.toContain(u);

    const done = await eventually(async () => {
      const res = await erasure(workflowId);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('completed');
      return res.body.data;
    }, { timeoutMs: 90_000 });
    expect(done.counts).toMatchObject({ orders: 1, download_codes: 1, subscribers: 1, payment_methods: 1, newsletter_consent: 1, carts: 1, idempotent_replies: 1 });

    // One workflow execution for the id, its input without the address.
    const temporal = await connectTemporal();
    const runs = [];
    for await (const run of temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
    expect(runs).toHaveLength(1);
    const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
    expect(JSON.stringify(history).toLowerCase()).not.toContain(u);
    await temporal.connection.close();
  }, 120_000);

  it('keeps the order for tax law (number, lines, amounts, dates) with the personal fields replaced', async () => {
    const res = await http('GET', `/api/v1/orders/${order.id}`, { headers: { 'x-api-key': shop.key } });
    expect(res.status).toBe(200);
    const kept = res.body.data;
    expect(kept).toMatchObject({ id: order.id, ordinal_number: order.ordinal_number, total: order.total, paid: true });
    expect(kept.email).toMatch(/^erased-[0-9a-f]{16}@erased\.invalid$/);
    expect(kept.items).toEqual([expect.objectContaining({ product_id: productId, quantity: 2 })]);
    expect(kept.delivery_address).toMatchObject({ first_name: '[erased]', country: 'PL', phone: '[erased]' });
    expect(kept.placed_ip ?? null).toBeNull();
    // The other customer's order is untouched.
    const other = await http('GET', `/api/v1/orders/${otherOrder.id}`, { headers: { 'x-api-key': shop.key } });
    expect(other.body.data).toMatchObject({ email: `other-${u}@example.com` });
    expect(other.body.data.delivery_address).toMatchObject({ first_name: 'Olga' });
  });

  it('nothing comes back: no table of the database holds the e-mail, name, address, phone, tax id or IP', async () => {
    expect(await searchEveryTable(stack.orm, [...needles, stripeCustomer, stripeCard])).toEqual([]);
    // The order's payment is kept for the accounts, without the Stripe customer and card.
    expect(await stack.orm.em.fork().execute('select payment_intent_id, amount, customer_id, payment_method_id from shop_order_payments where order_id = ?', [order.id])).toEqual([
      { payment_intent_id: 'pi_erasure_kept', amount: order.total, customer_id: null, payment_method_id: null },
    ]);
    const exported = await operatorGet(`/admin/v1/shops/${shop.id}/customers/export?email=${encodeURIComponent(person.email)}`);
    const { email: _email, ...lists } = exported.body.data;
    for (const list of Object.values(lists)) expect(list).toEqual([]);
    const mails = await operatorGet(`/admin/v1/shops/${shop.id}/emails?to=${encodeURIComponent(person.email)}`);
    expect(mails.body.data).toEqual([]);
    // The subscriber is stopped and its saved payment method detached; the download code revoked.
    const [subscriber]: { status: string; payment_reference: string | null }[] = await stack.orm.em.fork().execute('select status, payment_reference from shop_subscribers where shop_id = ?', [shop.id]);
    expect(subscriber).toEqual({ status: 'ended', payment_reference: null });
    const [code]: { live: boolean }[] = await stack.orm.em.fork().execute('select expires_at > now() and usages < usages_to_expire as live from shop_download_codes where order_id = ?', [order.id]);
    expect(code!.live).toBe(false);
  });

  it('tells the webhooks: customer_erased, signed like the others, with ids and no personal data', async () => {
    const erased = await eventually(async () => {
      const found = receiver.requests('/erased').filter((r) => r.json.type === 'customer_erased');
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    expect(verifySignatures(erased, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(erased.json.data.customer).toEqual({ erasure_id: workflowId.split('/').pop(), order_ids: [order.id], ordinal_numbers: [order.ordinal_number], subscriber_ids: [expect.any(Number)] });
    for (const needle of needles) expect(erased.body.toLowerCase()).not.toContain(needle.toLowerCase());
  });

  it('a repeated erasure changes nothing and reports the same; a later order by the same e-mail starts afresh', async () => {
    const again = await expectRepeatedErasureChangesNothing({
      erase: () => erase(person.email),
      erasure: () => erasure(workflowId),
      temporal: stack.temporal,
      tenantPrefix: `${shopPrefix(shop.id)}/`,
      announcements: () => receiver.requests('/erased').filter((r) => r.json.type === 'customer_erased').length,
    });
    expect(again.body.data.workflow_id).toBe(workflowId);

    const fresh = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: person.email, items: [{ product_id: productId }] });
    const exported = await operatorGet(`/admin/v1/shops/${shop.id}/customers/export?email=${encodeURIComponent(person.email)}`);
    expect(exported.body.data.orders.map((o: { id: number }) => o.id)).toEqual([fresh.id]);
    expect(exported.body.data.newsletter_consent).toEqual([]);
  }, 120_000);

  it('answers 422 naming email for a bad body, 404 for an unknown shop or erasure', async () => {
    const bad = await http('POST', `/admin/v1/shops/${shop.id}/customers/erase`, { operator: true, body: { email: 'nope' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual([expect.stringContaining('email')]);
    expect((await http('POST', `/admin/v1/shops/${randomUUID()}/customers/erase`, { operator: true, body: { email: 'a@b.co' } })).status).toBe(404);
    expect((await erasure(`shop/${shop.id}/customer-erasure/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await erasure('not-a-hash')).status).toBe(422);
    expect((await http('POST', `/admin/v1/shops/${shop.id}/customers/erase`, { body: { email: 'a@b.co' } })).status).toBe(401);
  });
});
