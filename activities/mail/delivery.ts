import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { activeProvider, chooseSender, htmlToText, MAIL_CLAIM_LEASE_MS, messageIdFor, type MailSender, type MailStatus } from '../../domain/shared/mail-delivery.ts';
import { secretsKeyFrom } from '../../adapters/secrets/secret-box.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { chooseTransport, DEFAULT_MAIL_ENDPOINTS, MailTransportError, type MailEndpoints, type OutboundMessage, type SendResult } from '../../adapters/mail/index.ts';
import { platformDefaultTransport } from '../../adapters/mail/platform-default.ts';
import type { MailTransport } from '../../adapters/mail/transport.ts';
import { openProvider, providerRows, type ProviderSettings } from './provider-settings.ts';
import { tenantEm } from '../../db/repositories/shared/tenant-em.ts';
import { heartbeat } from '../shared/activity-context.ts';
import { keepLease } from '../shared/lease.ts';
import { mails } from '../shared/metrics.ts';
import {
  claimMailForSending,
  mailDeliveryState,
  platformSenderFacts,
  recordMailDelivered,
  type PlatformSenderFacts,
  recordMailFailure,
  renewMailClaim,
  type MailToSend,
} from '../../db/repositories/shared/mail-log.ts';

export interface DeliverMailInput {
  platformId: string;
  mailId: string;
}

export interface DeliveryOutcome {
  status: MailStatus;
  provider: MailSender | null;
}

type Claim = { mail: MailToSend } | { outcome: DeliveryOutcome };

/** How often an attempt looks again while another attempt holds the mail. */
const CLAIM_POLL_MS = 250;

export const UNOPENABLE_SECRETS_ERROR = 'provider secrets cannot be opened with this SECRETS_KEY; save the provider again';

/**
 * Claims the mail for this attempt (`sending`) in one statement, so no transaction or row lock
 * spans the provider call. A mail claimed by another attempt is waited for until that attempt
 * records its outcome or stops renewing its claim (the attempt is gone: take it over). A mail
 * already sent or recorded is never claimed again.
 */
async function claimMail(em: EntityManager, platformId: string, mailId: string): Promise<Claim> {
  for (;;) {
    const claimed = await claimMailForSending(em, platformId, mailId, MAIL_CLAIM_LEASE_MS);
    if (claimed) return { mail: claimed };
    const found = await mailDeliveryState(em, platformId, mailId);
    if (!found) throw ApplicationFailure.nonRetryable(`mail ${mailId} is not in the mail log of platform ${platformId}`, 'MailNotFound');
    if (found.status === 'sent' || found.status === 'recorded') return { outcome: { status: found.status, provider: found.provider } };
    heartbeat();
    await sleep(CLAIM_POLL_MS);
  }
}

function outboundMessage(mail: MailToSend, platform: PlatformSenderFacts, provider: { email?: string | null; name?: string | null } | null, endpoints: MailEndpoints): OutboundMessage {
  const sender = chooseSender({
    provider,
    template: { email: mail.sender_email, name: mail.sender_name },
    platform: { name: platform.sender_name, email: platform.sender_email },
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
      // A renewal that fails is tried again at the next tick; the lease covers the gap.
      const lease = keepLease({
        renew: async () => {
          heartbeat();
          await renewMailClaim(em, mailId);
          return true;
        },
      });
      try {
        return await deliverClaimed(em, platformId, mail);
      } finally {
        lease.stop();
      }
    },
  };

  /** The rest of an attempt once it holds the mail: open the provider, send, record. */
  async function deliverClaimed(em: EntityManager, platformId: string, mail: MailToSend): Promise<DeliveryOutcome> {
    const mailId = mail.id;

    const platform = await platformSenderFacts(em, platformId);
    // A sandbox twin's mail never reaches a real recipient: whatever provider it saved, it goes to
    // SANDBOX_SMTP_URL (a mail catcher) or is recorded only.
    if (platform.sandbox) return send(em, mail, platform, platformDefaultTransport({ ...mailEndpoints, defaultSmtpUrl: mailEndpoints.sandboxSmtpUrl }), null);
    // Only the provider that sends is opened: a stale secret of an inactive one never blocks mail.
    const sending = activeProvider(await providerRows(em));
    let opened: ProviderSettings | null = null;
    if (sending) {
      try {
        opened = openProvider(sending, secrets());
      } catch {
        await recordMailFailure(em, mailId, sending.provider, UNOPENABLE_SECRETS_ERROR);
        throw ApplicationFailure.nonRetryable(`${sending.provider}: ${UNOPENABLE_SECRETS_ERROR}`, 'MailDeliveryRefused');
      }
    }
    const { transport, settings } = chooseTransport(opened, mailEndpoints);
    return send(em, mail, platform, transport, settings ? { email: settings.fields.email, name: settings.fields.display_name } : null);
  }

  /** Sends through the chosen transport and records the outcome (a failure is recorded and rethrown for the retry). */
  async function send(em: EntityManager, mail: MailToSend, platform: PlatformSenderFacts, transport: MailTransport, providerSender: { email?: string | null; name?: string | null } | null): Promise<DeliveryOutcome> {
    const mailId = mail.id;
    let result: SendResult;
    try {
      result = await transport.send(outboundMessage(mail, platform, providerSender, mailEndpoints));
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      await recordMailFailure(em, mailId, transport.name, failure.message);
      mails.inc({ sender: 'platform', transport: transport.name, outcome: 'failed' });
      const retryable = !(failure instanceof MailTransportError) || failure.retryable;
      const text = `${transport.name}: ${failure.message}`;
      throw retryable ? ApplicationFailure.retryable(text, 'MailDeliveryFailed') : ApplicationFailure.nonRetryable(text, 'MailDeliveryRefused');
    }
    const status: MailStatus = result.recordedOnly ? 'recorded' : 'sent';
    await recordMailDelivered(em, mailId, {
      status,
      provider: transport.name,
      providerMessageId: result.providerMessageId ?? null,
      deliveredAt: result.recordedOnly ? null : now(),
    });
    mails.inc({ sender: 'platform', transport: transport.name, outcome: status });
    return { status, provider: transport.name };
  }
}
