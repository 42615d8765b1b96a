/**
 * Products of one shop (the request's entity manager is scoped to it by the shop filter). Hidden
 * products (deleted while orders point at them) are outside every read here.
 */
import { LockMode, type EntityData, type RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeliveryType, ElectronicContent, PaymentType, Product, ProductCategory, ShopFile, type IProduct, type IShopFile } from '../../entities/shop/index.ts';
import { likeContains } from '../../../domain/shop/product-rules.ts';
import type { ListWindow } from './reference.ts';

export interface ProductFilter {
  active?: boolean;
  categoryId?: number;
  search?: string;
}

export function listProducts(em: EntityManager, filter: ProductFilter, window: ListWindow) {
  const pattern = filter.search ? likeContains(filter.search) : undefined;
  return em.findAndCount(
    Product,
    {
      hidden: false,
      ...(filter.active === undefined ? {} : { active: filter.active }),
      ...(filter.categoryId === undefined ? {} : { productCategoryIds: { $contains: [filter.categoryId] } }),
      ...(pattern ? { $or: [{ name: { $ilike: pattern } }, { sku: { $ilike: pattern } }] } : {}),
    },
    { orderBy: { id: 'asc' }, populate: ['photo'], ...window },
  );
}

/** A visible product of the shop, with its photo; null for an unknown, foreign or hidden id. */
export function findProduct(em: EntityManager, id: number) {
  return em.findOne(Product, { id, hidden: false }, { populate: ['photo'] });
}

