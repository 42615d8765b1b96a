import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusSource } from '../../../domain/shop/effects.ts';
import { automaticStatusWorkflowId, orderStatusWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';

/**
 * Order status mails configured through /api/v1/configuration/order_statuses, sent by a real
 * worker when an order moves through HTTP, and an automatic status that follows.
 */
let e2e: EndToEnd;
let shop: TestShop;
let productId: number;
let courier: number;
let pickup: number;

beforeAll(async () => {
  e2e = await startEndToEnd('shop-order-status-mails');
  shop = await createTestShop(e2e.stack.app, 'status-mails');
  productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas', price: '50.00' });
  courier = await createDeliveryType(e2e.stack.app, shop.id, { name: 'Courier', default_price: '12.00' });
  pickup = await createDeliveryType(e2e.stack.app, shop.id, { name: 'Pickup', default_price: '0.00' });
});
afterAll(() => e2e.close());

const key = () => ({ 'x-api-key': shop.key });
const configure = async (statusId: number, body: object) => {
  const res = await e2e.http('PATCH', `/api/v1/configuration/order_statuses/${statusId}`, { headers: key(), body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const mailsTo = (to: string) => e2e.http('GET', `/admin/v1/shops/${shop.id}/emails?to=${encodeURIComponent(to)}`, { operator: true }).then((r) => r.body.data as { subject: string; html: string; kind: string }[]);
const place = (email: string, deliveryTypeId: number) => adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, delivery_type_id: deliveryTypeId, items: [{ product_id: productId }] });
const setStatus = (orderId: number, statusId: number) => e2e.http('PATCH', `/api/v1/orders/${orderId}/status`, { headers: key(), body: { order_status_id: statusId } });

describe('a status change with a configured mail', () => {
  it('mails the customer the chosen delivery\'s block with the tracking number; the other delivery\'s tag disappears', async () => {
    const sender = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Atlas Shop', email: 'shop@example.com' });
    const config = await configure(shop.statuses.Sent!, {
      send_email_on_status_change: true,
      sender_id: sender.id,
      email: {
        subject: 'Order {{NUMER_ZAMOWIENIA}} is on its way',
        content: '<p>Hello</p>',
        delivery_type_substitutions: [
          { delivery_type_id: courier, content: '<p>Parcel {{NUMER_PACZKI}}</p>' },
          { delivery_type_id: pickup, content: '<p>Collect it at the shop</p>' },
        ],
      },
    });
    const [courierBlock, pickupBlock] = config.email.delivery_type_substitutions;
    await configure(shop.statuses.Sent!, { email: { content: `<p>Hello</p>${courierBlock.tag}${pickupBlock.tag}` } });

    const order = await place('ann@example.com', courier);
    await e2e.stack.orm.em.fork().getConnection().execute("update shop_orders set tracking_number = 'PL-778' where id = ?", [order.id]);
    expect((await setStatus(order.id, shop.statuses.Sent!)).status).toBe(200);
    const [mail] = await eventually(async () => {
      const mails = await mailsTo('ann@example.com');
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail).toMatchObject({ kind: 'status_mail', subject: `Order ${order.ordinal_number} is on its way`, html: '<p>Hello</p><p>Parcel PL-778</p>' });

    const other = await place('bob@example.com', pickup);
    await setStatus(other.id, shop.statuses.Sent!);
    const [pickupMail] = await eventually(async () => {
      const mails = await mailsTo('bob@example.com');
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(pickupMail!.html).toBe('<p>Hello</p><p>Collect it at the shop</p>');
  });
});

describe('an automatic status', () => {
  it('follows the status it is set after (offset zero), through the normal status change with its mail', async () => {
    const done = (await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Completed' })).id as number;
    const packed = (await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Packed' })).id as number;
    await configure(done, {
      send_email_on_status_change: true,
      email: { subject: 'Order {{NUMER_ZAMOWIENIA}} completed', content: '<p>{{STATUS}}</p>' },
      automatically_set: { automatically_set_after_status_id: packed, automatically_set_offset_days: 0, automatically_set_offset_hours: 0 },
    });
    const order = await place('cid@example.com', courier);
    expect((await setStatus(order.id, packed)).status).toBe(200);
    await eventually(async () => {
      const detail = await e2e.http('GET', `/api/v1/orders/${order.id}`, { headers: key() });
      expect(detail.body.data.order_status_id).toBe(done);
    });
    const [mail] = await eventually(async () => {
      const mails = await mailsTo('cid@example.com');
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail).toMatchObject({ subject: `Order ${order.ordinal_number} completed`, html: '<p>Completed</p>' });
  });

  it('does nothing for an order its conditions exclude (only zero totals)', async () => {
    const target = (await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Free done' })).id as number;
    const before = (await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Free check' })).id as number;
    await configure(target, { automatically_set: { automatically_set_after_status_id: before, automatically_set_if_total_zero: true } });
    const order = await place('dee@example.com', courier);
    await setStatus(order.id, before);
    // The change's run is over, and it planned no automatic status (the order is not zero-total).
    const [change] = await e2e.stack.orm.em.fork().getConnection().execute<{ id: number }[]>('select id from shop_order_status_changes where shop_id = ? and order_id = ?', [shop.id, order.id]);
    const { workflow } = e2e.stack.temporal;
    await workflow.getHandle(orderStatusWorkflowId({ shopId: shop.id, orderId: order.id, changeId: change!.id })).result();
    const planned = workflow.getHandle(automaticStatusWorkflowId({ shopId: shop.id, orderId: order.id, source: statusSource(change!.id), toStatusId: target })).describe();
    await expect(planned).rejects.toThrow(WorkflowNotFoundError);
    const detail = await e2e.http('GET', `/api/v1/orders/${order.id}`, { headers: key() });
    expect(detail.body.data.order_status_id).toBe(before);
  });
});
