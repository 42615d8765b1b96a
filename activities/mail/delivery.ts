import type { EntityManager } from '@mikro-orm/postgresql';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { Platform, PlatformAppearance } from '../../db/entities/index.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { activeProvider, chooseSender, htmlToText, MAIL_CLAIM_LEASE_MS, messageIdFor, type MailSender, type MailStatus } from '../../domain/shared/mail-delivery.ts';
import { secretsKeyFrom } from '../../db/secret-box.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { chooseTransport, DEFAULT_MAIL_ENDPOINTS, MailTransportError, type MailEndpoints, type OutboundMessage, type SendResult } from '../../api/shared/mail-transports/index.ts';
import { openProvider, providerRows, type ProviderSettings } from './provider-settings.ts';
import { tenantEm } from '../shared/tenant-em.ts';

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

type Claim = { mail: MailRow } | { outcome: DeliveryOutcome };

/** How often an attempt looks again while another attempt holds the mail. */
const CLAIM_POLL_MS = 250;
/** How often a running attempt renews its claim and heartbeats. */
const CLAIM_RENEW_MS = 2_000;

/** Tells Temporal this attempt is alive; outside an activity (direct calls in tests) there is no one to tell. */
function heartbeat(): void {
  try {
    Context.current().heartbeat();
  } catch {
    // not running as an activity
  }
}

/** Keeps the claim of a running attempt fresh until `stop()`. */
function keepClaim(em: EntityManager, mailId: string): { stop(): void } {
  const timer = setInterval(() => {
    heartbeat();
    em.execute(`update mail_log set claimed_at = now() where id = ? and status = 'sending'`, [mailId]).catch(() => undefined);
  }, CLAIM_RENEW_MS);
  return { stop: () => clearInterval(timer) };
}

export const UNOPENABLE_SECRETS_ERROR = 'provider secrets cannot be opened with this SECRETS_KEY; save the provider again';

/**
 * Claims the mail for this attempt (`sending`) in one statement, so no transaction or row lock
 * spans the provider call. A mail claimed by another attempt is waited for until that attempt
 * records its outcome or stops renewing its claim (the attempt is gone: take it over). A mail
 * already sent or recorded is never claimed again.
 */
async function claimMail(em: EntityManager, platformId: string, mailId: string): Promise<Claim> {
  for (;;) {
    const claimed: MailRow[] = await em.execute(
      `update mail_log set status = 'sending', claimed_at = now()
       where id = ? and platform_id = ?
         and (status in ('pending', 'failed') or (status = 'sending' and claimed_at < now() - ? * interval '1 millisecond'))
       returning id, "to", subject, html, sender_name, sender_email, status, provider`,
      [mailId, platformId, MAIL_CLAIM_LEASE_MS],
    );
    if (claimed[0]) return { mail: claimed[0] };
    const rows: Pick<MailRow, 'status' | 'provider'>[] = await em.execute('select status, provider from mail_log where id = ? and platform_id = ?', [mailId, platformId]);
    const found = rows[0];
    if (!found) throw ApplicationFailure.nonRetryable(`mail ${mailId} is not in the mail log of platform ${platformId}`, 'MailNotFound');
    if (found.status === 'sent' || found.status === 'recorded') return { outcome: { status: found.status, provider: found.provider } };
    heartbeat();
    await sleep(CLAIM_POLL_MS);
  }
}

async function recordFailure(em: EntityManager, mailId: string, provider: MailSender, error: string): Promise<void> {
  await em.execute(`update mail_log set status = 'failed', provider = ?, attempts = attempts + 1, last_error = ? where id = ? and status = 'sending'`, [
    provider,
    error.slice(0, 1000),
    mailId,
  ]);
}

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
     * mail id: the attempt first claims the mail (`sending`), so two deliveries of one mail
     * serialise and the second finds it sent; the provider call runs outside any transaction.
     * Every attempt carries the same `Message-ID` and idempotency key (the mail id). A failed
     * attempt is recorded (`failed`, attempts, last error) and rethrown for the retry; a refusal
     * that no retry can fix (including secrets this worker's key cannot open) is not retried.
     */
    async deliverMail({ platformId, mailId }: DeliverMailInput): Promise<DeliveryOutcome> {
      const em = tenantEm(orm, platformId);
      const claim = await claimMail(em, platformId, mailId);
      if ('outcome' in claim) return claim.outcome;
      const { mail } = claim;
      const lease = keepClaim(em, mailId);
      try {
        return await deliverClaimed(em, platformId, mail);
      } finally {
        lease.stop();
      }
    },
  };

  /** The rest of an attempt once it holds the mail: open the provider, send, record. */
  async function deliverClaimed(em: EntityManager, platformId: string, mail: MailRow): Promise<DeliveryOutcome> {
    const mailId = mail.id;

    // Only the provider that sends is opened: a stale secret of an inactive one never blocks mail.
    const sending = activeProvider(await providerRows(em));
    let opened: ProviderSettings | null = null;
    if (sending) {
      try {
        opened = openProvider(sending, secrets());
      } catch {
        await recordFailure(em, mailId, sending.provider, UNOPENABLE_SECRETS_ERROR);
        throw ApplicationFailure.nonRetryable(`${sending.provider}: ${UNOPENABLE_SECRETS_ERROR}`, 'MailDeliveryRefused');
      }
    }
    const { transport, settings } = chooseTransport(opened, mailEndpoints);
    const providerSender = settings ? { email: settings.fields.email, name: settings.fields.display_name } : null;

    let result: SendResult;
    try {
      const message = await outboundMessage(em, mail, platformId, providerSender, mailEndpoints);
      result = await transport.send(message);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      await recordFailure(em, mailId, transport.name, failure.message);
      const retryable = !(failure instanceof MailTransportError) || failure.retryable;
      const text = `${transport.name}: ${failure.message}`;
      throw retryable ? ApplicationFailure.retryable(text, 'MailDeliveryFailed') : ApplicationFailure.nonRetryable(text, 'MailDeliveryRefused');
    }
    const status: MailStatus = result.recordedOnly ? 'recorded' : 'sent';
    await em.execute(
      `update mail_log set status = ?, provider = ?, provider_message_id = ?, attempts = attempts + 1, last_error = null, delivered_at = ?
       where id = ?`,
      [status, transport.name, result.providerMessageId ?? null, result.recordedOnly ? null : now(), mailId],
    );
    return { status, provider: transport.name };
  }
}
