import { ApplicationFailure } from '@temporalio/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { activeProvider, chooseSender, htmlToText, MAIL_CLAIM_LEASE_MS, messageIdFor, type MailSender, type MailStatus } from '../../domain/shared/mail-delivery.ts';
import { secretsKeyFrom } from '../../adapters/secrets/secret-box.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { chooseTransport, DEFAULT_MAIL_ENDPOINTS, MailTransportError, type MailEndpoints, type OutboundMessage, type SendResult } from '../../adapters/mail/index.ts';
import { platformDefaultTransport } from '../../adapters/mail/platform-default.ts';
import type { MailTransport } from '../../adapters/mail/transport.ts';
import { openProvider, type ProviderSettings } from './provider-settings.ts';
import { pooledStatements, type Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import { heartbeat } from '../shared/activity-context.ts';
import { keepLease } from '../shared/lease.ts';
import type { HeldClaim } from './render.ts';
import { mails } from '../shared/metrics.ts';
import {
  claimMailForSending,
  mailDeliveryState,
  recordMailDelivered,
  recordMailFailure,
  renewMailClaim,
  type ClaimedMail,
} from '../../db/repositories/shared/mail-log.ts';

export interface DeliverMailInput {
  platformId: string;
  mailId: string;
}

export interface DeliveryOutcome {
  status: MailStatus;
  provider: MailSender | null;
}

type Claim = { mail: ClaimedMail } | { outcome: DeliveryOutcome };

/**
 * What one attempt made inside a grant step did with the step's invitation: `sent` (or recorded,
 * or found sent), `retry` (it failed, ran out of its time, or another attempt holds the mail: the
 * delivery workflow takes over), `refused` (a failure no retry can fix: nothing is handed on).
 */
export type MailAttemptOutcome = 'sent' | 'retry' | 'refused';

/**
 * How long a grant step waits for its invitation's attempt before it answers `retry`: well under
 * the step's 10 s start-to-close timeout. The attempt itself goes on holding its claim, so the
 * delivery workflow that takes over waits for its outcome and sends nothing twice.
 */
export const MAIL_ATTEMPT_IN_STEP_MS = 5_000;

/** How often an attempt looks again while another attempt holds the mail. */
const CLAIM_POLL_MS = 250;

export const UNOPENABLE_SECRETS_ERROR = 'provider secrets cannot be opened with this SECRETS_KEY; save the provider again';

/**
 * Claims the mail for this attempt (`sending`) in one statement, so no transaction or row lock
 * spans the provider call. A mail claimed by another attempt is waited for until that attempt
 * records its outcome or stops renewing its claim (the attempt is gone: take it over). A mail
 * already sent or recorded is never claimed again.
 */
async function claimMail(em: Sql, platformId: string, mailId: string): Promise<Claim> {
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

function outboundMessage({ platform, ...mail }: ClaimedMail, provider: { email?: string | null; name?: string | null } | null, endpoints: MailEndpoints): OutboundMessage {
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
export function mailDeliveryActivities(deps: ActivityDeps) {
  const { deliverMail } = mailDelivery(deps);
  return { deliverMail };
}

/** The delivery activity and the one attempt a grant step makes itself (`attemptMailOnce`). */
export function mailDelivery({ orm, secretsKey, mailEndpoints = DEFAULT_MAIL_ENDPOINTS, now = () => new Date() }: ActivityDeps) {
  let key = secretsKey;
  const secrets = () => (key ??= secretsKeyFrom(undefined, (m) => console.warn(m)));

  return {
    attemptMailOnce,
    attemptClaimedOnce,
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
      const em = pooledStatements(orm.em);
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
        return await deliverClaimed(em, mail);
      } finally {
        lease.stop();
      }
    },
  };

  /**
   * One attempt at a recorded mail from inside another step (a grant, after its transaction
   * committed): never waits for another attempt's claim and never throws, so the step's outcome
   * does not depend on the mail; what is left to do is said by the answer (MailAttemptOutcome).
   */
  async function attemptMailOnce(platformId: string, mailId: string): Promise<MailAttemptOutcome> {
    const em = pooledStatements(orm.em);
    try {
      const claimed = await claimMailForSending(em, platformId, mailId, MAIL_CLAIM_LEASE_MS);
      if (claimed) return await sendClaimedOnce(claimed);
      const found = await mailDeliveryState(em, platformId, mailId);
      if (!found) return 'refused';
      return found.status === 'sent' || found.status === 'recorded' ? 'sent' : 'retry';
    } catch {
      return 'retry';
    }
  }

  /**
   * As attemptMailOnce, for a mail its caller recorded already claimed (insertClaimedMail). A
   * claim held for half its lease or more (a transaction that took that long to commit) is taken
   * again as any other: by then a retry of the caller may have found it lapsing and taken it over,
   * and the mail must not go out twice.
   */
  async function attemptClaimedOnce(platformId: string, { mail: claimed, atMs }: HeldClaim): Promise<MailAttemptOutcome> {
    return performance.now() - atMs >= MAIL_CLAIM_LEASE_MS / 2 ? attemptMailOnce(platformId, claimed.id) : sendClaimedOnce(claimed);
  }

  /** The send of an attempt that holds the mail, its claim renewed meanwhile; `retry` once it takes MAIL_ATTEMPT_IN_STEP_MS. */
  async function sendClaimedOnce(claimed: ClaimedMail): Promise<MailAttemptOutcome> {
    const em = pooledStatements(orm.em);
    const lease = keepLease({ renew: () => renewMailClaim(em, claimed.id).then(() => true) });
    const attempt = deliverClaimed(em, claimed).finally(() => lease.stop());
    const outcome = attempt.then(
      (): MailAttemptOutcome => 'sent',
      (error: unknown): MailAttemptOutcome => (error instanceof ApplicationFailure && error.nonRetryable ? 'refused' : 'retry'),
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<MailAttemptOutcome>((resolve) => (timer = setTimeout(() => resolve('retry'), MAIL_ATTEMPT_IN_STEP_MS)));
    try {
      return await Promise.race([outcome, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The rest of an attempt once it holds the mail: open the provider, send, record. */
  async function deliverClaimed(em: Sql, mail: ClaimedMail): Promise<DeliveryOutcome> {
    const { id: mailId, platform } = mail;
    // A sandbox twin's mail never reaches a real recipient: whatever provider it saved, it goes to
    // SANDBOX_SMTP_URL (a mail catcher) or is recorded only.
    if (platform.sandbox) return send(em, mail, platformDefaultTransport({ ...mailEndpoints, defaultSmtpUrl: mailEndpoints.sandboxSmtpUrl }), null);
    // Only the provider that sends is opened: a stale secret of an inactive one never blocks mail.
    const sending = activeProvider(platform.active_providers);
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
    return send(em, mail, transport, settings ? { email: settings.fields.email, name: settings.fields.display_name } : null);
  }

  /** Sends through the chosen transport and records the outcome (a failure is recorded and rethrown for the retry). */
  async function send(em: Sql, mail: ClaimedMail, transport: MailTransport, providerSender: { email?: string | null; name?: string | null } | null): Promise<DeliveryOutcome> {
    const mailId = mail.id;
    let result: SendResult;
    try {
      result = await transport.send(outboundMessage(mail, providerSender, mailEndpoints));
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

/** What a workflow proxies of this file: `activitiesOf<MailDeliveryActivities>(profile)` (workflows/shared/activities-of.ts). */
export type MailDeliveryActivities = ReturnType<typeof mailDeliveryActivities>;
