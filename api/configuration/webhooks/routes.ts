import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { sealSecret } from '../../../adapters/secrets/secret-box.ts';
import { attemptsOf, createWebhook, deleteWebhook, deliveryPage, findDelivery, findWebhook, updateWebhook, webhookPage } from '../../../db/repositories/access/webhooks.ts';
import { PLATFORM_WEBHOOK_TABLES } from '../../../db/repositories/shared/webhook-deliveries.ts';
import { DOMAIN_EVENT_TYPES } from '../../../domain/shared/events.ts';
import { DELIVERIES_PER_PAGE } from '../../../domain/shared/webhooks.ts';
import { notFound } from '../../shared/errors.ts';
import { redeliver } from '../../shared/redelivery.ts';
import { pageMeta, PageQuery, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { configurationKeyOf } from '../auth.ts';
import { DELIVERY_DOC, EVENTS_DOC } from './docs.ts';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryList,
  DeliveryParams,
  DeliveryReply,
  deliveryViews,
  UpdateWebhookBody,
  WebhookList,
  WebhookParams,
  WebhookReply,
  webhookView,
} from './schemas.ts';

const denied = { 401: ErrorBody, 403: ErrorBody };
const writeErrors = { ...denied, 404: ErrorBody, 415: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

/** Webhooks of the key's platform (spec: Webhook; `read` to read, `write_config` to write). */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const webhookOr404 = async (em: EntityManager, id: string) => {
    const webhook = await findWebhook(em, id);
    if (!webhook) throw notFound('webhook');
    return webhook;
  };
  const withAttempts = async (em: EntityManager, deliveries: Parameters<typeof deliveryViews>[0]) =>
    deliveryViews(deliveries, await attemptsOf(em, deliveries.map((d) => d.id)));

  app.get(
    '/webhooks',
    {
      config: { scope: 'read' },
      schema: { operationId: 'configuration.webhooks.list', summary: 'Lists the platform\'s webhooks', description: `The platform's webhooks, oldest first; \`meta.available_events\` lists the subscribable events.\n\n${EVENTS_DOC}\n\n${DELIVERY_DOC}`, querystring: PageQuery, response: { 200: WebhookList, ...denied, 422: ValidationErrorBody } },
    },
    async (request) => {
      const [webhooks, total] = await webhookPage(request.em, pageWindow(request.query));
      return { data: webhooks.map(webhookView), meta: { available_events: [...DOMAIN_EVENT_TYPES], ...pageMeta(request.query, total) } };
    },
  );

  app.post(
    '/webhooks',
    {
      config: { scope: 'write_config' },
      schema: { operationId: 'configuration.webhooks.create', summary: 'Creates a webhook', description: `Creates a webhook; 201 with the webhook (never its secret). An unknown event or a malformed URL is a 422.\n\n${DELIVERY_DOC}`, body: CreateWebhookBody, response: { 201: data(WebhookReply), ...writeErrors } },
    },
    async (request, reply) => {
      const { platformId } = configurationKeyOf(request);
      const body = request.body;
      if (body.secret_key.trim() === '') throw unprocessable({ secret_key: ['is required when creating a webhook'] });
      const webhook = await createWebhook(request.em, {
        platform: platformId,
        name: body.name,
        url: body.url,
        events: body.events,
        active: body.active,
        secretSealed: sealSecret(body.secret_key, app.secretsKey),
      });
      return reply.code(201).send({ data: webhookView(webhook) });
    },
  );

  app.get(
    '/webhooks/:id',
    { config: { scope: 'read' }, schema: { operationId: 'configuration.webhooks.read', summary: 'Reads a webhook', params: WebhookParams, response: { 200: data(WebhookReply), ...denied, 404: ErrorBody } } },
    async (request) => ({ data: webhookView(await webhookOr404(request.em, request.params.id)) }),
  );

  app.patch(
    '/webhooks/:id',
    { config: { scope: 'write_config' }, schema: { operationId: 'configuration.webhooks.update', summary: 'Updates a webhook', params: WebhookParams, body: UpdateWebhookBody, response: { 200: data(WebhookReply), ...writeErrors } } },
    async (request) => {
      const webhook = await webhookOr404(request.em, request.params.id);
      const { secret_key, ...fields } = request.body;
      const secretSealed = secret_key !== undefined && secret_key.trim() !== '' ? sealSecret(secret_key, app.secretsKey) : undefined;
      await updateWebhook(request.em, webhook, { ...fields, secretSealed });
      return { data: webhookView(webhook) };
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { scope: 'write_config' },
      schema: {
        operationId: 'configuration.webhooks.delete',
        summary: 'Deletes a webhook',
        description: 'Deletes the webhook: nothing more is sent to it (deliveries under way end as `disabled`); 200 `{data: {id, deleted: true}}`.',
        params: WebhookParams,
        response: { 200: data(z.object({ id: z.uuid(), deleted: z.literal(true) })), ...writeErrors },
      },
    },
    async (request) => {
      const webhook = await webhookOr404(request.em, request.params.id);
      await deleteWebhook(request.em, webhook);
      return { data: { id: webhook.id, deleted: true as const } };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'configuration.webhooks.deliveries.list',
        summary: 'Lists a webhook\'s deliveries',
        description: `The webhook's deliveries (one per event), ${DELIVERIES_PER_PAGE} a page, newest first, each with its attempts (newest first): time, HTTP status, duration, error.`,
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...denied, 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const webhook = await webhookOr404(request.em, request.params.id);
      const page = { page: request.query.page, per_page: DELIVERIES_PER_PAGE };
      const [deliveries, total] = await deliveryPage(request.em, webhook.id, pageWindow(page));
      return { data: await withAttempts(request.em, deliveries), meta: pageMeta(page, total) };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config: { scope: 'write_config' },
      schema: {
        operationId: 'configuration.webhooks.deliveries.redeliver',
        summary: 'Delivers a webhook event again',
        description:
          'Addition to the spec: sends one delivery again, now, as one attempt (no retries), with the same body and `webhook-id`. 202 with the delivery (`pending` until the attempt is made; its history shows the attempt with `manual: true`). 409 while the delivery is still pending or when the webhook is not active.',
        params: DeliveryParams,
        response: { 202: data(DeliveryReply), ...writeErrors, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { platformId } = configurationKeyOf(request);
      const webhook = await webhookOr404(request.em, request.params.id);
      const view = await redeliver(request.em, app.workflows, {
        delivery: await findDelivery(request.em, webhook.id, request.params.delivery_id),
        tables: PLATFORM_WEBHOOK_TABLES,
        tenantId: platformId,
        webhook: { active: webhook.active, deleted: false },
        record: (tx, delivery, redelivery) => app.workflows.access.redeliverWebhook(tx, { platformId, webhookId: webhook.id, eventId: delivery.event.id, redelivery }),
        view: async (delivery) => (await withAttempts(request.em, [delivery]))[0]!,
      });
      return reply.code(202).send({ data: view });
    },
  );
};
