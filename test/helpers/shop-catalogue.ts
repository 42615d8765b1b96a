/** Catalogue rows for order tests, written through the ORM (independent of the products API). */
import type { App } from '../../api/app.ts';
import { Product, type IProduct } from '../../db/entities/shop/index.ts';
import type { Orm } from '../../db/orm.ts';
import { SHOP_FILTER } from '../../db/tenant.ts';
import { adminPost } from './shop.ts';

export type ProductFields = Partial<Pick<IProduct,
  'name' | 'sku' | 'price' | 'vatRate' | 'active' | 'electronic' | 'allowPriceChange' | 'minimalPrice' | 'allowZeroMinimalPrice' | 'deliveryTypeIds' | 'paymentTypeIds' | 'cartQuantityLimit' | 'hidden' | 'productCategoryIds'>>;

let counter = 0;

/** A product of `shopId` (active, 23 % VAT, price 10.00 unless given); returns its id. */
export async function insertProduct(orm: Orm, shopId: string, fields: ProductFields = {}): Promise<number> {
  const em = orm.em.fork();
  em.setFilterParams(SHOP_FILTER, { shopId });
  counter += 1;
  const product = em.create(Product, { shop: shopId, name: `Product ${counter}`, sku: `SKU-${counter}`, price: '10.00', ...fields });
  await em.flush();
  return product.id;
}

/** A delivery type through the operator API; returns its id. */
export async function createDeliveryType(app: App, shopId: string, fields: Record<string, unknown> = {}): Promise<number> {
  return (await adminPost(app, `/admin/v1/shops/${shopId}/delivery_types`, { name: 'Courier', default_price: '12.00', ...fields })).id as number;
}

/** A payment type through the operator API; returns its id. */
export async function createPaymentType(app: App, shopId: string, fields: Record<string, unknown> = {}): Promise<number> {
  return (await adminPost(app, `/admin/v1/shops/${shopId}/payment_types`, { name: 'Transfer', ...fields })).id as number;
}
