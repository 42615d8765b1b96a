/** Rows checkout reads, for placement tests, written through the ORM (independent of their APIs). */
import { AutomaticDiscount, NewsletterSubscriber, ProductSet, ProductSetItem, type IAutomaticDiscount, type IProductSet } from '../../db/entities/shop/index.ts';
import type { Orm } from '../../db/orm.ts';
import { SHOP_FILTER } from '../../db/tenant.ts';

function shopEm(orm: Orm, shopId: string) {
  const em = orm.em.fork();
  em.setFilterParams(SHOP_FILTER, { shopId });
  return em;
}

export type AutomaticDiscountFields = Partial<Omit<IAutomaticDiscount, 'id' | 'shop' | 'kind' | 'discountType' | 'value'>>;

/** An active automatic discount of `kind` for all products; returns its id. */
export async function insertAutomaticDiscount(
  orm: Orm,
  shopId: string,
  kind: IAutomaticDiscount['kind'],
  discountType: IAutomaticDiscount['discountType'],
  value: string,
  fields: AutomaticDiscountFields = {},
): Promise<number> {
  const em = shopEm(orm, shopId);
  const row = em.create(AutomaticDiscount, { shop: shopId, kind, discountType, value, ...fields });
  await em.flush();
  return row.id;
}

export type ProductSetFields = Partial<Pick<IProductSet, 'active' | 'autoCalculatePrices' | 'linkOnlyDiscount' | 'poolMode' | 'poolPickCount' | 'customPaymentTypes' | 'paymentTypeIds'>>;

let sets = 0;

/** A product set of `shopId` at `price` with its items; returns its id. */
export async function insertProductSet(
  orm: Orm,
  shopId: string,
  price: string,
  items: { productId: number; quantity?: number; customPrice?: string }[],
  fields: ProductSetFields = {},
): Promise<number> {
  const em = shopEm(orm, shopId);
  sets += 1;
  const set = em.create(ProductSet, { shop: shopId, name: `Set ${sets}`, slug: `set-${sets}-${Date.now()}`, price, ...fields });
  for (const item of items) {
    em.create(ProductSetItem, { shop: shopId, productSet: set, product: item.productId, quantity: item.quantity ?? 1, customPrice: item.customPrice ?? null });
  }
  await em.flush();
  return set.id;
}

export async function insertNewsletterSubscriber(orm: Orm, shopId: string, email: string): Promise<void> {
  const em = shopEm(orm, shopId);
  em.create(NewsletterSubscriber, { shop: shopId, email: email.toLowerCase() });
  await em.flush();
}
