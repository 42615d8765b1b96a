import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from '../access/platform-owned.ts';
import type { DomainEventType } from '../../../domain/shared/events.ts';
import type { WebhookDeliveryStatus } from '../../../domain/shared/webhooks.ts';
import { DomainEvent } from './domain-event.ts';

/**
 * A platform's webhook (spec: Webhook). `secretSealed` is the `secret_key` sealed with
 * `SECRETS_KEY` (adapters/secrets/secret-box.ts); it never leaves the server in clear except to
 * sign. A deleted webhook keeps its row (`deletedAt`) so its delivery history stays readable
 * while deliveries in flight end as `disabled`.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  indexes: [{ properties: ['platform', 'createdAt'] }],
  ...platformOwned({
    name: p.string(),
    url: p.text(),
    events: p.array().$type<DomainEventType[]>().columnType('text[]'),
    active: p.boolean().default(true),
    secretSealed: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    deletedAt: p.datetime().nullable(),
  }),
});
export type IWebhook = InferEntity<typeof Webhook>;

/**
 * One event sent to one webhook (one delivery workflow). `redeliveries` counts manual
 * redeliveries; each has its own workflow id.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  uniques: [{ properties: ['webhook', 'event'] }],
  indexes: [{ properties: ['webhook', 'createdAt'] }],
  ...platformOwned({
    webhook: () => p.manyToOne(Webhook).ref(),
    event: () => p.manyToOne(DomainEvent).ref(),
    eventType: p.string().$type<DomainEventType>(),
    status: p.string().$type<WebhookDeliveryStatus>().default('pending'),
    attemptCount: p.integer().default(0),
    redeliveries: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IWebhookDelivery = InferEntity<typeof WebhookDelivery>;

/** One HTTP attempt of a delivery (or its refusal): when, the answer, how long, what went wrong. */
export const WebhookDeliveryAttempt = defineEntity({
  name: 'WebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  indexes: [{ properties: ['delivery', 'attemptedAt'] }],
  ...platformOwned({
    delivery: () => p.manyToOne(WebhookDelivery).ref(),
    attemptedAt: p.datetime(),
    statusCode: p.smallint().nullable(),
    durationMs: p.integer(),
    error: p.text().nullable(),
    /** A manual redelivery (POST .../redeliver) rather than the automatic schedule. */
    manual: p.boolean().default(false),
  }),
});
export type IWebhookDeliveryAttempt = InferEntity<typeof WebhookDeliveryAttempt>;

export const webhookEntities = [Webhook, WebhookDelivery, WebhookDeliveryAttempt];
