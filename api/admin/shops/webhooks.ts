import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { IShopWebhook, IShopWebhookDelivery } from '../../../db/entities/shop/index.ts';
import { sealSecret } from '../../../adapters/secrets/secret-box.ts';
import { SHOP_WEBHOOK_TABLES } from '../../../db/repositories/shared/webhook-deliveries.ts';
import { createShopWebhook, deleteShopWebhook, findLiveShopWebhook, findShopDelivery, findShopWebhook, listShopWebhooks, shopAttemptsOf, shopDeliveryPage } from '../../../db/repositories/shop/webhooks.ts';
import { DELIVERIES_PER_PAGE } from '../../../domain/shared/webhooks.ts';
import { SHOP_WEBHOOK_EVENTS } from '../../../domain/shop/webhooks.ts';
import { webhookUrl } from '../../configuration/webhooks/schemas.ts';
import { PageMeta, pageMeta, PageQuery, pageWindow } from '../../shared/pagination.ts';
import { redeliver } from '../../shared/redelivery.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { orderDeliveryReply, orderDeliveryViews } from '../../shop/shared/delivery-views.ts';
import { notFound } from '../../shared/errors.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const events = z
  .array(z.enum(SHOP_WEBHOOK_EVENTS, { error: `must be one of ${SHOP_WEBHOOK_EVENTS.join(', ')}` }))
  .min(1, 'subscribe to at least one event')
  .max(SHOP_WEBHOOK_EVENTS.length * 2)
  .transform((list) => [...new Set(list)]);

const CreateShopWebhookBody = z.object({
  url: webhookUrl,
  events,
  secret_key: z
    .string()
    .max(512)
    .refine((value) => value.trim() !== '', 'is required')
    .describe('write-only: signs deliveries (use 32 or more random bytes; a Standard Webhooks `whsec_<base64>` secret works too)'),
});

const ShopWebhookReply = z
  .object({ id: z.uuid(), url: z.string(), events: z.array(z.enum(SHOP_WEBHOOK_EVENTS)), active: z.boolean(), created_at: z.iso.datetime() })
  .meta({ id: 'OperatorShopWebhook' });
const ShopWebhookParams = ShopParams.extend({ id: z.uuid() });
const ShopDeliveryParams = ShopWebhookParams.extend({ delivery_id: z.uuid() });

const ShopDeliveryReply = orderDeliveryReply(SHOP_WEBHOOK_EVENTS);

const orderIdOf = (d: IShopWebhookDelivery) => Number((d.payload.order as { id?: unknown } | undefined)?.id ?? NaN) || null;

const webhookView = (w: IShopWebhook): z.input<typeof ShopWebhookReply> => ({ id: w.id, url: w.url, events: w.events, active: w.active, created_at: w.createdAt.toISOString() });

/**
 * A shop's own webhooks (DESIGN.md sections 8 and 10): `order_placed`, `order_cleared`,
 * `order_status_changed` and `customer_erased`,
 * delivered and signed as the platform's webhooks. The secret is sealed with `SECRETS_KEY` and
 * never returned.
 */
