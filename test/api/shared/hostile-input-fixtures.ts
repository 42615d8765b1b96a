/**
 * The rows the hostile walk's plain requests name (test/api/shared/hostile-input.test.ts, issue 28
 * item 4): an existing row for every id a route's path takes, so that each route's plain request
 * can succeed. A route that deletes or changes its row for good (a DELETE, a clearing, a status
 * change, a checkout, a redelivery) gets a row of its own (`doomed...`, `...ToClear`), so the walk's
 * order never matters. Made through the app's API; what only the worker makes comes from
 * hostile-input-worker-rows.ts.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { signStripeWebhook } from '../../../adapters/payments/stripe.ts';
import { createConfigurationKey } from '../../helpers/configuration.ts';
import { createAudiobook, operator, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { PNG_1X1, upload } from '../../helpers/images.ts';
import { makePdf } from '../../helpers/pdf.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertProductSet } from '../../helpers/shop-checkout.ts';
import { adminPost, type TestShop } from '../../helpers/shop.ts';
import type { TestStack } from '../../helpers/stack.ts';
import { insertRecommendationGroup } from '../../helpers/storefront.ts';
import { workerRows } from './hostile-input-worker-rows.ts';

/** The tenants the walk acts on: the interfaces' platform and shop, the operator routes' others. */
export interface WalkTenants {
  platform: TestPlatform;
  course: TestCourse;
  shop: TestShop;
  target: TestPlatform;
  targetCourse: TestCourse;
  targetShop: TestShop;
}

/** The participant of the target platform (enrolled in its course) and the buyer of the walk's orders. */
export const WALK_EMAILS = { learner: 'walk-learner@example.com', buyer: 'walk-buyer@example.com' } as const;

let count = 0;
/** A code or name no earlier request of the walk used. */
const uniqueName = (prefix: string) => `${prefix}${(count += 1)}${randomUUID().slice(0, 6)}`.toUpperCase();
const automatic = { discount_type: 'percentage_discount', value: '10', relation_with_products: 'all_products' };
const DAY = 86_400_000;

/** Valid bodies of the create routes: the walk's plain requests send them, and the setup makes its rows with them. */
export const newBody = {
  discountCode: () => ({ code: uniqueName('WALK'), discount_type: 'percentage_discount', value: '10' }),
  emailAddressDiscount: () => ({ ...automatic, email: `${uniqueName('walk').toLowerCase()}@example.com` }),
  emailDomainDiscount: () => ({ ...automatic, email_domain: `${uniqueName('walk').toLowerCase()}.example.com` }),
  newsletterDiscount: () => automatic,
  timeLimitedDiscount: () => ({ ...automatic, start_date: new Date(Date.now() + 30 * DAY).toISOString(), end_date: new Date(Date.now() + 60 * DAY).toISOString() }),
  subscriptionPlan: () => ({ subscription_plan: { name: uniqueName('Plan') } }),
  webhook: () => ({ name: 'Walk', url: 'https://hooks.example.com/walk', events: ['user_registered'], secret_key: 'walk-secret-0123456789abcdef0123456789' }),
  shopWebhook: () => ({ url: 'https://hooks.example.com/walk', events: ['order_cleared'], secret_key: 'walk-secret-0123456789abcdef0123456789' }),
  pool: () => ({ name: 'Walk pool', activate_on_draw: true, codes: [uniqueName('POOL'), uniqueName('POOL'), uniqueName('POOL')], discount_type: 'value_discount', value: '5' }),
};

/** The shop's discounts, each kind kept (read, changed) and doomed (deleted). */
const DISCOUNTS = {
  discount_codes: newBody.discountCode,
  email_address_discounts: newBody.emailAddressDiscount,
  email_domain_discounts: newBody.emailDomainDiscount,
  newsletter_discounts: newBody.newsletterDiscount,
  time_limited_discounts: newBody.timeLimitedDiscount,
};

export type WalkFixtures = Awaited<ReturnType<typeof createWalkFixtures>>;

