import { z } from 'zod';
import type { IWebhook, IWebhookDelivery, IWebhookDeliveryAttempt } from '../../../db/entities/index.ts';
import { DOMAIN_EVENT_TYPES } from '../../../domain/shared/events.ts';
import { WEBHOOK_DELIVERY_STATUSES, webhookUrlProblem } from '../../../domain/shared/webhooks.ts';
import { PageMeta, PageQuery } from '../../shared/pagination.ts';

/** Bodies, replies and views of `/webhooks` (spec: Webhook). */

const eventName = z.enum(DOMAIN_EVENT_TYPES, { error: `must be one of ${DOMAIN_EVENT_TYPES.join(', ')}` });
const name = z.string().trim().min(1, 'must not be empty').max(255);
/** A webhook's address (domain/shared/webhooks.ts): also the rule of a shop's webhooks. */
export const webhookUrl = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const events = z
  .array(eventName)
  .min(1, 'subscribe to at least one event')
  .max(DOMAIN_EVENT_TYPES.length * 2)
  .transform((list) => [...new Set(list)]);
/** Write-only; omitted or `""` keeps the stored secret (spec: Configuration conventions 1). */
const secretKey = z.string().max(512).describe('write-only: signs deliveries; omitted or empty keeps the stored one');

export const CreateWebhookBody = z
  .strictObject({ name, url: webhookUrl, events, active: z.boolean().default(true), secret_key: secretKey })
  .describe('`secret_key` is required when creating a webhook; use 32 or more random bytes (a Standard Webhooks `whsec_<base64>` secret works too).');
export const UpdateWebhookBody = z
  .strictObject({ name, url: webhookUrl, events, active: z.boolean(), secret_key: secretKey })
  .partial()
  .describe('Only the fields sent change; an omitted or empty `secret_key` keeps the stored one (a secret cannot be cleared).');

export const WebhookReply = z
  .object({
    id: z.uuid(),
    name: z.string(),
    url: z.string(),
    events: z.array(z.enum(DOMAIN_EVENT_TYPES)),
    active: z.boolean(),
    secret_key_configured: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });

/** Deliveries come ${DELIVERIES_PER_PAGE} a page; only `page` is chosen. */
export const DeliveriesQuery = PageQuery.pick({ page: true });
export const WebhookList = z.object({
  data: z.array(WebhookReply),
  meta: PageMeta.extend({ available_events: z.array(z.enum(DOMAIN_EVENT_TYPES)) }),
});

const AttemptReply = z.object({
  attempted_at: z.iso.datetime(),
  status_code: z.number().nullable().describe('HTTP status of the reply; null when none came (network error, timeout, refused address)'),
  duration_ms: z.number(),
  error: z.string().nullable(),
  manual: z.boolean().describe('made by a manual redelivery'),
});
export const DeliveryReply = z
  .object({
    id: z.uuid(),
    event_id: z.uuid().describe('also the `webhook-id` header of every attempt'),
    event_type: z.enum(DOMAIN_EVENT_TYPES),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempt_count: z.number(),
    next_attempt_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    attempts: z.array(AttemptReply).describe('newest first'),
  })
  .meta({ id: 'WebhookDelivery' });
export const DeliveryList = z.object({ data: z.array(DeliveryReply), meta: PageMeta });

export const WebhookParams = z.object({ id: z.uuid() });
export const DeliveryParams = WebhookParams.extend({ delivery_id: z.uuid() });

// ----- views

export const webhookView = (w: IWebhook): z.input<typeof WebhookReply> => ({
  id: w.id,
  name: w.name,
  url: w.url,
  events: w.events,
  active: w.active,
  secret_key_configured: w.secretSealed.length > 0,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
});

/** Deliveries with their attempts (newest first), as the interface shows them. */
export function deliveryViews(deliveries: readonly IWebhookDelivery[], attempts: readonly IWebhookDeliveryAttempt[]): z.input<typeof DeliveryReply>[] {
  return deliveries.map((d) => ({
    id: d.id,
    event_id: d.event.id,
    event_type: d.eventType,
    status: d.status,
    attempt_count: d.attemptCount,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    attempts: attempts
      .filter((a) => a.delivery.id === d.id)
      .map((a) => ({ attempted_at: a.attemptedAt.toISOString(), status_code: a.statusCode ?? null, duration_ms: a.durationMs, error: a.error ?? null, manual: a.manual })),
  }));
}
