import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sealSecret } from '../../db/secret-box.ts';
import { Webhook, WebhookDelivery, WebhookDeliveryAttempt, type IWebhook, type IWebhookDelivery } from '../../db/entities/index.ts';
import { DOMAIN_EVENT_TYPES } from '../../domain/shared/events.ts';
import { DELIVERIES_PER_PAGE, WEBHOOK_DELIVERY_STATUSES, webhookUrlProblem } from '../../domain/shared/webhooks.ts';
import { HttpError, notFound } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { configurationKeyOf } from './auth.ts';
import { data } from './schemas.ts';

// ----- documentation (OpenAPI descriptions)

const EVENTS_DOC = `Events (\`data\` of a delivery is the payload below plus \`id\`, the event id):
- \`user_registered\`: \`{participant: {id, email, name}}\`; a grant or an order created the participant.
- \`access_granted\`: \`{participant: {id, email}, resource: {type: "course" | "audiobook", id}, access_level, source: {kind: "direct"} | {kind: "order", order_id}}\`; access started or its level rose.
- \`access_revoked\`: same fields; \`access_level\` is what remains (\`null\`: the access is gone).
- \`order_fulfilled\`: \`{order: {id, external_id, ordinal_number}, participant: {id, email}, courses: [{id, access_level}]}\`.
- \`lesson_completed\`: \`{participant: {id, email}, course: {id, title}, lesson: {id, title}, completed_at}\`.
- \`course_completed\`: \`{participant: {id, email}, course: {id, title}, completed_at}\`; every lesson the participant's access level opens is completed (once per participant and course).
- \`quiz_passed\`: \`{participant: {id, email}, course: {id, title}, lesson: {id, title}, quiz_id, score, result_id}\`.`;

const DELIVERY_DOC = `Delivery: \`POST <url>\` with \`Content-Type: application/json\` and the body \`{type, timestamp, data}\` (\`timestamp\`: when the event happened). Headers:
- \`X-Webhook-Signature: sha256=<hex>\`: HMAC-SHA256 of the exact body bytes, keyed with the UTF-8 bytes of \`secret_key\`.
- Standard Webhooks: \`webhook-id\` (the event id; the same on every retry and redelivery, so duplicates can be dropped), \`webhook-timestamp\` (Unix seconds of the attempt), \`webhook-signature: v1,<base64>\`: HMAC-SHA256 of \`<webhook-id>.<webhook-timestamp>.<body>\`, keyed with the base64-decoded part after \`whsec_\` when \`secret_key\` starts with \`whsec_\`, else with the UTF-8 bytes of \`secret_key\`.
Success is a 2xx within 10 s. Redirects are not followed (a 3xx is a failure). Failures are retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 20 h and 24 h after the previous attempt (10 attempts over about three days), each wait +-10 % jitter; a longer \`Retry-After\` (seconds or HTTP date, up to 24 h) is honoured. A 410 disables the webhook (\`active: false\`) and ends the delivery. Addresses in private, loopback, link-local, unique-local, unspecified, multicast or reserved ranges (IPv4, IPv6, IPv4-mapped and NAT64 forms, and names resolving to any of them) are not contacted: the delivery is \`failed\` at once, with the reason in its attempt.`;

// ----- bodies and replies

const eventName = z.enum(DOMAIN_EVENT_TYPES, { error: `must be one of ${DOMAIN_EVENT_TYPES.join(', ')}` });
const name = z.string().trim().min(1, 'must not be empty').max(255);
const url = z
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
  .strictObject({ name, url, events, active: z.boolean().default(true), secret_key: secretKey })
  .describe('`secret_key` is required when creating a webhook; use 32 or more random bytes (a Standard Webhooks `whsec_<base64>` secret works too).');
export const UpdateWebhookBody = z
  .strictObject({ name, url, events, active: z.boolean(), secret_key: secretKey })
  .partial()
  .describe('Only the fields sent change; an omitted or empty `secret_key` keeps the stored one (a secret cannot be cleared).');

const WebhookReply = z
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

