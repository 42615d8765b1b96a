import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequiredEntityData } from '@mikro-orm/core';
import { ElectronicContent, Product, type IProduct } from '../../../db/entities/shop/index.ts';
import { contentsOf, lockFiles } from '../../../db/repositories/shop/products.ts';
import { cloneName } from '../../../domain/shop/product-rules.ts';
import { PRODUCT_FIELD_PROPERTIES } from './serialize.ts';

export interface CloneRequest {
  /** Defaults to `Kopia: <name>`. */
  name?: string;
  /** The clone is inactive unless asked. */
  active?: boolean;
}

/**
 * Copies a product (`POST /products/:id/clone`): its settings, references, photo and electronic
 * contents, sharing the stored files. The shared files are locked FOR SHARE, so a concurrent
 * release cannot remove one under the copy; a file released before the lock is left out.
 */
export async function cloneProduct(em: EntityManager, source: IProduct, request: CloneRequest | undefined): Promise<IProduct> {
  return em.transactional(async (tx) => {
    const settings = Object.fromEntries(Object.values(PRODUCT_FIELD_PROPERTIES).map((property) => [property, source[property]]));
    const contents = await contentsOf(tx, source.id);
    const files = new Set(
      (await lockFiles(tx, [...(source.photo ? [source.photo.id] : []), ...contents.map((content) => content.file.id)], 'share')).map((file) => file.id),
    );
    const copy = tx.create(Product, {
      ...settings,
      shop: source.shop,
      photo: source.photo && files.has(source.photo.id) ? source.photo : null,
      deliveryTypeIds: [...source.deliveryTypeIds],
      paymentTypeIds: [...source.paymentTypeIds],
      productCategoryIds: [...source.productCategoryIds],
      name: cloneName(source.name, request?.name),
      active: request?.active ?? false,
    } as RequiredEntityData<IProduct>);
    for (const content of contents.filter((c) => files.has(c.file.id))) {
      const { shop, file, kind, contentTitle, daysToExpire, usagesToExpire, watermark, watermarkInterval, description, distributeViaShopCas } = content;
      tx.create(ElectronicContent, { shop, product: copy, file, kind, contentTitle, daysToExpire, usagesToExpire, watermark, watermarkInterval, description, distributeViaShopCas });
    }
    await tx.flush();
    return copy;
  });
}
