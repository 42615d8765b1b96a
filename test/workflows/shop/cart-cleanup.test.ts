import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cart } from '../../../db/entities/shop/index.ts';
import { cartCleanupScheduleId, ensureCartCleanupSchedule } from '../../../worker/schedules.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';
import { buyer } from '../../helpers/storefront.ts';

/** The daily schedule that forgets storefront carts unused for 30 days, on the real server with the real activity. */
let stack: TestStack;
let worker: RunningWorker;
let shop: TestShop;
let productId: number;

beforeAll(async () => {
  stack = await startTestApp('cart-cleanup');
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm });
  shop = await createTestShop(stack.app, 'cleanup');
  productId = await insertProduct(stack.orm, shop.id, { name: 'Book' });
});
afterAll(async () => {
  await stack?.temporal.schedule.getHandle(cartCleanupScheduleId(stack.taskQueue)).delete().catch(() => undefined);
  await worker?.stop();
  await stack?.close();
});

const DAY = 24 * 60 * 60 * 1000;

async function cartUnusedFor(days: number): Promise<string> {
  const res = await buyer(stack.app, shop.subdomain).post('/carts', { items: [{ product_id: productId }] });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as string;
  await stack.orm.em.fork().nativeUpdate(Cart, { id }, { updatedAt: new Date(Date.now() - days * DAY) }, { filters: false });
  return id;
}

const exists = async (id: string) => (await stack.orm.em.fork().count(Cart, { id }, { filters: false })) === 1;

describe('shop-cart-cleanup schedule', () => {
  it('is created once (a repeat is a no-op) and, when it fires, deletes carts unused for 30 days and keeps the others', async () => {
    const stale = await cartUnusedFor(31);
    const recent = await cartUnusedFor(29);
    const fresh = await cartUnusedFor(0);
    // A read is a use: the 31-day-old cart read now is kept.
    const readNow = await cartUnusedFor(31);
    expect((await buyer(stack.app, shop.subdomain).get(`/carts/${readNow}`)).statusCode).toBe(200);

    await ensureCartCleanupSchedule(stack.temporal, stack.taskQueue);
    await ensureCartCleanupSchedule(stack.temporal, stack.taskQueue);
    const handle = stack.temporal.schedule.getHandle(cartCleanupScheduleId(stack.taskQueue));
    const described = await handle.describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'cartCleanup', taskQueue: stack.taskQueue });
    expect(described.spec.calendars).toHaveLength(1);

    await handle.trigger();
    await eventually(async () => expect(await exists(stale)).toBe(false), { timeoutMs: 60_000, intervalMs: 250 });
    expect(await exists(recent)).toBe(true);
    expect(await exists(fresh)).toBe(true);
    expect(await exists(readNow)).toBe(true);
  });
});