export async function createWalkFixtures(stack: TestStack, t: WalkTenants) {
  const make = maker(stack);
  return {
    access: await accessRows(make, t),
    configuration: await configurationRows(make, t),
    operator: await operatorRows(make, t),
    shop: await shopRows(make, t),
    storefront: await storefrontRows(make, t.shop),
    targetShop: await targetShopRows(make, t.targetShop),
    stripe: await stripeRows(make),
  };
}

/** The requests the setup makes, each of which must succeed. */
function maker({ app, orm }: TestStack) {
  /** The reply's `data` (the access interface answers without the envelope). */
  const call = async (method: 'POST' | 'PATCH' | 'PUT', url: string, headers: Record<string, string>, payload: unknown) => {
    const res = await app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    const reply = res.json();
    return reply.data ?? reply;
  };
  return {
    app,
    orm,
    call,
    worker: workerRows(orm),
    placeOrder: async (shopId: string, productId: number): Promise<number> => (await adminPost(app, `/admin/v1/shops/${shopId}/orders`, { email: WALK_EMAILS.buyer, items: [{ product_id: productId }] })).id,
  };
}
type Make = ReturnType<typeof maker>;

const lastSegment = (url: string) => url.split('/').pop()!;

async function accessRows({ app, call }: Make, t: WalkTenants) {
  const order = await call('POST', '/api/orders', { 'x-api-key': t.platform.apiKey }, { order: { email: WALK_EMAILS.buyer, external_id: uniqueName('walk'), ordered_contents: [{ course_ids: [t.course.id] }] } });
  return { audiobook: (await createAudiobook(app, t.platform.id)).id, order: order.id as string };
}

/** A logo, the course's own invitation (its reinvitation customized, to restore), a webhook with a failed delivery. */
async function configurationRows({ app, call, worker }: Make, t: WalkTenants) {
  const key = { 'x-api-key': (await createConfigurationKey(app, t.platform.id)).token };
  const logoUrl: string = (await call('PATCH', '/api/v1/configuration/platform', key, { logo: upload(PNG_1X1) })).logo_url;
  await call('PATCH', `/api/v1/configuration/courses/${t.course.id}/custom_invitation`, key, { enabled: true });
  await call('PATCH', `/api/v1/configuration/courses/${t.course.id}/email_templates/course_reinvitation`, key, { subject: 'Walk' });
  const webhook: string = (await call('POST', '/api/v1/configuration/webhooks', key, newBody.webhook())).id;
  const events = await worker.enrol(t.platform.id, t.course.id, 'walk-registered@example.com');
  return {
    logoFile: lastSegment(logoUrl),
    webhook,
    delivery: await worker.failedPlatformDelivery(t.platform.id, webhook, events.find((e) => e.type === 'user_registered')!.id),
    doomedWebhook: (await call('POST', '/api/v1/configuration/webhooks', key, newBody.webhook())).id as string,
  };
}

/** The target platform's: a participant (level 1), an erasure, a configuration key to delete; the target shop's erasure and key. */
async function operatorRows({ app, call, worker }: Make, t: WalkTenants) {
  await worker.enrol(t.target.id, t.targetCourse.id, WALK_EMAILS.learner, 1);
  const erase = async (url: string): Promise<string> => (await call('POST', url, operator, { email: 'walk-erased@example.com' })).erasure_id;
  return {
    lesson: t.targetCourse.sections[0]!.lessons[0]!.id,
    erasure: await erase(`/admin/v1/platforms/${t.target.id}/participants/erase`),
    shopErasure: await erase(`/admin/v1/shops/${t.targetShop.id}/customers/erase`),
    doomedConfigurationKey: (await createConfigurationKey(app, t.target.id)).id,
    doomedApiKey: (await adminPost(app, `/admin/v1/shops/${t.targetShop.id}/api_keys`, { name: 'walk', scopes: ['read'] })).id as string,
  };
}

