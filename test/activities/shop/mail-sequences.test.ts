/** The sequence activities on the real database: the plan, the re-check before each send, and the per-message dedupe. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailSequenceActivities, type MailSequenceRun } from '../../../activities/shop/mail-sequences.ts';
import { Subscriber, SubscriptionPlan } from '../../../db/entities/shop/index.ts';
import { personalEmailHash } from '../../../db/repositories/shared/personal-data/salt.ts';
import { SHOP_FILTER } from '../../../db/tenant.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { PLATFORM_URL_TEMPLATE, startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let activities: ReturnType<typeof mailSequenceActivities>;
let productId: number;
const now = new Date('2026-06-10T10:00:00Z');

beforeAll(async () => {
  stack = await startTestApp('shop-sequence-activities');
  activities = mailSequenceActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, now: () => now });
  shop = await createTestShop(stack.app, 'seq-act');
  productId = await insertProduct(stack.orm, shop.id);
});
afterAll(() => stack?.close());
const hashOf = (email: string) => personalEmailHash(stack.orm.em.fork(), email);

async function sequence(triggers: object, extra: object = {}) {
  const created = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/email_sequences`, {
    name: 'S',
    items: [
      { email: { subject: 'First', content: '<p>{{EMAIL}}</p>' }, offset_amount: 0, offset_unit: 'minutes' },
      { email: { subject: 'Second', content: '<p>b</p>' }, offset_amount: 2, offset_unit: 'days' },
    ],
  });
  await patch(created.id, { triggers, ...extra });
  return created as { id: number; items: { id: number }[] };
}
const patch = async (id: number, body: object) => {
  const res = await stack.app.inject({ method: 'PATCH', url: `/api/v1/configuration/email_sequences/${id}`, headers: shop.headers(), payload: body });
  expect(res.statusCode, res.body).toBe(200);
};
const mails = async (email: string) =>
  stack.orm.em.fork().getConnection().execute<{ subject: string }[]>(`select subject from shop_mails where shop_id = ? and "to" = ? and kind = 'sequence'`, [shop.id, email]);

describe('planMailSequence', () => {
  it('puts minute offsets after the trigger and day offsets at sending_time in the shop zone', async () => {
    const s = await sequence({ newsletter_subscription: true }, { sending_time: '08:30' });
    const run: MailSequenceRun = { shopId: shop.id, sequenceId: s.id, email: 'plan@example.com', trigger: { kind: 'newsletter' }, triggeredAt: '2026-06-10T21:00:00Z' };
    // 23:00 in Warsaw on 10 June; two days later at 08:30 Warsaw (summer: UTC+2).
    expect(await activities.planMailSequence(run)).toEqual([
      { itemId: s.items[0]!.id, sendAt: '2026-06-10T21:00:00.000Z' },
      { itemId: s.items[1]!.id, sendAt: '2026-06-12T06:30:00.000Z' },
    ]);
  });
});

describe('sendMailSequenceItem', () => {
  it('sends each message once when the send is repeated', async () => {
    const s = await sequence({ newsletter_subscription: true });
    const run = { shopId: shop.id, sequenceId: s.id, email: 'once@example.com', trigger: { kind: 'newsletter' as const }, triggeredAt: now.toISOString(), itemId: s.items[0]!.id };
    expect(await activities.sendMailSequenceItem(run)).toBe('sent');
    // A retried attempt (the first one's reply lost) finds the mail in the log.
    expect(await activities.sendMailSequenceItem(run)).toBe('sent');
    expect(await mails('once@example.com')).toEqual([{ subject: 'First' }]);
  });

  it('a run named by hash and row reads the address from the row at each send; the row gone, it stops', async () => {
    const s = await sequence({ newsletter_subscription: true });
    const signUp = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/newsletter_subscribers`, { email: 'Row@Example.com' });
    const recipient = { hash: await hashOf('row@example.com'), row: { kind: 'newsletter' as const, subscriberId: signUp.id as number } };
    const run: MailSequenceRun & { itemId: number } = { shopId: shop.id, sequenceId: s.id, recipient, trigger: { kind: 'newsletter' }, triggeredAt: now.toISOString(), itemId: s.items[0]!.id };
    expect(await activities.sendMailSequenceItem(run)).toBe('sent');
    expect(await mails('row@example.com')).toEqual([{ subject: 'First' }]);
    await stack.orm.em.fork().execute('delete from shop_newsletter_subscribers where id = ?', [signUp.id]);
    expect(await activities.sendMailSequenceItem({ ...run, itemId: s.items[1]!.id })).toBe('stopped');
  });

  it('answers stopped once the sequence is turned off or the trigger that started the run is removed', async () => {
    const s = await sequence({ status_id: shop.statuses.Sent, newsletter_subscription: true });
    const orderRun = { shopId: shop.id, sequenceId: s.id, email: 'stop@example.com', trigger: { kind: 'order_status' as const, statusId: shop.statuses.Sent!, orderId: 1 }, triggeredAt: now.toISOString(), itemId: s.items[1]!.id };
    const newsletterRun = { ...orderRun, email: 'stop2@example.com', trigger: { kind: 'newsletter' as const } };
    await patch(s.id, { triggers: { status_id: shop.statuses.Paid } });
    expect(await activities.sendMailSequenceItem(orderRun)).toBe('stopped');
    expect(await activities.sendMailSequenceItem(newsletterRun)).toBe('sent');
    await patch(s.id, { active: false });
    expect(await activities.sendMailSequenceItem({ ...newsletterRun, itemId: s.items[0]!.id })).toBe('stopped');
    expect(await mails('stop@example.com')).toEqual([]);
  });
});

describe('a sequence deleted in the panel', () => {
  it('answers stopped to a run whose cancel did not reach it: its next message is not sent, the sent one stays logged; an unplanned run plans nothing', async () => {
    const s = await sequence({ newsletter_subscription: true });
    const run = { shopId: shop.id, sequenceId: s.id, email: 'deleted@example.com', trigger: { kind: 'newsletter' as const }, triggeredAt: now.toISOString() };
    expect(await activities.sendMailSequenceItem({ ...run, itemId: s.items[0]!.id })).toBe('sent');
    const res = await stack.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/email_sequences/${s.id}`, headers: operator });
    expect(res.statusCode, res.body).toBe(200);
    expect(await activities.sendMailSequenceItem({ ...run, itemId: s.items[1]!.id })).toBe('stopped');
    expect(await activities.planMailSequence(run)).toEqual([]);
    expect(await mails('deleted@example.com')).toEqual([{ subject: 'First' }]);
  });
});

describe('an order run re-checks the order against the trigger before each message', () => {
  it('stops once the sequence narrows to products the order does not hold', async () => {
    const other = await insertProduct(stack.orm, shop.id);
    const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'narrow@example.com', items: [{ product_id: productId }] });
    const s = await sequence({ status_id: shop.statuses.Sent, products_dependent: true, product_ids: [productId] });
    const run = { shopId: shop.id, sequenceId: s.id, email: 'narrow@example.com', trigger: { kind: 'order_status' as const, statusId: shop.statuses.Sent!, orderId: order.id as number }, triggeredAt: now.toISOString() };
    expect(await activities.sendMailSequenceItem({ ...run, itemId: s.items[0]!.id })).toBe('sent');
    await patch(s.id, { triggers: { product_ids: [other] } });
    expect(await activities.sendMailSequenceItem({ ...run, itemId: s.items[1]!.id })).toBe('stopped');
    expect(await mails('narrow@example.com')).toEqual([{ subject: 'First' }]);
  });
});

describe('recipient_discount_code', () => {
  const codesOf = (sequenceId: number) =>
    stack.orm.em.fork().getConnection().execute<{ code: string; name: string }[]>(
      `select c.code, c.name from shop_mail_sequence_recipient_codes l join shop_discount_codes c on c.id = l.discount_code_id where l.sequence_id = ?`,
      [sequenceId],
    );
  const html = async (email: string) =>
    (await stack.orm.em.fork().getConnection().execute<{ html: string }[]>(`select html from shop_mails where shop_id = ? and "to" = ? and kind = 'sequence' `, [shop.id, email])).map((r) => r.html);

  it('makes one code per sequence and address, only for a message showing {{KOD_RABATOWY}}, never reusing a hand-made code of the same name, and fits a long address', async () => {
    const created = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/email_sequences`, {
      name: 'Coded',
      items: [
        { email: { subject: 'No code', content: '<p>plain</p>' }, offset_amount: 0, offset_unit: 'minutes' },
        { email: { subject: 'Code', content: '<p>{{ KOD_RABATOWY }}</p>' }, offset_amount: 1, offset_unit: 'minutes' },
        { email: { subject: 'Code again', content: '<p>{{KOD_RABATOWY}}</p>' }, offset_amount: 2, offset_unit: 'minutes' },
      ],
    });
    await patch(created.id, { triggers: { newsletter_subscription: true }, recipient_discount_code: { enabled: true, type: 'percentage_discount', value: '10', validity_days: 7 } });
    // 250 characters: within the 254 of an address, too long for `mail sequence <id>: <email>` in 255.
    const email = `${'l'.repeat(64)}@${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(51)}.example.com`;
    expect(email).toHaveLength(250);
    // A hand-made code carrying the name the old lookup used: never handed out.
    await stack.app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: shop.headers(), payload: { code: `HAND-${Date.now()}`, name: `mail sequence ${created.id}: ${email}`.slice(0, 255), discount_type: 'percentage_discount', value: '50' } });
    const run = { shopId: shop.id, sequenceId: created.id as number, email, trigger: { kind: 'newsletter' as const }, triggeredAt: now.toISOString() };
    const items = (created as { items: { id: number }[] }).items;

    expect(await activities.sendMailSequenceItem({ ...run, itemId: items[0]!.id })).toBe('sent');
    expect(await codesOf(created.id)).toEqual([]);
    expect(await activities.sendMailSequenceItem({ ...run, itemId: items[1]!.id })).toBe('sent');
    expect(await activities.sendMailSequenceItem({ ...run, itemId: items[2]!.id })).toBe('sent');
    const codes = await codesOf(created.id);
    expect(codes).toHaveLength(1);
    expect(codes[0]!.name.length).toBeLessThanOrEqual(255);
    expect(codes[0]!.code).toMatch(new RegExp(`^SEQ${created.id}-`));
    expect((await html(email)).sort()).toEqual([`<p>${codes[0]!.code}</p>`, `<p>${codes[0]!.code}</p>`, '<p>plain</p>']);
  });
});

describe('orderMailSequences', () => {
  it('starts only sequences whose status, products and first-purchase rule the order meets', async () => {
    const statusId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: `Packed ${Date.now()}` })).id as number;
    const plain = await sequence({ status_id: statusId });
    const narrow = await sequence({ status_id: statusId, products_dependent: true, product_ids: [productId] });
    const firstOnly = await sequence({ status_id: statusId }, { only_first_purchase: true });
    const other = await insertProduct(stack.orm, shop.id);
    const place = (email: string, product: number) => adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, items: [{ product_id: product }] });
    const first = await place('Buyer@Example.com', other);
    const hash = await hashOf('buyer@example.com');
    expect(await activities.orderMailSequences({ shopId: shop.id, orderId: first.id, statusId })).toEqual({ recipient: { hash, row: { kind: 'order', orderId: first.id } }, statusId, sequenceIds: [plain.id, firstOnly.id] });
    const second = await place('buyer@example.com', productId);
    expect(await activities.orderMailSequences({ shopId: shop.id, orderId: second.id, statusId })).toEqual({ recipient: { hash, row: { kind: 'order', orderId: second.id } }, statusId, sequenceIds: [plain.id, narrow.id] });
  });
});

describe('subscriptionEntryMailSequences', () => {
  it('keeps a customer\'s first subscriber of a plan, with the plan\'s first_subscription_entry sequences', async () => {
    const em = stack.orm.em.fork();
    em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
    const [plan, otherPlan] = [em.create(SubscriptionPlan, { shop: shop.id, name: 'Monthly' }), em.create(SubscriptionPlan, { shop: shop.id, name: 'Yearly' })];
    await em.flush();
    const subscriber = (email: string, p: typeof plan) => em.create(Subscriber, { shop: shop.id, serviceRef: `ref-${Math.random()}`, email, plan: p });
    const first = subscriber('Sub@Example.com', plan);
    await em.flush();
    const again = subscriber('sub@example.com', plan);
    const elsewhere = subscriber('sub@example.com', otherPlan);
    await em.flush();
    const s = await sequence({ first_subscription_entry: true, subscription_plan_id: plan.id });
    await sequence({ first_subscription_entry: true, subscription_plan_id: otherPlan.id }, { active: false });

    const hash = await hashOf('sub@example.com');
    const entries = await activities.subscriptionEntryMailSequences({ shopId: shop.id, subscriberIds: [first.id, again.id, elsewhere.id] });
    expect(entries.sort((a, b) => a.subscriptionPlanId - b.subscriptionPlanId)).toEqual([
      { recipient: { hash, row: { kind: 'subscriber', subscriberId: first.id } }, subscriptionPlanId: plan.id, sequenceIds: [s.id] },
      { recipient: { hash, row: { kind: 'subscriber', subscriberId: elsewhere.id } }, subscriptionPlanId: otherPlan.id, sequenceIds: [] },
    ]);
    expect(await activities.subscriptionEntryMailSequences({ shopId: shop.id, subscriberIds: [again.id] })).toEqual([]);
  });
});
