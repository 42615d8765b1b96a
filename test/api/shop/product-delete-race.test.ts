import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-product-delete-race');
  shop = await createTestShop(stack.app, 'race');
});
afterAll(() => stack.close());

describe('DELETE /api/v1/products/:id racing order placements', () => {
  it('never removes a product an order line points at: the product is hidden, or the late placements are refused', async () => {
    for (let round = 0; round < 5; round++) {
      const productId = await insertProduct(stack.orm, shop.id, { price: '10.00' });
      const place = () =>
        stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload: { email: 'race@example.com', items: [{ product_id: productId }] } });
      const del = () => stack.app.inject({ method: 'DELETE', url: `/api/v1/products/${productId}`, headers: { 'x-api-key': shop.key } });
      const replies = await Promise.all([place(), place(), del(), place(), place()]);
      const placed = replies.filter((r, i) => i !== 2 && r.statusCode === 201).length;
      const refused = replies.filter((r, i) => i !== 2 && r.statusCode === 422);
      expect(placed + refused.length).toBe(4);
      for (const r of refused) expect(Object.keys(r.json().errors)).toEqual(['items.0.product_id']);
      const deleted = replies[2]!.json().data;
      const connection = stack.orm.em.fork().getConnection();
      const [row] = await connection.execute('select hidden from shop_products where id = ?', [productId]);
      if (placed > 0) {
        expect(deleted).toMatchObject({ deleted: false, hidden: true });
        expect(row).toEqual({ hidden: true });
      } else {
        expect(deleted).toMatchObject({ deleted: true });
        expect(row).toBeUndefined();
      }
    }
  });
});