const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
const DeliveriesQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
const pageMeta = { page: z.number(), per_page: z.number(), total: z.number(), total_pages: z.number() };
const WebhookList = z.object({
  data: z.array(WebhookReply),
  meta: z.object({ available_events: z.array(z.enum(DOMAIN_EVENT_TYPES)), ...pageMeta }),
});

const AttemptReply = z.object({
  attempted_at: z.iso.datetime(),
  status_code: z.number().nullable().describe('HTTP status of the reply; null when none came (network error, timeout, refused address)'),
  duration_ms: z.number(),
  error: z.string().nullable(),
  manual: z.boolean().describe('made by a manual redelivery'),
});
const DeliveryReply = z
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
const DeliveryList = z.object({ data: z.array(DeliveryReply), meta: z.object(pageMeta) });

const WebhookParams = z.object({ id: z.uuid() });
const DeliveryParams = WebhookParams.extend({ delivery_id: z.uuid() });

// ----- views

const webhookView = (w: IWebhook): z.input<typeof WebhookReply> => ({
  id: w.id,
  name: w.name,
  url: w.url,
  events: w.events,
  active: w.active,
  secret_key_configured: w.secretSealed.length > 0,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
});

async function deliveryViews(em: EntityManager, deliveries: IWebhookDelivery[]): Promise<z.input<typeof DeliveryReply>[]> {
  const attempts = deliveries.length === 0 ? [] : await em.find(WebhookDeliveryAttempt, { delivery: { $in: deliveries.map((d) => d.id) } }, { orderBy: { attemptedAt: 'desc', id: 'desc' } });
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

const pageOf = (page: number, perPage: number, total: number) => ({ page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) });