async function shopRows(make: Make, t: WalkTenants) {
  const { app, orm, call, worker, placeOrder } = make;
  const shopId = t.shop.id;
  const key = { 'x-api-key': t.shop.key };
  const post = async (url: string, body: unknown): Promise<number> => (await call('POST', url, key, body)).id;
  const product = await insertProduct(orm, shopId, { name: 'Walk product' });
  const setProducts: [number, number] = [await insertProduct(orm, shopId), await insertProduct(orm, shopId)];
  const setItems = setProducts.map((productId) => ({ productId }));

  // An e-book with two files, and a paid order of it with its download links.
  const ebook = await insertProduct(orm, shopId, { name: 'Walk e-book', electronic: true });
  const pdf = { days_to_expire: 30, usages_to_expire: 5, file: { filename: 'walk.pdf', content_type: 'application/pdf', data: (await makePdf(1)).toString('base64') } };
  const content = await post(`/api/v1/products/${ebook}/electronic_contents`, pdf);
  const doomedContent = await post(`/api/v1/products/${ebook}/electronic_contents`, pdf);
  const paidOrder = await placeOrder(shopId, ebook);
  await call('PATCH', `/api/v1/orders/${paidOrder}/clear`, key, {});
  await worker.downloadCodes(shopId, paidOrder);
  const links: { link: string }[] = (await call('POST', `/api/v1/orders/${paidOrder}/reset_download_limit`, key, {})).reset_codes;

  const discounts = {} as Record<keyof typeof DISCOUNTS, { kept: number; doomed: number }>;
  for (const [resource, body] of Object.entries(DISCOUNTS) as [keyof typeof DISCOUNTS, () => object][]) {
    discounts[resource] = { kept: await post(`/api/v1/${resource}`, body()), doomed: await post(`/api/v1/${resource}`, body()) };
  }
  const plan = await post('/api/v1/subscription_plans', newBody.subscriptionPlan());
  // The status's test mail needs a mail.
  await call('PATCH', `/api/v1/configuration/order_statuses/${t.shop.statuses.New}`, key, { email: { subject: 'Walk', content: '<p>Walk</p>' } });
  // The club, with a product to take off its list and a failed webhook of an order.
  const clubProduct = await insertProduct(orm, shopId, { name: 'Walk club product' });
  await call('PATCH', '/api/v1/configuration/club', key, { webhook_url: 'https://club.example.com/walk', product_ids: [clubProduct] });
  const order = await placeOrder(shopId, product);
  const sequence = { name: 'Walk', items: [{ email: { subject: 'Walk', content: '<p>Walk</p>' }, offset_amount: 1, offset_unit: 'days' }] };

  return {
    product,
    doomedProduct: await insertProduct(orm, shopId, { name: 'Walk product to delete' }),
    photoFile: lastSegment((await call('POST', '/api/v1/products', key, { name: 'Walk photo', price: '1.00', photo: upload(PNG_1X1) })).photo_url),
    setProducts,
    productSet: await insertProductSet(orm, shopId, '15.00', setItems),
    doomedProductSet: await insertProductSet(orm, shopId, '15.00', setItems),
    group: await insertRecommendationGroup(orm, shopId, [{ productId: product, invokes: true }]),
    doomedGroup: await insertRecommendationGroup(orm, shopId, [{ productId: product, invokes: true }]),
    ebook,
    content,
    doomedContent,
    order,
    orderToClear: await placeOrder(shopId, product),
    orderToMove: await placeOrder(shopId, product),
    paidOrder,
    invoice: await worker.invoice(shopId, paidOrder),
    downloadToken: lastSegment(links[0]!.link),
    discounts,
    pool: (await adminPost(app, `/admin/v1/shops/${shopId}/discount_code_pools`, newBody.pool())).id as number,
    plan,
    doomedPlan: await post('/api/v1/subscription_plans', newBody.subscriptionPlan()),
    subscriber: await worker.activeSubscriber(shopId, plan),
    status: t.shop.statuses.New!,
    clubProduct,
    clubDelivery: await worker.failedClubDelivery(shopId, order),
    sequence: (await adminPost(app, `/admin/v1/shops/${shopId}/email_sequences`, sequence)).id as number,
  };
}

