import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ShopMailKind, ShopMailStatus } from '../../entities/shop/index.ts';

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