const tags = ['configuration'];
const security = [{ configurationKey: [] }];
const denied = { 401: ErrorBody, 403: ErrorBody };
const writeErrors = { ...denied, 404: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

/** Webhooks of the key's platform (spec: Webhook; `read` to read, `write_config` to write). */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const findWebhook = async (em: EntityManager, id: string) => {
    const webhook = await em.findOne(Webhook, { id: id.toLowerCase(), deletedAt: null });
    if (!webhook) throw notFound('webhook');
    return webhook;
  };

  app.get(
    '/webhooks',
    {
      config: { scope: 'read' },
      schema: { tags, security, description: `The platform's webhooks, oldest first; \`meta.available_events\` lists the subscribable events.\n\n${EVENTS_DOC}\n\n${DELIVERY_DOC}`, querystring: PageQuery, response: { 200: WebhookList, ...denied, 422: ValidationErrorBody } },
    },
    async (request) => {
      const { page, per_page } = request.query;
      const [webhooks, total] = await request.em.findAndCount(Webhook, { deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: per_page, offset: (page - 1) * per_page });
      return { data: webhooks.map(webhookView), meta: { available_events: [...DOMAIN_EVENT_TYPES], ...pageOf(page, per_page, total) } };
    },
  );

  app.post(
    '/webhooks',
    {
      config: { scope: 'write_config' },
      schema: { tags, security, description: `Creates a webhook; 201 with the webhook (never its secret). An unknown event or a malformed URL is a 422.\n\n${DELIVERY_DOC}`, body: CreateWebhookBody, response: { 201: data(WebhookReply), ...writeErrors } },
    },
    async (request, reply) => {
      const { platformId } = configurationKeyOf(request);
      const body = request.body;
      if (body.secret_key.trim() === '') throw new HttpError(422, 'validation failed', { error: 'validation failed', errors: { secret_key: ['is required when creating a webhook'] } });
      const webhook = request.em.create(Webhook, {
        platform: platformId,
        name: body.name,
        url: body.url,
        events: body.events,
        active: body.active,
        secretSealed: sealSecret(body.secret_key, app.secretsKey),
      });
      await request.em.flush();
      return reply.code(201).send({ data: webhookView(webhook) });
    },
  );

  app.get(
    '/webhooks/:id',
    { config: { scope: 'read' }, schema: { tags, security, params: WebhookParams, response: { 200: data(WebhookReply), ...denied, 404: ErrorBody } } },
    async (request) => ({ data: webhookView(await findWebhook(request.em, request.params.id)) }),
  );

  app.patch(
    '/webhooks/:id',
    { config: { scope: 'write_config' }, schema: { tags, security, params: WebhookParams, body: UpdateWebhookBody, response: { 200: data(WebhookReply), ...writeErrors } } },
    async (request) => {
      const webhook = await findWebhook(request.em, request.params.id);
      const { secret_key, ...fields } = request.body;
      request.em.assign(webhook, fields);
      if (secret_key !== undefined && secret_key.trim() !== '') webhook.secretSealed = sealSecret(secret_key, app.secretsKey);
      webhook.updatedAt = new Date();
      await request.em.flush();
      return { data: webhookView(webhook) };
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { scope: 'write_config' },
      schema: {
        tags,
        security,
        description: 'Deletes the webhook: nothing more is sent to it (deliveries under way end as `disabled`); 200 `{data: {id, deleted: true}}`.',
        params: WebhookParams,
        response: { 200: data(z.object({ id: z.uuid(), deleted: z.literal(true) })), ...writeErrors },
      },
    },
    async (request) => {
      const webhook = await findWebhook(request.em, request.params.id);
      webhook.deletedAt = new Date();
      webhook.active = false;
      await request.em.flush();
      return { data: { id: webhook.id, deleted: true as const } };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        security,
        description: `The webhook's deliveries (one per event), ${DELIVERIES_PER_PAGE} a page, newest first, each with its attempts (newest first): time, HTTP status, duration, error.`,
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...denied, 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const webhook = await findWebhook(request.em, request.params.id);
      const { page } = request.query;
      const [deliveries, total] = await request.em.findAndCount(
        WebhookDelivery,
        { webhook: webhook.id },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: DELIVERIES_PER_PAGE, offset: (page - 1) * DELIVERIES_PER_PAGE },
      );
      return { data: await deliveryViews(request.em, deliveries), meta: pageOf(page, DELIVERIES_PER_PAGE, total) };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config: { scope: 'write_config' },
      schema: {
        tags,
        security,
        description:
          'Addition to the spec: sends one delivery again, now, as one attempt (no retries), with the same body and `webhook-id`. 202 with the delivery (`pending` until the attempt is made; its history shows the attempt with `manual: true`). 409 while the delivery is still pending or when the webhook is not active.',
        params: DeliveryParams,
        response: { 202: data(DeliveryReply), ...writeErrors, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { platformId } = configurationKeyOf(request);
      const webhook = await findWebhook(request.em, request.params.id);
      const delivery = await request.em.findOne(WebhookDelivery, { id: request.params.delivery_id.toLowerCase(), webhook: webhook.id });
      if (!delivery) throw notFound('delivery');
      if (!webhook.active) throw new HttpError(409, 'the webhook is not active; activate it before redelivering');
      const previous = delivery.status;
      if (previous === 'pending') throw new HttpError(409, 'the delivery is still pending');
      const claimed: { redeliveries: number }[] = await request.em.getConnection().execute(
        `update webhook_deliveries set status = 'pending', next_attempt_at = null, redeliveries = redeliveries + 1, updated_at = now()
          where id = ? and platform_id = ? and status = ? returning redeliveries`,
        [delivery.id, platformId, previous],
      );
      const redelivery = claimed[0]?.redeliveries;
      if (redelivery === undefined) throw new HttpError(409, 'the delivery is still pending');
      try {
        await app.workflows.redeliverWebhook({ platformId, webhookId: webhook.id, eventId: delivery.event.id, redelivery });
      } catch (error) {
        await request.em.getConnection().execute("update webhook_deliveries set status = ? where id = ? and status = 'pending' and redeliveries = ?", [previous, delivery.id, redelivery]);
        throw error;
      }
      await request.em.refresh(delivery);
      const [view] = await deliveryViews(request.em, [delivery]);
      return reply.code(202).send({ data: view! });
    },
  );
};