/** Names of the given categories of the shop, by id. */
export async function categoryNames(em: EntityManager, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await em.find(ProductCategory, { id: { $in: [...new Set(ids)] } });
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The shop's lists a product points into by id. */
export type ShopList = 'delivery_types' | 'payment_types' | 'product_categories';

/** Which of `ids` exist in the shop's list (another shop's ids are not found through the filter). */
export async function existingIds(em: EntityManager, list: ShopList, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const where = { id: { $in: [...ids] } };
  const rows =
    list === 'delivery_types'
      ? await em.find(DeliveryType, where, { fields: ['id'] })
      : list === 'payment_types'
        ? await em.find(PaymentType, where, { fields: ['id'] })
        : await em.find(ProductCategory, where, { fields: ['id'] });
  return new Set(rows.map((row) => row.id));
}

/** A file row for bytes already put in the storage. */
export function addShopFile(em: EntityManager, shopId: string, file: { storageKey: string; filename: string; contentType: string; byteSize: number }): IShopFile {
  return em.create(ShopFile, { shop: shopId, ...file });
}

/** A new product, with its photo's file row when it has one (flushed together). */
export async function createProduct(em: EntityManager, values: RequiredEntityData<IProduct>, photo: IShopFile | undefined): Promise<IProduct> {
  const product = em.create(Product, values);
  if (photo) product.photo = photo as never;
  await em.flush();
  return product;
}

/** Writes the fields given, and the photo when given (null removes it). */
export async function updateProduct(em: EntityManager, product: IProduct, values: EntityData<IProduct>, photo: IShopFile | null | undefined): Promise<void> {
  em.assign(product, values);
  if (photo !== undefined) product.photo = photo as never;
  await em.flush();
}

/**
 * Removes the rows of the files among `candidates` nothing uses any more, under the files' row
 * locks (a clone pointing at one of them commits first or sees it gone); answers them, so the
 * caller deletes their bytes after the commit.
 */
export function deleteUnusedFiles(em: EntityManager, candidates: readonly IShopFile[]): Promise<IShopFile[]> {
  return em.transactional(async (tx) => {
    const found = await unusedFiles(tx, await lockFiles(tx, candidates.map((file) => file.id), 'update'));
    tx.remove(found);
    return found;
  });
}

/**
 * A copy of a product with `values` over its own (`settings`: what the caller copies), its photo
 * and electronic contents sharing the stored files. The shared files are locked FOR SHARE, so a
 * concurrent release cannot remove one under the copy; a file released before the lock is left out.
 */
export function copyProduct(em: EntityManager, source: IProduct, values: EntityData<IProduct>): Promise<IProduct> {
  return em.transactional(async (tx) => {
    const contents = await contentsOf(tx, source.id);
    const files = new Set(
      (await lockFiles(tx, [...(source.photo ? [source.photo.id] : []), ...contents.map((content) => content.file.id)], 'share')).map((file) => file.id),
    );
    const copy = tx.create(Product, {
      ...values,
      shop: source.shop,
      photo: source.photo && files.has(source.photo.id) ? source.photo : null,
      deliveryTypeIds: [...source.deliveryTypeIds],
      paymentTypeIds: [...source.paymentTypeIds],
      productCategoryIds: [...source.productCategoryIds],
    } as RequiredEntityData<IProduct>);
    for (const content of contents.filter((c) => files.has(c.file.id))) {
      const { shop, file, kind, contentTitle, daysToExpire, usagesToExpire, watermark, watermarkInterval, description, distributeViaShopCas } = content;
      tx.create(ElectronicContent, { shop, product: copy, file, kind, contentTitle, daysToExpire, usagesToExpire, watermark, watermarkInterval, description, distributeViaShopCas });
    }
    await tx.flush();
    return copy;
  });
}

/**
 * Locks file rows until the transaction ends (`share`: a clone about to point at them; `update`:
 * about to remove them when unused), so a clone and a release never cross. Rows already gone are
 * left out of the answer.
 */
export function lockFiles(em: EntityManager, ids: readonly string[], mode: 'share' | 'update'): Promise<IShopFile[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const lockMode = mode === 'update' ? LockMode.PESSIMISTIC_WRITE : LockMode.PESSIMISTIC_READ;
  return em.find(ShopFile, { id: { $in: [...ids] } }, { lockMode, refresh: true });
}

/** Files no product photo and no electronic content uses any more, among `candidates`. */
export async function unusedFiles(em: EntityManager, candidates: readonly IShopFile[]): Promise<IShopFile[]> {
  if (candidates.length === 0) return [];
  const ids = candidates.map((file) => file.id);
  const [photos, contents] = await Promise.all([
    em.find(Product, { photo: { $in: ids } }, { fields: ['photo'] }),
    em.find(ElectronicContent, { file: { $in: ids } }, { fields: ['file'] }),
  ]);
  const used = new Set([...photos.map((p) => p.photo?.id), ...contents.map((c) => c.file.id)]);
  return candidates.filter((file) => !used.has(file.id));
}

/**
 * DELETE of a product, in one transaction with the product row locked (FOR UPDATE): a placement
 * holding it (FOR SHARE, db/repositories/shop/orders.ts) commits first, so the check for order
 * lines sees every order and a product with orders is hidden, never removed under an order.
 */
export async function deleteOrHideProduct(em: EntityManager, shopId: string, product: IProduct): Promise<{ hidden: true } | { hidden: false; removedFiles: IShopFile[] }> {
  return em.transactional(async (tx) => {
    await tx.execute('select id from shop_products where shop_id = ? and id = ? for update', [shopId, product.id]);
    const [lines] = await tx.execute<{ n: number }[]>('select count(*)::int as n from shop_order_items where shop_id = ? and product_id = ?', [shopId, product.id]);
    if (lines!.n > 0) {
      await tx.execute('update shop_products set hidden = true, updated_at = now() where shop_id = ? and id = ?', [shopId, product.id]);
      return { hidden: true as const };
    }
    return { hidden: false as const, removedFiles: await removeProduct(tx, product) };
  });
}

/**
 * Removes a product without orders: its electronic contents, then the product. Returns the files
 * that were the product's and that nothing else uses now (their rows are removed here, their bytes
 * by the caller once this has committed).
 */
export async function removeProduct(em: EntityManager, product: IProduct): Promise<IShopFile[]> {
  const contents = await em.find(ElectronicContent, { product: product.id }, { populate: ['file'] });
  const files = [...contents.map((c) => c.file.getEntity()), ...(product.photo ? [product.photo.getEntity()] : [])];
  em.remove(contents);
  em.remove(product);
  await em.flush();
  const unused = await unusedFiles(em, [...new Map(files.map((f) => [f.id, f])).values()]);
  em.remove(unused);
  await em.flush();
  return unused;
}

/** The electronic contents of a product, for a clone. */
export function contentsOf(em: EntityManager, productId: number) {
  return em.find(ElectronicContent, { product: productId }, { orderBy: { id: 'asc' } });
}

/** Whether a visible product with this id exists in the shop, for the public photo route. */
export function photoFile(em: EntityManager, fileId: string) {
  return em.findOne(Product, { photo: fileId, hidden: false }, { filters: false, populate: ['photo'] });
}
