import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DomainEventType } from '../../../domain/shared/events.ts';
import {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  type IWebhook,
  type IWebhookDelivery,
  type IWebhookDeliveryAttempt,
} from '../../entities/index.ts';
import { insertRow } from '../shared/insert-row.ts';

/** Webhooks of the platform the entity manager is scoped to; deleted ones are gone for the interface. */
export function findWebhook(em: EntityManager, id: string): Promise<IWebhook | null> {
  return em.findOne(Webhook, { id: id.toLowerCase(), deletedAt: null });
}

/** A page of the platform's webhooks, oldest first, with the total. */
export function webhookPage(em: EntityManager, window: { limit: number; offset: number }): Promise<[IWebhook[], number]> {
  return em.findAndCount(Webhook, { deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' }, ...window });
}

export function findDelivery(em: EntityManager, webhookId: string, deliveryId: string): Promise<IWebhookDelivery | null> {
  return em.findOne(WebhookDelivery, { id: deliveryId.toLowerCase(), webhook: webhookId });
}

/** A page of a webhook's deliveries, newest first, with the total. */
export function deliveryPage(em: EntityManager, webhookId: string, window: { limit: number; offset: number }): Promise<[IWebhookDelivery[], number]> {
  return em.findAndCount(WebhookDelivery, { webhook: webhookId }, { orderBy: { createdAt: 'desc', id: 'desc' }, ...window });
}

/** The attempts of the given deliveries, newest first. */
export function attemptsOf(em: EntityManager, deliveryIds: readonly string[]): Promise<IWebhookDeliveryAttempt[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return em.find(WebhookDeliveryAttempt, { delivery: { $in: [...deliveryIds] } }, { orderBy: { attemptedAt: 'desc', id: 'desc' } });
}

export function createWebhook(em: EntityManager, values: RequiredEntityData<IWebhook>): Promise<IWebhook> {
  return insertRow(em, Webhook, values);
}

export interface WebhookChange {
  name?: string | undefined;
  url?: string | undefined;
  events?: DomainEventType[] | undefined;
  active?: boolean | undefined;
  /** A new sealed secret; absent keeps the stored one. */
  secretSealed?: string | undefined;
}

/** Writes the fields given (an absent one stays); the webhook counts as updated either way. */
export async function updateWebhook(em: EntityManager, webhook: IWebhook, { secretSealed, ...fields }: WebhookChange): Promise<void> {
  em.assign(webhook, fields);
  if (secretSealed !== undefined) webhook.secretSealed = secretSealed;
  webhook.updatedAt = new Date();
  await em.flush();
}

/** Deletes the webhook: it is switched off and hidden; its row and history stay. */
export async function deleteWebhook(em: EntityManager, webhook: IWebhook): Promise<void> {
  webhook.deletedAt = new Date();
  webhook.active = false;
  await em.flush();
}
