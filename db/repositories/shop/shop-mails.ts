import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ShopMail, type IShopMail, type ShopMailKind, type ShopMailStatus } from '../../entities/shop/index.ts';

export interface ShopMailRow {
  shopId: string;
  key: string;
  kind: ShopMailKind;
  fromAddress: string;
  fromName: string;
  to: string;
  subject: string;
  html: string;
  status: ShopMailStatus;
  error: string | null;
  sentAt: Date;
}

/** Records a mail of the shop under its idempotency key (a retried send updates its own row). */
export async function recordShopMail(em: EntityManager, mail: ShopMailRow): Promise<void> {
  await em.execute(
    `insert into shop_mails (id, shop_id, key, kind, from_address, from_name, "to", subject, html, status, error, sent_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (shop_id, key) do update set status = excluded.status, error = excluded.error, sent_at = excluded.sent_at`,
    [randomUUID(), mail.shopId, mail.key, mail.kind, mail.fromAddress, mail.fromName, mail.to, mail.subject, mail.html, mail.status, mail.error, mail.sentAt],
  );
}

/**
 * Claims the key for one send attempt: a `sending` row, taken only when the key is new, its last
 * attempt `failed`, or a `sending` claim is older than `staleBefore` (that attempt is gone). Null
 * when claimed; otherwise the status of the row that holds the key (`sent`, `recorded`, or a
 * `sending` claim of an attempt still running).
 */
export async function claimShopMail(em: EntityManager, mail: ShopMailRow, staleBefore: Date): Promise<ShopMailStatus | null> {
  const claimed = await em.execute(
    `insert into shop_mails (id, shop_id, key, kind, from_address, from_name, "to", subject, html, status, error, sent_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending', null, ?)
     on conflict (shop_id, key) do update set status = 'sending', error = null, sent_at = excluded.sent_at
       where shop_mails.status = 'failed' or (shop_mails.status = 'sending' and shop_mails.sent_at < ?)
     returning id`,
    [randomUUID(), mail.shopId, mail.key, mail.kind, mail.fromAddress, mail.fromName, mail.to, mail.subject, mail.html, mail.sentAt, staleBefore],
  );
  if (claimed.length > 0) return null;
  const [row] = await em.execute<{ status: ShopMailStatus }[]>('select status from shop_mails where shop_id = ? and key = ?', [mail.shopId, mail.key]);
  return row!.status;
}

/** The shop's mail log, newest first (at most 200), to one address when `to` is given. */
export function latestShopMails(em: EntityManager, to: string | undefined): Promise<IShopMail[]> {
  return em.find(ShopMail, to ? { to } : {}, { orderBy: { sentAt: 'desc' }, limit: 200 });
}
