import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { DomainEventType } from '../../../domain/shared/events.ts';
import type { WebhookDeliveryStatus } from '../../../domain/shared/webhooks.ts';
import { tenantFilters } from '../../tenant.ts';
import { Course, Lesson } from '../access/course.ts';
import { DomainEvent } from './domain-event.ts';
import { Participant } from '../access/participant.ts';
import { Platform } from '../access/platform.ts';

/**
 * A platform's webhook (spec: Webhook). `secretSealed` is the `secret_key` sealed with
 * `SECRETS_KEY` (activities/crypto/secret-box.ts); it never leaves the server in clear except to
 * sign. A deleted webhook keeps its row (`deletedAt`) so its delivery history stays readable
 * while deliveries in flight end as `disabled`.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  filters: tenantFilters,
  indexes: [{ properties: ['platform', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    name: p.string(),
    url: p.text(),
    events: p.array().$type<DomainEventType[]>().columnType('text[]'),
    active: p.boolean().default(true),
    secretSealed: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    deletedAt: p.datetime().nullable(),
  },
});
export type IWebhook = InferEntity<typeof Webhook>;

/**
 * One event sent to one webhook (one delivery workflow). `redeliveries` counts manual
 * redeliveries; each has its own workflow id.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  filters: tenantFilters,
  uniques: [{ properties: ['webhook', 'event'] }],
  indexes: [{ properties: ['webhook', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    webhook: () => p.manyToOne(Webhook).ref(),
    event: () => p.manyToOne(DomainEvent).ref(),
    eventType: p.string().$type<DomainEventType>(),
    status: p.string().$type<WebhookDeliveryStatus>().default('pending'),
    attemptCount: p.integer().default(0),
    redeliveries: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IWebhookDelivery = InferEntity<typeof WebhookDelivery>;

/** One HTTP attempt of a delivery (or its refusal): when, the answer, how long, what went wrong. */
export const WebhookDeliveryAttempt = defineEntity({
  name: 'WebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  filters: tenantFilters,
  indexes: [{ properties: ['delivery', 'attemptedAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    delivery: () => p.manyToOne(WebhookDelivery).ref(),
    attemptedAt: p.datetime(),
    statusCode: p.smallint().nullable(),
    durationMs: p.integer(),
    error: p.text().nullable(),
    /** A manual redelivery (POST .../redeliver) rather than the automatic schedule. */
    manual: p.boolean().default(false),
  },
});
export type IWebhookDeliveryAttempt = InferEntity<typeof WebhookDeliveryAttempt>;

/** A quiz result reported through the operator API (`quiz_passed` when passed). */
export const QuizResult = defineEntity({
  name: 'QuizResult',
  tableName: 'quiz_results',
  filters: tenantFilters,
  indexes: [{ properties: ['platform', 'participant'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    participant: () => p.manyToOne(Participant).ref(),
    course: () => p.manyToOne(Course).ref(),
    lesson: () => p.manyToOne(Lesson).ref(),
    quizId: p.string(),
    score: p.double(),
    passed: p.boolean(),
    recordedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IQuizResult = InferEntity<typeof QuizResult>;

export const webhookEntities = [Webhook, WebhookDelivery, WebhookDeliveryAttempt, QuizResult];