/** A cart to read and change, one to check out, the order placed from a third. */
async function storefrontRows({ orm, call, worker }: Make, shop: TestShop) {
  const product = await insertProduct(orm, shop.id, { name: 'Walk cart product' });
  const post = (path: string, payload: unknown) => call('POST', `/store/v1/${shop.subdomain}${path}`, {}, payload);
  const cart = async (): Promise<string> => (await post('/carts', { items: [{ product_id: product }], email: WALK_EMAILS.buyer })).id;
  const placed = await cart();
  await post(`/carts/${placed}/checkout`, {});
  const [order] = await orm.em.fork().execute<{ id: number }[]>('select id from shop_orders where uuid = ?', [placed]);
  const invoice = await worker.invoice(shop.id, Number(order!.id));
  return { cart: await cart(), cartToCheckOut: await cart(), placedOrder: placed, placedOrderInvoice: invoice };
}

/** The operator's shop routes: an order, a webhook with a failed delivery, a club with one, a subscriber. */
async function targetShopRows({ app, orm, call, worker, placeOrder }: Make, shop: TestShop) {
  const key = { 'x-api-key': shop.key };
  const product = await insertProduct(orm, shop.id, { name: 'Walk target product' });
  const order = await placeOrder(shop.id, product);
  const webhook: string = (await adminPost(app, `/admin/v1/shops/${shop.id}/webhooks`, newBody.shopWebhook())).id;
  await call('PATCH', '/api/v1/configuration/club', key, { webhook_url: 'https://club.example.com/walk' });
  const plan: number = (await call('POST', '/api/v1/subscription_plans', key, newBody.subscriptionPlan())).id;
  return {
    product,
    order,
    plan,
    webhook,
    delivery: await worker.failedShopDelivery(shop.id, webhook, order),
    doomedWebhook: (await adminPost(app, `/admin/v1/shops/${shop.id}/webhooks`, newBody.shopWebhook())).id as string,
    clubDelivery: await worker.failedClubDelivery(shop.id, order),
    subscriber: await worker.activeSubscriber(shop.id, plan),
    ...(await referenceRows(app, shop)),
  };
}

/** The panel's edits (issue 40): a row of each reference list to change, and unused ones to delete. */
async function referenceRows(app: Make['app'], shop: TestShop) {
  const post = async (list: string, body: object) => (await adminPost(app, `/admin/v1/shops/${shop.id}/${list}`, body)).id as number;
  const sequence = { name: 'Walk doomed sequence', items: [{ email: { subject: 'Hi', content: '<p>Hi</p>' }, offset_amount: 0, offset_unit: 'minutes' }] };
  return {
    deliveryType: await post('delivery_types', { name: 'Walk delivery', default_price: '5.00' }),
    paymentType: await post('payment_types', { name: 'Walk payment' }),
    category: await post('product_categories', { name: 'Walk category' }),
    doomedCategory: await post('product_categories', { name: 'Walk doomed category' }),
    sender: await post('senders', { name: 'Walk', email: 'walk-sender@example.com' }),
    doomedSender: await post('senders', { name: 'Walk doomed', email: 'walk-doomed@example.com' }),
    status: await post('order_statuses', { name: 'Walk status' }),
    doomedStatus: await post('order_statuses', { name: 'Walk doomed status' }),
    doomedSequence: await post('email_sequences', sequence),
  };
}

/**
 * A shop of its own on Stripe (the walk's PUT of the target shop's gateway sets the test gateway):
 * an order to start a payment of (on stripe-mock), and a signed event it acknowledges.
 */
async function stripeRows({ app, orm, call, placeOrder }: Make) {
  const shop = await adminPost(app, '/admin/v1/shops', { subdomain: `hostile-stripe-${randomUUID().slice(0, 8)}`, name: 'Hostile Stripe' });
  const webhookSecret = 'whsec_hostilewalk0123456789';
  await call('PUT', `/admin/v1/shops/${shop.id}/payment_gateway`, operator, { mode: 'stripe', secret_key: 'sk_test_hostilewalk4242', webhook_secret: webhookSecret });
  const intent = { object: 'payment_intent', id: 'pi_walk', amount: 1000, currency: 'pln', metadata: {} };
  const event = JSON.stringify({ id: `evt_${randomUUID().slice(0, 8)}`, object: 'event', type: 'payment_intent.created', data: { object: intent } });
  return { shop: shop.id as string, order: await placeOrder(shop.id, await insertProduct(orm, shop.id, { name: 'Walk paid by card' })), event, signature: signStripeWebhook(event, webhookSecret) };
}
