import type { EntityManager } from '@mikro-orm/postgresql';
import type { IProduct } from '../../../db/entities/shop/index.ts';
import { copyProduct } from '../../../db/repositories/shop/products.ts';
import { cloneName } from '../../../domain/shop/product-rules.ts';
import { PRODUCT_FIELD_PROPERTIES } from './serialize.ts';

export interface CloneRequest {
  /** Defaults to `Kopia: <name>`. */
  name?: string;
  /** The clone is inactive unless asked. */
  active?: boolean;
}

/**
 * Copies a product (`POST /products/:id/clone`): its settings (every field the API writes),
 * references, photo and electronic contents, sharing the stored files (db/repositories/shop/products.ts).
 */
export function cloneProduct(em: EntityManager, source: IProduct, request: CloneRequest | undefined): Promise<IProduct> {
  const settings = Object.fromEntries(Object.values(PRODUCT_FIELD_PROPERTIES).map((property) => [property, source[property]]));
  return copyProduct(em, source, { ...settings, name: cloneName(source.name, request?.name), active: request?.active ?? false });
}
