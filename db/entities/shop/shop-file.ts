import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { shopFilters } from '../../tenant.ts';
import { Shop } from './shop.ts';

/**
 * Bytes a shop uploaded (a product photo or an e-book), kept in the file storage under
 * `storageKey`; this row holds what was sniffed from the content and the sender's file name.
 */
export const ShopFile = defineEntity({
  name: 'ShopFile',
  tableName: 'shop_files',
  filters: shopFilters,
  indexes: [{ properties: ['shop'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    shop: () => p.manyToOne(Shop).ref(),
    storageKey: p.string(),
    filename: p.string(),
    contentType: p.string().length(64),
    byteSize: p.bigint('number'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IShopFile = InferEntity<typeof ShopFile>;
