import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { Platform, PlatformAppearance } from '../db/entities/index.ts';
import { activeProvider, chooseSender, htmlToText, messageIdFor, type MailSender, type MailStatus } from '../domain/mail-delivery.ts';
import { secretsKeyFrom } from './crypto/secret-box.ts';
import type { ActivityDeps } from './deps.ts';
import { chooseTransport, DEFAULT_MAIL_ENDPOINTS, MailTransportError, type MailEndpoints, type OutboundMessage } from './mail-transports/index.ts';
import { openProvider, providerRows } from './mail-transports/provider-settings.ts';
import { tenantEm } from './tenant-em.ts';

export interface DeliverMailInput {
  platformId: string;
  mailId: string;
}

export interface DeliveryOutcome {
  status: MailStatus;
  provider: MailSender | null;
}

interface MailRow {
  id: string;
  to: string;
  subject: string;
  html: string;
  sender_name: string | null;
  sender_email: string | null;
  status: MailStatus;
  provider: MailSender | null;
}

type Attempt = { outcome: DeliveryOutcome } | { failure: MailTransportError | Error; provider: MailSender };

/** The platform's `default_email_sender` (configuration interface, platform settings). */
async function platformSender(em: EntityManager): Promise<{ name: string | null; email: string | null }> {
  const appearance = await em.findOne(PlatformAppearance, {});
  const sender = appearance?.settings.default_email_sender as { name?: string | null; email?: string | null } | undefined;
  return { name: sender?.name ?? null, email: sender?.email ?? null };
}

async function outboundMessage(em: EntityManager, mail: MailRow, platformId: string, provider: { email?: string | null; name?: string | null } | null, endpoints: MailEndpoints): Promise<OutboundMessage> {
  const platform = await em.findOneOrFail(Platform, platformId);
  const sender = chooseSender({
    provider,
    template: { email: mail.sender_email, name: mail.sender_name },
    platform: await platformSender(em),
    platformTitle: platform.title,
    fallbackAddress: endpoints.defaultFrom,
  });
  return {
    id: mail.id,
    messageId: messageIdFor(mail.id, sender.from.address),
    from: sender.from,
    replyTo: sender.replyTo,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: htmlToText(mail.html),
  };
}

/**
 * Delivery of recorded mail: the network step after `sendMail` recorded a mail as pending. Runs as
 * its own activity, retried by the delivery workflow (workflows/mail-delivery.ts).
 */
export function mailDeliveryActivities({ orm, secretsKey, mailEndpoints = DEFAULT_MAIL_ENDPOINTS, now = () => new Date() }: ActivityDeps) {
  let key = secretsKey;
  const secrets = () => (key ??= secretsKeyFrom(undefined, (m) => console.warn(m)));

  return {
    /**
     * Sends one recorded mail through the platform's transport (the first active provider in the
     * order a, b, c, else the default) and records the provider and the outcome. Idempotent by
     * mail id: the mail row is locked for the attempt, so two deliveries of one mail serialise and
     * the second finds it sent. Every attempt carries the same `Message-ID` and idempotency key
     * (the mail id). A failed attempt is recorded (`failed`, attempts, last error) and rethrown
     * for the retry; a refusal that no retry can fix is not retried.
     */
    async deliverMail({ platformId, mailId }: DeliverMailInput): Promise<DeliveryOutcome> {
      const attempt = await tenantEm(orm, platformId).transactional(async (em): Promise<Attempt> => {
        const rows: MailRow[] = await em.execute(
          `select id, "to", subject, html, sender_name, sender_email, status, provider
           from mail_log where id = ? and platform_id = ? for update`,
          [mailId, platformId],
        );
        const mail = rows[0];
        if (!mail) throw ApplicationFailure.nonRetryable(`mail ${mailId} is not in the mail log of platform ${platformId}`, 'MailNotFound');
        if (mail.status === 'sent' || mail.status === 'recorded') return { outcome: { status: mail.status, provider: mail.provider } };

        // Only the provider that sends is opened: a stale secret of an inactive one never blocks mail.
        const sending = activeProvider(await providerRows(em));
        const { transport, settings } = chooseTransport(sending ? [openProvider(sending, secrets())] : [], mailEndpoints);
        const providerSender = settings ? { email: settings.fields.email, name: settings.fields.display_name } : null;
        const message = await outboundMessage(em, mail, platformId, providerSender, mailEndpoints);
        try {
          const result = await transport.send(message);
          const status: MailStatus = result.recordedOnly ? 'recorded' : 'sent';
          await em.execute(
            `update mail_log set status = ?, provider = ?, provider_message_id = ?, attempts = attempts + 1, last_error = null, delivered_at = ?
             where id = ?`,
            [status, transport.name, result.providerMessageId ?? null, result.recordedOnly ? null : now(), mailId],
          );
          return { outcome: { status, provider: transport.name } };
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          await em.execute(`update mail_log set status = 'failed', provider = ?, attempts = attempts + 1, last_error = ? where id = ?`, [
            transport.name,
            failure.message.slice(0, 1000),
            mailId,
          ]);
          return { failure, provider: transport.name };
        }
      });
      if ('outcome' in attempt) return attempt.outcome;
      const { failure, provider } = attempt;
      const retryable = !(failure instanceof MailTransportError) || failure.retryable;
      const message = `${provider}: ${failure.message}`;
      throw retryable ? ApplicationFailure.retryable(message, 'MailDeliveryFailed') : ApplicationFailure.nonRetryable(message, 'MailDeliveryRefused');
    },
  };
}
