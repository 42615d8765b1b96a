import type { EntityManager } from '@mikro-orm/postgresql';
import { platformDefaultTransport } from '../../api/shared/mail-transports/platform-default.ts';
import { ShopMail, type ShopMailKind, type ShopMailStatus } from '../../db/entities/shop/index.ts';
import { recordShopMail } from '../../db/repositories/shop/shop-mails.ts';
import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';

export interface ShopMailToSend {
  shopId: string;
  /** The idempotency key in `shop_mails`: a mail already sent under it is not sent again. */
  key: string;
  kind: ShopMailKind;
  messageId: string;
  from: { address: string; name: string };
  to: string;
  subject: string;
  html: string;
}

/**
 * Sends one shop mail through the platform's default transport and records it in the shop's mail
 * log under its key; answers the status of a mail already sent under that key instead of sending
 * it twice.
 */
export async function sendShopMailOnce(em: EntityManager, endpoints: MailEndpoints, sentAt: Date, mail: ShopMailToSend): Promise<{ status: ShopMailStatus; repeated: boolean }> {
  const existing = await em.findOne(ShopMail, { key: mail.key });
  if (existing && existing.status !== 'failed') return { status: existing.status, repeated: true };
  const result = await platformDefaultTransport(endpoints).send({ id: mail.key, messageId: mail.messageId, from: mail.from, replyTo: null, to: mail.to, subject: mail.subject, html: mail.html, text: '' });
  const status = result.recordedOnly ? 'recorded' : 'sent';
  await recordShopMail(em, {
    shopId: mail.shopId,
    key: mail.key,
    kind: mail.kind,
    fromAddress: mail.from.address,
    fromName: mail.from.name,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    status,
    error: null,
    sentAt,
  });
  return { status, repeated: false };
}
