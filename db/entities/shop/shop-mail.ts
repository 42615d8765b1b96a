import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { shopOwnedByUuid } from './shop-owned.ts';

export type ShopMailKind = 'status_mail' | 'test_mail' | 'sequence' | 'subscription';
/** `sending`: an attempt has claimed the key and is talking to the transport (activities/shop/shop-mail-send.ts). */
export type ShopMailStatus = 'sending' | 'sent' | 'recorded' | 'failed';

/**
 * The shop's mail log (operator `GET /admin/v1/shops/:id/emails`). `key` makes a send idempotent:
 * one row per mail the shop means to send once (order, transition and kind), so a retried
 * activity finds it instead of sending again.
 */
export const ShopMail = defineEntity({
  name: 'ShopMail',
  tableName: 'shop_mails',
  uniques: [{ properties: ['shop', 'key'] }],
  indexes: [{ properties: ['shop', 'to'] }],
  ...shopOwnedByUuid({
    key: p.string(),
    kind: p.string().length(16).$type<ShopMailKind>(),
    fromAddress: p.string(),
    fromName: p.string(),
    to: p.string(),
    subject: p.text(),
    html: p.text(),
    status: p.string().length(16).$type<ShopMailStatus>(),
    error: p.text().nullable(),
    sentAt: p.datetime(),
  }),
});
export type IShopMail = InferEntity<typeof ShopMail>;
