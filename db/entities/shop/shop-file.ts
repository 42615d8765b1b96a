import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { shopOwnedByUuid } from './shop-owned.ts';

/**
 * Bytes a shop uploaded (a product photo or an e-book), kept in the file storage under
 * `storageKey`; this row holds what was sniffed from the content and the sender's file name.
 */
export const ShopFile = defineEntity({
  name: 'ShopFile',
  tableName: 'shop_files',
  indexes: [{ properties: ['shop'] }],
  ...shopOwnedByUuid({
    storageKey: p.string(),
    filename: p.string(),
    contentType: p.string().length(64),
    byteSize: p.bigint('number'),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IShopFile = InferEntity<typeof ShopFile>;
