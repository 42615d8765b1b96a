import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProduct } from '../../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';
import { expectNoAddressIn, mailSequenceRunId } from '../../../helpers/workflow-start-input.ts';

/** Newsletter consent through the operator API (DESIGN.md section 8). */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-newsletter');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'nl-one'), createTestShop(stack.app, 'nl-two')]);
});
afterAll(() => stack.close());

const signUp = (payload: unknown, shopId = shop.id) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/newsletter_subscribers`, headers: { ...operator, 'content-type': 'application/json' }, payload: payload as object });
const rows = async (shopId: string, email: string) =>
  (await stack.orm.em.fork().getConnection().execute<{ id: number }[]>('select id from shop_newsletter_subscribers where shop_id = ? and email = ?', [shopId, email])).length;

describe('POST /admin/v1/shops/:shop_id/newsletter_subscribers', () => {
  it('answers 201 with the address in lower case, then 200 with the same row for a repeated sign-up', async () => {
    const first = await signUp({ email: '  Reader@Example.COM ' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ id: expect.any(Number), email: 'reader@example.com' });
    const again = await signUp({ email: 'reader@example.com' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await rows(shop.id, 'reader@example.com')).toBe(1);
  });

  it('stores one row for sign-ups sent at the same time', async () => {
    const replies = await Promise.all(Array.from({ length: 5 }, () => signUp({ email: 'race@example.com' })));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(await rows(shop.id, 'race@example.com')).toBe(1);
  });

  it('keeps shops apart: the same address signs up in each shop', async () => {
    expect((await signUp({ email: 'both@example.com' })).statusCode).toBe(201);
    expect((await signUp({ email: 'both@example.com' }, other.id)).statusCode).toBe(201);
  });

  it('answers 422 naming the field for a missing or invalid address, and 404 for an unknown shop', async () => {
    const missing = await signUp({});
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).join()).toContain('email');
    expect((await signUp({ email: 'not-an-address' })).statusCode).toBe(422);
    expect((await signUp({ email: 'x@example.com' }, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('needs the operator token', async () => {
    const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/newsletter_subscribers`, payload: { email: 'a@example.com' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('newsletter sequences', () => {
  let sequenceId: number;
  beforeAll(async () => {
    sequenceId = (
      await adminPost(stack.app, `/admin/v1/shops/${other.id}/email_sequences`, {
        name: 'Welcome',
        items: [{ email: { subject: 'Hi', content: '<p>hi</p>' }, offset_amount: 1, offset_unit: 'days' }],
      })
    ).id as number;
    const res = await stack.app.inject({ method: 'PATCH', url: `/api/v1/configuration/email_sequences/${sequenceId}`, headers: other.headers(), payload: { triggers: { newsletter_subscription: true } } });
    expect(res.statusCode, res.body).toBe(200);
  });
  const runStarted = async (email: string) => {
    try {
      await stack.temporal.workflow.getHandle(await mailSequenceRunId(stack.orm, { shopId: other.id, sequenceId, email })).describe();
      return true;
    } catch {
      return false;
    }
  };

  it('an order placed with newsletter: true signs the buyer up and starts the newsletter sequences; without it, nothing', async () => {
    const product = await insertProduct(stack.orm, other.id);
    const place = (email: string, newsletter: boolean) =>
      stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${other.id}/orders`, headers: operator, payload: { email, newsletter, items: [{ product_id: product }] } });
    expect((await place('Buyer@Example.com', true)).statusCode).toBe(201);
    expect(await rows(other.id, 'buyer@example.com')).toBe(1);
    expect(await runStarted('buyer@example.com')).toBe(true);
    // The run names the buyer by the address's keyed hash and the sign-up row, never by address (issue 41 item 3).
    const runId = await mailSequenceRunId(stack.orm, { shopId: other.id, sequenceId, email: 'buyer@example.com' });
    await expectNoAddressIn(stack.temporal, runId, 'buyer@example.com');
    expect((await place('quiet@example.com', false)).statusCode).toBe(201);
    expect(await rows(other.id, 'quiet@example.com')).toBe(0);
    expect(await runStarted('quiet@example.com')).toBe(false);
  });
});

