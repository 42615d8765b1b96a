import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import { platformDefaultTransport } from '../../adapters/mail/platform-default.ts';
import type { ShopMailKind, ShopMailStatus } from '../../db/entities/shop/index.ts';
import { claimShopMail, recordShopMail } from '../../db/repositories/shop/shop-mails.ts';
import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { mails } from '../shared/metrics.ts';

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
 * How long a `sending` claim keeps other attempts off the key: far longer than any attempt can run
 * (the activity timeouts are at most 5 minutes, the transport's 15 s per SMTP phase), so a claim
 * this old belongs to an attempt that is gone.
 */
export const SHOP_MAIL_CLAIM_MS = 10 * 60_000;

/**
 * Sends one shop mail through the platform's default transport, once per key in the shop's mail
 * log (docs/decisions/ "Shop mails: claim before sending"). The attempt first claims the key (a
 * `sending` row), then sends, then records `sent`/`recorded`, or `failed` with the error and
 * rethrows so the activity is retried. A mail already sent under the key is answered, not sent
 * again; a claim of an attempt still running (one that timed out for Temporal but may yet send)
 * makes this attempt fail retryably, so the retry comes after that attempt has recorded its result.
 */
export async function sendShopMailOnce(em: EntityManager, endpoints: MailEndpoints, sentAt: Date, mail: ShopMailToSend): Promise<{ status: ShopMailStatus; repeated: boolean }> {
  const row = { shopId: mail.shopId, key: mail.key, kind: mail.kind, fromAddress: mail.from.address, fromName: mail.from.name, to: mail.to, subject: mail.subject, html: mail.html, error: null, sentAt };
  const held = await claimShopMail(em, { ...row, status: 'sending' }, new Date(sentAt.getTime() - SHOP_MAIL_CLAIM_MS));
  if (held === 'sending') throw ApplicationFailure.retryable(`mail ${mail.key} is being sent by another attempt`, 'ShopMailInFlight');
  if (held !== null) return { status: held, repeated: true };
  let status: ShopMailStatus;
  try {
    const result = await platformDefaultTransport(endpoints).send({ id: mail.key, messageId: mail.messageId, from: mail.from, replyTo: null, to: mail.to, subject: mail.subject, html: mail.html, text: '' });
    status = result.recordedOnly ? 'recorded' : 'sent';
  } catch (error) {
    await recordShopMail(em, { ...row, status: 'failed', error: error instanceof Error ? error.message : String(error) });
    mails.inc({ sender: 'shop', transport: 'platform', outcome: 'failed' });
    throw error;
  }
  mails.inc({ sender: 'shop', transport: 'platform', outcome: status });
  await recordShopMail(em, { ...row, status });
  return { status, repeated: false };
}
