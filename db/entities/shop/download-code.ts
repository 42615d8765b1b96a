import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Order, OrderItem } from './order.ts';
import { ElectronicContent } from './product.ts';
import { shopOwned } from './shop-owned.ts';

/**
 * A buyer's download code for one electronic content of one paid order line. `token` is the
 * secret of the link; the code stops after `usagesToExpire` uses, at `expiresAt`, or when its
 * content is deleted (`content` becomes null).
 */
export const DownloadCode = defineEntity({
  name: 'DownloadCode',
  tableName: 'shop_download_codes',
  uniques: [{ properties: ['orderItem', 'content'] }, { properties: ['token'] }],
  indexes: [{ properties: ['order'] }],
  ...shopOwned({
    order: () => p.manyToOne(Order).ref(),
    orderItem: () => p.manyToOne(OrderItem).ref(),
    content: () => p.manyToOne(ElectronicContent).ref().nullable().deleteRule('set null'),
    token: p.string().length(64),
    fileName: p.string(),
    usages: p.integer().default(0),
    usagesToExpire: p.integer(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IDownloadCode = InferEntity<typeof DownloadCode>;
