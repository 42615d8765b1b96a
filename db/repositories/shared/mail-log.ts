import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from './pooled-transaction.ts';
import { MailLogEntry, type IMailDeliveryProvider, type IMailLogEntry } from '../../entities/index.ts';
import type { MailSender, MailStatus } from '../../../domain/shared/mail-delivery.ts';

/** The mail log (`mail_log`): every mail recorded once per dedupe key, then delivered. */

export interface PendingMail {
  platformId: string;
  to: string;
  template: string;
  subject: string;
  html: string;
  dedupeKey: string;
  sentAt: Date;
  senderName: string | null;
  senderEmail: string | null;
  /** The mail's id when its caller names it (`operationMailId`), else a new one. */
  id?: string;
}

/** The statuses of a mail not delivered yet, whose delivery may still be attempted. */
export const AWAITING_DELIVERY = `('pending', 'sending', 'failed')`;

/** Records the mail as `pending` in one statement; its id, or undefined when the dedupe key was already recorded. */
export async function insertPendingMail(em: Sql, m: PendingMail): Promise<string | undefined> {
  const rows: { id: string }[] = await em.execute(
    `insert into mail_log (id, platform_id, "to", template, subject, html, dedupe_key, sent_at, sender_name, sender_email, status)
     values (coalesce(?::uuid, gen_random_uuid()), ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')
     on conflict (platform_id, dedupe_key) do nothing
     returning id`,
    [m.id ?? null, m.platformId, m.to, m.template, m.subject, m.html, m.dedupeKey, m.sentAt, m.senderName, m.senderEmail],
  );
  return rows[0]?.id;
}

/** The id of the mail recorded under this dedupe key while it awaits delivery (`AWAITING_DELIVERY`), else null. */
export async function mailAwaitingDelivery(em: Sql, platformId: string, dedupeKey: string): Promise<string | null> {
  const rows: { id: string }[] = await em.execute(
    `select id from mail_log where platform_id = ? and dedupe_key = ? and status in ${AWAITING_DELIVERY}`,
    [platformId, dedupeKey],
  );
  return rows[0]?.id ?? null;
}

export interface PlatformSenderFacts {
  title: string;
  sender_name: string | null;
  sender_email: string | null;
  /** A sandbox twin: its mail never goes through a provider (activities/mail/delivery.ts). */
  sandbox: boolean;
  /** The platform's saved providers that are active (the one that sends is chosen among them). */
  active_providers: ActiveMailProvider[];
}

/** What opening a saved provider reads of its row. */
export type ActiveMailProvider = Pick<IMailDeliveryProvider, 'provider' | 'active' | 'fields' | 'sealedSecrets'>;

/**
 * The platform's title, its `default_email_sender` (configuration interface, platform settings),
 * whether it is a sandbox and its active providers, as one json value of platform `p` and its
 * appearance `a`: read with the claim of each mail (a grant's invitation claims one every time).
 */
const PLATFORM_SENDER_FACTS = `json_build_object(
  'title', p.title,
  'sender_name', a.settings->'default_email_sender'->>'name',
  'sender_email', a.settings->'default_email_sender'->>'email',
  'sandbox', p.sandbox_of_id is not null,
  'active_providers', coalesce((select json_agg(json_build_object('provider', m.provider, 'active', m.active, 'fields', m.fields, 'sealedSecrets', m.sealed_secrets))
                                  from mail_delivery_providers m where m.platform_id = p.id and m.active), '[]'))`;

/** The end of a statement whose CTE `claimed` writes one `mail_log` row: the row as a ClaimedMail. */
const AS_CLAIMED_MAIL = `returning id, "to", subject, html, sender_name, sender_email, status, provider, platform_id)
     select c.id, c."to", c.subject, c.html, c.sender_name, c.sender_email, c.status, c.provider, ${PLATFORM_SENDER_FACTS} as platform
       from claimed c join platforms p on p.id = c.platform_id left join platform_appearances a on a.platform_id = p.id`;

/** A mail as its delivery sends it. */
export interface MailToSend {
  id: string;
  to: string;
  subject: string;
  html: string;
  sender_name: string | null;
  sender_email: string | null;
  status: MailStatus;
  provider: MailSender | null;
}

/** A mail claimed for an attempt, with what its platform sends it with. */
export interface ClaimedMail extends MailToSend {
  platform: PlatformSenderFacts;
}

