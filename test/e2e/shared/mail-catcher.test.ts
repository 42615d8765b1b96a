/**
 * The local mail catcher `npm start` runs (MailDev) as the platform's and the shops' default SMTP
 * transport: a grant's invitation and an order's status mail travel the real SMTP path and are
 * read back through the catcher's REST API, headers and HTML included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailCatcher } from '../../../scripts/stack/mail-catcher.ts';
import { startEndToEndWithMailCatcher, type EndToEnd } from '../../helpers/e2e.ts';
import { createCourse, createPlatform, uniqueEmail } from '../../helpers/fixtures.ts';
import { caughtMailTo } from '../../helpers/mail-catcher.ts';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';

let stack: Awaited<ReturnType<typeof startEndToEndWithMailCatcher>>;
let catcher: MailCatcher;
let e2e: EndToEnd;

beforeAll(async () => {
  stack = await startEndToEndWithMailCatcher('e2e-mail-catcher');
  ({ e2e, catcher } = stack);
}, 600_000);
afterAll(() => stack?.close());

describe('the mail catcher', () => {
  it('shows its web UI', async () => {
    const res = await fetch(catcher.uiUrl, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>MailDev</title>');
  });

  it('receives a grant\'s invitation over SMTP, with its Message-ID, mail id header and login link', async () => {
    const platform = await createPlatform(e2e.stack.app, 'Caught academy');
    const course = await createCourse(e2e.stack.app, platform.id);
    const email = uniqueEmail('caught');
    const res = await e2e.http('POST', '/api/courses/subscribe', { key: platform.apiKey, body: { subscriptions: { course_id: course.id, email, name: 'Ann Smith' } } });
    expect(res.status).toBe(200);

    const mail = await caughtMailTo(catcher.uiUrl, email);
    const logged = await eventually(async () => {
      const log = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/emails?to=${encodeURIComponent(email)}`, { operator: true });
      expect(log.body.data).toHaveLength(1);
      expect(log.body.data[0]).toMatchObject({ template: 'user_invitation', provider: 'platform', status: 'sent' });
      return log.body.data[0];
    });
    expect(mail.subject).toBe(logged.subject);
    expect(mail.to).toEqual([{ address: email, name: expect.any(String) }]);
    // The mail log's id travels as X-Mail-Id and inside the Message-ID (the same on every attempt).
    const mailId = mail.headers['x-mail-id'];
    expect(mailId).toMatch(/^[0-9a-f-]{36}$/);
    expect(mail.headers['message-id']).toMatch(new RegExp(`^<${mailId}@[^>]+>$`));
    expect(mail.html).toMatch(new RegExp(`https://${platform.subdomain}\\.test\\.local/login\\?invitation=[A-Za-z0-9_-]{32}`));
    expect(mail.html.match(/invitation=[A-Za-z0-9_-]{32}/)?.[0]).toBe(logged.html.match(/invitation=[A-Za-z0-9_-]{32}/)?.[0]);
  });

  it('receives a shop\'s order status mail over SMTP, from the status\'s sender, with its HTML', async () => {
    const shop = await createTestShop(e2e.stack.app, 'caught-shop');
    const productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas', price: '50.00' });
    const courier = await createDeliveryType(e2e.stack.app, shop.id, { name: 'Courier', default_price: '12.00' });
    const sender = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Atlas Shop', email: 'shop@example.com' });
    const configured = await e2e.http('PATCH', `/api/v1/configuration/order_statuses/${shop.statuses.Sent}`, {
      headers: { 'x-api-key': shop.key },
      body: { send_email_on_status_change: true, sender_id: sender.id, email: { subject: 'Order {{NUMER_ZAMOWIENIA}} is on its way', content: '<p>Hello, it is <b>sent</b></p>' } },
    });
    expect(configured.status, JSON.stringify(configured.body)).toBe(200);

    const email = uniqueEmail('buyer');
    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, delivery_type_id: courier, items: [{ product_id: productId }] });
    const moved = await e2e.http('PATCH', `/api/v1/orders/${order.id}/status`, { headers: { 'x-api-key': shop.key }, body: { order_status_id: shop.statuses.Sent } });
    expect(moved.status).toBe(200);

    const mail = await caughtMailTo(catcher.uiUrl, email);
    expect(mail.subject).toBe(`Order ${order.ordinal_number} is on its way`);
    expect(mail.from).toEqual([{ address: 'shop@example.com', name: 'Atlas Shop' }]);
    expect(mail.html).toContain('<p>Hello, it is <b>sent</b></p>');
    expect(mail.headers['message-id']).toMatch(/^<.+@.+>$/);
  });
});