export const shopWebhookAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  const webhookOr404 = async (em: EntityManager, shopId: string, id: string) => {
    await shopOf(em, shopId);
    const webhook = await findLiveShopWebhook(em, id.toLowerCase());
    if (!webhook) throw notFound('webhook');
    return webhook;
  };

  app.post(
    '/shops/:shop_id/webhooks',
    {
      schema: {
        operationId: 'admin.shops.webhooks.create',
        summary: 'Creates a shop webhook',
        description:
          'Creates a shop webhook; 201 with the webhook (never its secret). Deliveries: `POST` of `{type, timestamp, data: {id, order: {...}}}` signed as the platform\'s webhooks (`X-Webhook-Signature`, Standard Webhooks headers), the same SSRF rules (a private address is accepted here and its deliveries fail), retry schedule and attempt history.',
        params: ShopParams,
        body: CreateShopWebhookBody,
        response: { 201: data(ShopWebhookReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { url, events: subscribed, secret_key } = request.body;
      const webhook = await createShopWebhook(request.em, { shop: shop.id, url, events: subscribed, secretSealed: sealSecret(secret_key, app.secretsKey) });
      return reply.code(201).send({ data: webhookView(webhook) });
    },
  );

  app.get(
    '/shops/:shop_id/webhooks',
    { schema: { operationId: 'admin.shops.webhooks.list', summary: 'Lists the shop\'s webhooks', description: "The shop's webhooks, oldest first.", params: ShopParams, response: { 200: data(z.array(ShopWebhookReply)), 404: ErrorBody } } },
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      return { data: (await listShopWebhooks(request.em)).map(webhookView) };
    },
  );

  app.delete(
    '/shops/:shop_id/webhooks/:id',
    {
      schema: {
        operationId: 'admin.shops.webhooks.delete',
        summary: 'Deletes a shop webhook',
        description: 'Deletes the webhook: nothing more is sent to it (deliveries under way end as `disabled`); its history stays.',
        params: ShopWebhookParams,
        response: { 200: data(z.object({ id: z.uuid(), deleted: z.literal(true) })), 404: ErrorBody },
      },
    },
    async (request) => {
      const webhook = await webhookOr404(request.em, request.params.shop_id, request.params.id);
      await deleteShopWebhook(request.em, webhook);
      return { data: { id: webhook.id, deleted: true as const } };
    },
  );

  app.get(
    '/shops/:shop_id/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'admin.shops.webhooks.deliveries.list',
        summary: 'Lists a webhook\'s deliveries',
        description: `The webhook's deliveries (one per order transition), ${DELIVERIES_PER_PAGE} a page, newest first, each with its attempts (newest first): time, HTTP status, duration, error.`,
        params: ShopWebhookParams,
        querystring: PageQuery.pick({ page: true }),
        response: { 200: z.object({ data: z.array(ShopDeliveryReply), meta: PageMeta }), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const webhook = await webhookOr404(request.em, request.params.shop_id, request.params.id);
      const page = { page: request.query.page, per_page: DELIVERIES_PER_PAGE };
      const [deliveries, total] = await shopDeliveryPage(request.em, webhook.id, pageWindow(page));
      const attempts = await shopAttemptsOf(request.em, deliveries.map((d) => d.id));
      return { data: orderDeliveryViews(deliveries, attempts, orderIdOf), meta: pageMeta(page, total) };
    },
  );

  app.post(
    '/shops/:shop_id/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        operationId: 'admin.shops.webhooks.deliveries.redeliver',
        summary: 'Delivers a shop webhook event again',
        description:
          "Sends one delivery again, now, as one attempt (no retries), with the same body and `webhook-id`, as the platform's redelivery. 202 with the delivery (`pending` until the attempt is made; its history then shows the attempt with `manual: true`, and the order's `webhook` effect says what happened). 409 while the delivery is still pending or when the webhook is not active or deleted; 404 for a webhook or delivery that is not the shop's.",
        params: ShopDeliveryParams,
        response: { 202: data(ShopDeliveryReply), 404: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const { shop_id: shopId, id, delivery_id: deliveryId } = request.params;
      await shopOf(request.em, shopId);
      // A deleted webhook is still the shop's: its deliveries are a 409, not a 404.
      const webhook = await findShopWebhook(request.em, id.toLowerCase());
      if (!webhook) throw notFound('webhook');
      const view = await redeliver(request.em, app.workflows, {
        delivery: await findShopDelivery(request.em, webhook.id, deliveryId),
        tables: SHOP_WEBHOOK_TABLES,
        tenantId: shopId,
        webhook: { active: webhook.active, deleted: webhook.deletedAt != null },
        record: (tx, delivery, redelivery) => app.workflows.shop.redeliverShopWebhook(tx, { shopId, webhookId: webhook.id, deliveryId: delivery.id, redelivery }),
        view: async (delivery) => orderDeliveryViews([delivery], await shopAttemptsOf(request.em, [delivery.id]), orderIdOf)[0]!,
      });
      return reply.code(202).send({ data: view });
    },
  );
};
