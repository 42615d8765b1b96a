import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../../../adapters/secrets/secret-box.ts';
import { createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';

/** The operator's shop webhooks (DESIGN.md section 8): the platform's rules for URLs and secrets. */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-webhooks-api');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'wh-one'), createTestShop(stack.app, 'wh-two')]);
});
afterAll(() => stack.close());

const post = (payload: unknown, shopId = shop.id) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/webhooks`, headers: { ...operator, 'content-type': 'application/json' }, payload: payload as object });
const get = (url: string) => stack.app.inject({ method: 'GET', url, headers: operator });

const valid = { url: 'https://hooks.example.com/shop', events: ['order_cleared', 'order_status_changed'], secret_key: 'shop-secret-0123456789' };

describe('POST /admin/v1/shops/:shop_id/webhooks', () => {
  it('answers 201 {id, url, events}, never the secret, which is stored sealed with SECRETS_KEY', async () => {
    const res = await post(valid);
    expect(res.statusCode).toBe(201);
    const body = res.json().data;
    expect(body).toMatchObject({ id: expect.any(String), url: valid.url, events: valid.events, active: true });
    expect(res.body).not.toContain(valid.secret_key);
    expect(res.body).not.toContain('secret');
    const [row] = await stack.orm.em.fork().getConnection().execute<{ shop_id: string; secret_sealed: string }[]>('select shop_id, secret_sealed from shop_webhooks where id = ?', [body.id]);
    if (!row) throw new Error('the webhook was not stored');
    expect(row.shop_id).toBe(shop.id);
    expect(row.secret_sealed).not.toContain(valid.secret_key);
    expect(openSecret(row.secret_sealed, stack.app.secretsKey)).toBe(valid.secret_key);

    const list = await get(`/admin/v1/shops/${shop.id}/webhooks`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((w: { id: string }) => w.id)).toContain(body.id);
    expect(list.body).not.toContain(valid.secret_key);
  });

  it('drops repeated events', async () => {
    const res = await post({ ...valid, events: ['order_cleared', 'order_cleared'] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.events).toEqual(['order_cleared']);
  });

  it.each([
    ['an unknown event', { events: ['order_cleared', 'access_granted'] }, 'events.1'],
    ['no event', { events: [] }, 'events'],
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['a URL that is not http(s)', { url: 'ftp://hooks.example.com/x' }, 'url'],
    ['a URL with user:password', { url: 'https://user:pass@hooks.example.com/x' }, 'url'],
    ['an empty secret', { secret_key: '  ' }, 'secret_key'],
    ['no secret', { secret_key: undefined }, 'secret_key'],
  ])('answers 422 naming the field for %s, and stores nothing', async (_label, change, field) => {
    const count = async () => (await stack.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from shop_webhooks where shop_id = ?', [shop.id]))[0]!.n;
    const before = await count();
    const res = await post({ ...valid, ...change });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
    expect(await count()).toBe(before);
  });

  it('accepts a private address as the platform does: its deliveries are refused, not the webhook', async () => {
    const res = await post({ ...valid, url: 'http://10.0.0.5/hook' });
    expect(res.statusCode).toBe(201);
  });

  it('answers 404 for an unknown shop', async () => {
    expect((await post(valid, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('GET /admin/v1/shops/:shop_id/webhooks/:id/deliveries and DELETE', () => {
  it('answers an empty history for a new webhook, 404 through another shop, and a deleted webhook is gone', async () => {
    const id = (await post(valid)).json().data.id as string;
    const history = await get(`/admin/v1/shops/${shop.id}/webhooks/${id}/deliveries`);
    expect(history.statusCode).toBe(200);
    expect(history.json()).toEqual({ data: [], meta: { page: 1, per_page: 25, total: 0, total_pages: 0 } });
    expect((await get(`/admin/v1/shops/${other.id}/webhooks/${id}/deliveries`)).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${other.id}/webhooks/${id}`, headers: operator })).statusCode).toBe(404);

    const deleted = await stack.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/webhooks/${id}`, headers: operator });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toEqual({ id, deleted: true });
    expect((await get(`/admin/v1/shops/${shop.id}/webhooks/${id}/deliveries`)).statusCode).toBe(404);
    expect((await get(`/admin/v1/shops/${shop.id}/webhooks`)).json().data.map((w: { id: string }) => w.id)).not.toContain(id);
  });

  it('answers 404 for an id that is not a uuid', async () => {
    const res = await get(`/admin/v1/shops/${shop.id}/webhooks/12/deliveries`);
    expect([404, 422]).toContain(res.statusCode);
  });
});
