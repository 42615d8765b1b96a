import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberRenewalActivities } from '../../../activities/shop/subscriber-renewal.ts';
import { shopEm } from '../../../db/repositories/shared/tenant-em.ts';
import { markOrderCleared } from '../../../db/repositories/shop/order-transitions.ts';
import { DEFAULT_MAIL_ENDPOINTS } from '../../../domain/shared/mail-endpoints.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { startSmtpStandIn, type SmtpStandIn } from '../../helpers/mail-providers.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * DESIGN.md section 10, subscriber mails: Polish texts by default, the plan's own texts from the
 * panel, dates as days in the shop's time zone, from the shop's sender or its admin_email; read
 * where they arrive (an SMTP stand-in as the platform's mail server).
 */
let stack: TestStack;
let smtp: SmtpStandIn;
let shop: TestShop;
let planId: number;
let productId: number;
let activities: ReturnType<typeof subscriberRenewalActivities>;

beforeAll(async () => {
  stack = await startTestApp('shop-subscriber-mails');
  smtp = await startSmtpStandIn();
  shop = await createTestShop(stack.app, 'sub-mails');
  productId = await insertProduct(stack.orm, shop.id, { name: 'Gazeta', price: '30.00' });
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/v1/subscription_plans',
    headers: shop.headers(),
    payload: {
      subscription_plan: {
        name: 'Prenumerata Żółw',
        automatic_renewal: true,
        send_email_about_activation: true,
        send_email_about_renewal: true,
        send_email_about_expiration_in_one_week: true,
        products: [{ product_id: productId, interval: 30 }],
      },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  planId = res.json().data.id;
  activities = subscriberRenewalActivities({ orm: stack.orm, platformUrlTemplate: '', mailEndpoints: { ...DEFAULT_MAIL_ENDPOINTS, defaultSmtpUrl: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true` } });
});
afterAll(async () => {
  await smtp.close();
  await stack.close();
});

const sql = <T>(query: string, params: unknown[] = []) => stack.orm.em.fork().getConnection().execute<T[]>(query, params);
const putEmail = (kind: string, payload: object, plan: number | string = planId, shopId = shop.id) =>
  stack.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}/subscription_plans/${plan}/emails/${kind}`, headers: operator, payload });

/** A subscriber of the plan from a cleared order; its first period ends at `endsAt`. */
async function subscriber(email: string, endsAt: string) {
  const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, {
    email,
    items: [{ product_id: productId }],
    invoice_address: { first_name: 'Łucja', last_name: 'Wąs', address: 'Długa 1', postcode: '00-001', city: 'Warszawa', country: 'PL' },
  });
  await markOrderCleared(shopEm(stack.orm, shop.id), shop.id, order.id, new Date());
  const { subscriberIds } = await activities.activateSubscriptions({ shopId: shop.id, orderId: order.id, source: 'clear' });
  const subscriberId = subscriberIds[0]!;
  await sql('update shop_subscriber_periods set ends_at = ? where subscriber_id = ?', [endsAt, subscriberId]);
  const { periodId } = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
  return { subscriberId, periodId };
}

const arrived = (email: string) => smtp.received.filter((m) => m.to.includes(email));

describe('PUT /admin/v1/shops/:shop_id/subscription_plans/:plan_id/emails/:kind', () => {
  it('stores the text of a kind, the last PUT winning', async () => {
    expect((await putEmail('renewal', { subject: 'first', content: '<p>first</p>' })).statusCode).toBe(200);
    const res = await putEmail('renewal', { subject: 'Odnowiono {{NAZWA_PLANU}}', content: '<p>Cześć {{IMIE}}, ważna do {{DATA_WAZNOSCI}}.</p>' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ plan_id: planId, kind: 'renewal', subject: 'Odnowiono {{NAZWA_PLANU}}' });
    expect(await sql('select kind, subject from shop_subscription_plan_emails where plan_id = ?', [planId])).toEqual([{ kind: 'renewal', subject: 'Odnowiono {{NAZWA_PLANU}}' }]);
  });

  it.each([
    ['an unknown kind', 'payment_failed', { subject: 's', content: 'c' }, 'params.kind'],
    ['an empty subject', 'activation', { subject: ' ', content: 'c' }, 'subject'],
    ['no content', 'activation', { subject: 's' }, 'content'],
    ['an unknown field', 'activation', { subject: 's', content: 'c', sender_id: 1 }, 'sender_id'],
  ])('answers 422 naming the field for %s', async (_case, kind, body, field) => {
    const res = await putEmail(kind, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it("answers 404 for an unknown plan or another shop's plan, 422 for a plan id that is no number", async () => {
    const other = await createTestShop(stack.app, 'sub-mails-other');
    const stored = await sql("select id from shop_subscription_plan_emails where kind = 'activation'");
    expect((await putEmail('activation', { subject: 's', content: 'c' }, 999_999)).statusCode).toBe(404);
    expect((await putEmail('activation', { subject: 's', content: 'c' }, planId, other.id)).statusCode).toBe(404);
    expect((await putEmail('activation', { subject: 's', content: 'c' }, 'abc')).statusCode).toBe(422);
    expect(await sql("select id from shop_subscription_plan_emails where kind = 'activation'")).toEqual(stored);
  });
});

describe('the mails a subscriber receives', () => {
  it("are Polish by default, dated in the shop's zone, from its admin_email without a sender", async () => {
    await sql('update shops set admin_email = ? where id = ?', ['biuro@sklep.example.com', shop.id]);
    // 23:30 UTC on 31.12.2026 is already 01.01.2027 in Warsaw.
    const { subscriberId, periodId } = await subscriber('anna@example.com', '2026-12-31T23:30:00Z');
    expect(await activities.sendSubscriberMail({ shopId: shop.id, subscriberId, periodId, kind: 'activation' })).toBe('activation mail to anna@example.com sent');
    expect(await activities.sendSubscriberMail({ shopId: shop.id, subscriberId, periodId, kind: 'expires_in_one_week' })).toBe('expires_in_one_week mail to anna@example.com sent');
    const [activation, week] = arrived('anna@example.com');
    expect(activation!.subject).toBe('Twoja subskrypcja Prenumerata Żółw jest aktywna');
    expect(activation!.html).toContain('jest aktywna do 01.01.2027');
    expect(activation!.from).toBe('biuro@sklep.example.com');
    expect(week!.subject).toBe('Twoja subskrypcja Prenumerata Żółw wygasa za tydzień');
  });

  it("follow the shop's time zone, the plan's own text and the shop's sender", async () => {
    expect((await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, headers: operator, payload: { time_zone: 'America/New_York' } })).statusCode).toBe(200);
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Sklep Żółw', email: 'sklep@sklep.example.com' });
    const { subscriberId, periodId } = await subscriber('jan@example.com', '2026-12-31T23:30:00Z');
    await activities.sendSubscriberMail({ shopId: shop.id, subscriberId, periodId, kind: 'renewal' });
    const [renewal] = arrived('jan@example.com');
    expect(renewal!.subject).toBe('Odnowiono Prenumerata Żółw');
    // Still 31.12.2026 in New York.
    expect(renewal!.html).toContain('Cześć Łucja, ważna do 31.12.2026.');
    expect(renewal!.from).toBe('sklep@sklep.example.com');
  });
});
