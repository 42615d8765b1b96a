import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { makePdf } from '../../helpers/pdf.ts';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** The `status_mail` effect against the database: electronic substitution, download links, bcc copy, once per change. */
let stack: TestStack;
let shop: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-status-mail-activity');
  shop = await createTestShop(stack.app, 'status-mail');
});
afterAll(() => stack.close());

const mailsTo = async (to: string) =>
  (await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/emails?to=${encodeURIComponent(to)}`, headers: operator })).json().data as { subject: string; html: string; kind: string }[];

describe('sendStatusMail', () => {
  it('sends the electronic substitution with the order\'s download links to the customer and a copy to bcc, once', async () => {
    const courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '5.00' });
    const ebookId = await insertProduct(stack.orm, shop.id, { name: 'E-book', price: '25.00', electronic: true });
    const upload = await stack.app.inject({
      method: 'POST',
      url: `/api/v1/products/${ebookId}/electronic_contents`,
      headers: shop.headers(),
      payload: { days_to_expire: 30, usages_to_expire: 3, file: { filename: 'guide.pdf', content_type: 'application/pdf', data: (await makePdf(1)).toString('base64') } },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const statusId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Ready' })).id as number;
    const configured = await stack.app.inject({
      method: 'PATCH',
      url: `/api/v1/configuration/order_statuses/${statusId}`,
      headers: shop.headers(),
      payload: {
        send_email_on_status_change: true,
        bcc_email_address: 'archive@example.com',
        email: {
          subject: 'Order {{NUMER_ZAMOWIENIA}}',
          content: '<p>Shipped</p>',
          electronic_order_substitution_content: '<p>Download</p>{{LINKI_DO_POBRANIA}}',
          delivery_type_substitutions: [{ delivery_type_id: courier, content: 'never for this order' }],
        },
      },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'reader@example.com', items: [{ product_id: ebookId }] });
    const effects = orderEffectActivities({ orm: stack.orm, platformUrlTemplate: '', publicUrl: 'https://shop.example.com' });
    await effects.createDownloadCodes({ shopId: shop.id, orderId: order.id, source: 'clear' });
    const [code] = await stack.orm.em.fork().getConnection().execute<{ token: string }[]>('select token from shop_download_codes where order_id = ?', [order.id]);

    const input = { shopId: shop.id, orderId: order.id, source: 'status:1' as const, statusId };
    const outcome = await effects.sendStatusMail(input);
    expect(outcome).toEqual({ status: 'done', detail: 'mail to reader@example.com recorded; mail to archive@example.com recorded' });
    const html = `<p>Download</p><ul><li><a href="https://shop.example.com/downloads/${code!.token}">guide.pdf</a></li></ul>`;
    expect(await mailsTo('reader@example.com')).toEqual([expect.objectContaining({ kind: 'status_mail', subject: `Order ${order.ordinal_number}`, html })]);
    expect(await mailsTo('archive@example.com')).toEqual([expect.objectContaining({ html })]);

    // The effect log answers a repeat: nothing is sent twice.
    expect(await effects.sendStatusMail(input)).toEqual(outcome);
    expect(await mailsTo('reader@example.com')).toHaveLength(1);
  });
});
