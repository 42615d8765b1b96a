import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { MailProviderName } from '../../../domain/shared/mail-delivery.ts';
import { MailDeliveryProvider, MailLogEntry, type IMailDeliveryProvider } from '../../entities/index.ts';

/** The platform's saved providers (the entity manager is scoped to the platform). */
export function mailDeliveryProviders(em: EntityManager): Promise<IMailDeliveryProvider[]> {
  return em.find(MailDeliveryProvider, {});
}

/** One saved provider, or null when it was never saved; `fresh` reads past the identity map. */
export function mailDeliveryProvider(em: EntityManager, provider: MailProviderName, { fresh = false } = {}): Promise<IMailDeliveryProvider | null> {
  return em.findOne(MailDeliveryProvider, { provider }, { refresh: fresh });
}

/**
 * The provider's row, created empty when missing, locked until the transaction of `tx` ends, and
 * read fresh from the database: concurrent saves of one provider take turns on it.
 */
export async function lockMailDeliveryProvider(tx: EntityManager, platformId: string, provider: MailProviderName): Promise<IMailDeliveryProvider> {
  await tx.execute(
    `insert into mail_delivery_providers (id, platform_id, provider, active, fields, sealed_secrets, created_at, updated_at)
     values (?, ?, ?, false, '{}', '{}', now(), now()) on conflict (platform_id, provider) do nothing`,
    [randomUUID(), platformId, provider],
  );
  return tx.findOneOrFail(MailDeliveryProvider, { provider }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

export interface ProviderTestMail {
  id: string;
  to: string;
  subject: string;
  html: string;
  from: { name: string | null; address: string };
  providerMessageId: string | null;
}

/** The test mail a provider check sent goes to the mail log like any other mail, already delivered. */
export function recordProviderTestMail(em: EntityManager, platformId: string, provider: MailProviderName, mail: ProviderTestMail): void {
  const now = new Date();
  em.create(MailLogEntry, {
    id: mail.id,
    platform: platformId,
    to: mail.to,
    template: 'provider_test',
    subject: mail.subject,
    html: mail.html,
    dedupeKey: `provider-test/${provider}/${mail.id}`,
    sentAt: now,
    senderName: mail.from.name,
    senderEmail: mail.from.address,
    status: 'sent',
    provider,
    providerMessageId: mail.providerMessageId,
    attempts: 1,
    deliveredAt: now,
  });
}

/** Writes the (locked) provider row, with whatever else the transaction recorded (a test mail). */
export async function saveMailDeliveryProvider(tx: EntityManager, row: IMailDeliveryProvider, values: Pick<IMailDeliveryProvider, 'active' | 'fields' | 'sealedSecrets'>): Promise<void> {
  row.active = values.active;
  row.fields = values.fields;
  row.sealedSecrets = values.sealedSecrets;
  await tx.flush();
}
