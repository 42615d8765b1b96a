/** `npm run admin` for the panel's edits of a shop's reference lists and its mail sequences (issue 40 items 1 and 2). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryType, createPaymentType } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { ADMIN_TOKEN, startTestApp, type TestStack } from '../../helpers/stack.ts';

const run = promisify(execFile);
let stack: TestStack;
let url: string;
let shop: TestShop;

beforeAll(async () => {
  stack = await startTestApp('admin-cli-reference');
  url = await stack.app.listen({ port: 0, host: '127.0.0.1' });
  shop = await createTestShop(stack.app, 'cli-reference');
});
afterAll(() => stack?.close());

async function admin(...args: string[]): Promise<{ code: number; data: any; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args, '--url', url], { env: { ...process.env, ADMIN_TOKEN } }).then(
    ({ stdout, stderr }) => ({ code: 0, data: JSON.parse(stdout).data, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, data: error.stdout ? JSON.parse(error.stdout) : null, stderr: error.stderr }),
  );
}

describe('operator CLI: the panel\'s edits', () => {
  it('changes types, categories, senders and statuses, and deletes what is unused', async () => {
    const delivery = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '12.30' });
    const payment = await createPaymentType(stack.app, shop.id, { name: 'Transfer' });
    const category = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Books' });
    const sender = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Shop', email: 'shop@example.com' });
    const status = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Packing' });
    const sequence = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/email_sequences`, { name: 'S', items: [{ email: { subject: 'Hi', content: '<p>Hi</p>' }, offset_amount: 0, offset_unit: 'minutes' }] });

    const edited = await Promise.all([
      admin('edit-delivery-type', shop.id, String(delivery), '--price', '15.00', '--active', 'false'),
      admin('edit-payment-type', shop.id, String(payment), '--cash-on-delivery', 'true'),
      admin('edit-category', shop.id, String(category.id), '--name', 'Novels'),
      admin('edit-sender', shop.id, String(sender.id), '--email', 'orders@example.com'),
      admin('edit-order-status', shop.id, String(status.id), '--visible', 'false'),
    ]);
    for (const result of edited) expect(result.code, result.stderr).toBe(0);
    expect(edited.map((r) => r.data)).toMatchObject([
      { id: delivery, default_price: '15.00', active: false, name: 'Courier' },
      { id: payment, cash_on_delivery: true, name: 'Transfer' },
      { id: category.id, name: 'Novels', parent_id: null },
      { id: sender.id, name: 'Shop', email: 'orders@example.com' },
      { id: status.id, name: 'Packing', visible: false },
    ]);
    for (const [command, id] of [['delete-category', category.id], ['delete-sender', sender.id], ['delete-order-status', status.id], ['delete-email-sequence', sequence.id]] as const) {
      const deleted = await admin(command, shop.id, String(id));
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.data).toEqual({ id, deleted: true });
    }
  });

  it('reports the API\'s 409 for a built-in status, and refuses a flag that is not true or false before sending', async () => {
    const builtIn = await admin('delete-order-status', shop.id, String(shop.statuses.New));
    expect(builtIn.code).toBe(1);
    expect(builtIn.data.error).toMatch(/built in/);
    const bad = await admin('edit-order-status', shop.id, String(shop.statuses.New), '--visible', 'maybe');
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--visible takes true or false') });
  });
});
