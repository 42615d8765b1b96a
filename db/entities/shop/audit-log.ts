import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { shopOwned } from './shop-owned.ts';

/** One shop configuration request (club, order statuses, sequences), rejected ones included. A key prefix, never a token or a body. */
export const ShopAuditLogEntry = defineEntity({
  name: 'ShopAuditLogEntry',
  tableName: 'shop_audit_log',
  indexes: [{ properties: ['shop', 'at'] }],
  ...shopOwned({
    at: p.datetime(),
    method: p.string().length(10),
    path: p.text(),
    status: p.smallint(),
    keyPrefix: p.string().length(16).nullable(),
  }),
});
export type IShopAuditLogEntry = InferEntity<typeof ShopAuditLogEntry>;