/**
 * Claims the mail for one delivery attempt (`sending`) in one statement, so no transaction or row
 * lock spans the provider call: a pending or failed mail, or one whose claim is older than the
 * lease (its attempt is gone), with what its platform sends it with. Undefined when the mail
 * cannot be claimed now.
 */
export async function claimMailForSending(em: Sql, platformId: string, mailId: string, leaseMs: number): Promise<ClaimedMail | undefined> {
  const claimed: ClaimedMail[] = await em.execute(
    `with claimed as (
       update mail_log set status = 'sending', claimed_at = now()
        where id = ? and platform_id = ?
          and (status in ('pending', 'failed') or (status = 'sending' and claimed_at < now() - ? * interval '1 millisecond'))
       ${AS_CLAIMED_MAIL}`,
    [mailId, platformId, leaseMs],
  );
  return claimed[0];
}

/**
 * Records the mail already claimed for sending (`sending`, claimed at this statement's time, not
 * the transaction's start), with what its attempt sends it with, in one statement: for a caller
 * that makes the first attempt as soon as its transaction commits (a grant's invitation), so that
 * attempt needs no claim of its own (`attemptClaimedOnce`). Should the attempt never come, the
 * claim lapses after its lease and a delivery takes the mail over as it would from an attempt
 * that stopped. Undefined when the dedupe key was already recorded.
 */
export async function insertClaimedMail(em: Sql, m: PendingMail): Promise<ClaimedMail | undefined> {
  const rows: ClaimedMail[] = await em.execute(
    `with claimed as (
       insert into mail_log (id, platform_id, "to", template, subject, html, dedupe_key, sent_at, sender_name, sender_email, status, claimed_at)
       values (coalesce(?::uuid, gen_random_uuid()), ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending', clock_timestamp())
       on conflict (platform_id, dedupe_key) do nothing
       ${AS_CLAIMED_MAIL}`,
    [m.id ?? null, m.platformId, m.to, m.template, m.subject, m.html, m.dedupeKey, m.sentAt, m.senderName, m.senderEmail],
  );
  return rows[0];
}

export async function mailDeliveryState(em: Sql, platformId: string, mailId: string): Promise<Pick<MailToSend, 'status' | 'provider'> | undefined> {
  const rows: Pick<MailToSend, 'status' | 'provider'>[] = await em.execute('select status, provider from mail_log where id = ? and platform_id = ?', [mailId, platformId]);
  return rows[0];
}

/** Renews the claim of a mail still `sending`. */
export async function renewMailClaim(em: Sql, mailId: string): Promise<void> {
  await em.execute(`update mail_log set claimed_at = now() where id = ? and status = 'sending'`, [mailId]);
}

/** A failed attempt of a claimed mail: `failed`, the provider tried, one more attempt, the error. */
export async function recordMailFailure(em: Sql, mailId: string, provider: MailSender, error: string): Promise<void> {
  await em.execute(`update mail_log set status = 'failed', provider = ?, attempts = attempts + 1, last_error = ? where id = ? and status = 'sending'`, [
    provider,
    error.slice(0, 1000),
    mailId,
  ]);
}

/** A delivered (`sent`) or recorded-only mail. */
export async function recordMailDelivered(em: Sql, mailId: string, d: { status: MailStatus; provider: MailSender; providerMessageId: string | null; deliveredAt: Date | null }): Promise<void> {
  await em.execute(
    `update mail_log set status = ?, provider = ?, provider_message_id = ?, attempts = attempts + 1, last_error = null, delivered_at = ?
     where id = ?`,
    [d.status, d.provider, d.providerMessageId, d.deliveredAt, mailId],
  );
}

/** The platform's mail log, newest first (at most 500), to one address when `to` is given. */
export function latestMailLogEntries(em: EntityManager, to: string | undefined): Promise<IMailLogEntry[]> {
  return em.find(MailLogEntry, to ? { to } : {}, { orderBy: { sentAt: 'desc' }, limit: 500 });
}

/** Whether a mail was recorded under this dedupe key (the entity manager is scoped to the platform). */
export async function hasMailUnderKey(em: EntityManager, dedupeKey: string): Promise<boolean> {
  return (await em.findOne(MailLogEntry, { dedupeKey })) !== null;
}
