import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IOrderStatus } from '../../../../db/entities/shop/index.ts';
import { isShopSender, listOrderStatuses, rewriteOrderStatus, shopAutomaticGraph, shopDeliveryTypeIds } from '../../../../db/repositories/shop/order-status-config.ts';
import { applyAutomaticWrite, storedAutomaticRule } from '../../../../domain/shop/automatic-status.ts';
import { isBuiltInStatus } from '../../../../domain/shop/order-statuses.ts';
import { applyEmailWrite, storedTemplate } from '../../../../domain/shop/status-mail.ts';
import { pageMeta, pageOf, PageQuery, pageWindow } from '../../../shared/pagination.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../../shared/schemas.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../../shared/validation-errors.ts';
import { OrderStatusConfigReply, OrderStatusParams, PatchOrderStatusBody, type PatchOrderStatus } from './schemas.ts';
import { orderStatusConfigReply } from './serialize.ts';
import { statusOr404 } from './lookup.ts';
import { testMailRoutes } from './test-mails.ts';

/** What the shop has that a write may name, read once before the status is locked. */
interface ShopFacts {
  deliveryTypeIds: Set<number>;
  automatic: Awaited<ReturnType<typeof shopAutomaticGraph>>;
}

/**
 * The status's new values after a PATCH (rules 2-4), or every problem of the write (one 422,
 * nothing changed): a built-in's rename, a sender of another shop, the mail and its blocks, the
 * automatic rule.
 */
function statusWrite(status: IOrderStatus, body: PatchOrderStatus, facts: ShopFacts, senderKnown: boolean): Partial<IOrderStatus> {
  const problems: FieldErrors = fieldErrorMap();
  const values: Partial<IOrderStatus> = {};
  if (body.name !== undefined && body.name !== status.name) {
    if (isBuiltInStatus(status.kind)) problems.name = ['a built-in status cannot be renamed (name_editable is false)'];
    else values.name = body.name;
  }
  if (body.sender_id !== undefined) {
    if (body.sender_id !== null && !senderKnown) problems.sender_id = ['is not a sender of this shop'];
    else values.senderId = body.sender_id;
  }
  if (body.send_email_on_status_change !== undefined) values.sendEmailOnStatusChange = body.send_email_on_status_change;
  if (body.treat_order_as_handled !== undefined) values.treatOrderAsHandled = body.treat_order_as_handled;
  if (body.bcc_email_address !== undefined) values.bccEmailAddress = body.bcc_email_address || null;
  if (body.email !== undefined) {
    const result = applyEmailWrite(storedTemplate(status.email), body.email, facts.deliveryTypeIds);
    if (result.ok) values.email = { ...result.template };
    else Object.assign(problems, result.errors);
  }
  if (body.automatically_set !== undefined) {
    const result = applyAutomaticWrite(storedAutomaticRule(status.automaticallySet), body.automatically_set, status.id, facts.automatic);
    if (result.ok) values.automaticallySet = result.rule && { ...result.rule };
    else Object.assign(problems, result.errors);
  }
  if (Object.keys(problems).length > 0) throw unprocessable(problems);
  return values;
}

/**
 * Order status configuration (spec: Endpoints > Order status configuration): the statuses with
 * their mail and automation settings. Reads need `read`, writes and test mails `write_storefront`.
 * Statuses are neither created nor deleted here (rule 1).
 */
export const orderStatusConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_storefront' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

  app.get(
    '/configuration/order_statuses',
    { config: read, schema: { operationId: 'shop.configuration.order_statuses.list', summary: 'Lists order status settings', querystring: PageQuery, response: { 200: pageOf(OrderStatusConfigReply), ...errors } } },
    async (request) => {
      const [rows, total] = await listOrderStatuses(request.em, pageWindow(request.query));
      return { data: rows.map(orderStatusConfigReply), meta: pageMeta(request.query, total) };
    },
  );

  app.get(
    '/configuration/order_statuses/:id',
    { config: read, schema: { operationId: 'shop.configuration.order_statuses.read', summary: 'Reads an order status\'s settings', params: OrderStatusParams, response: { 200: data(OrderStatusConfigReply), ...errors } } },
    async (request) => ({ data: orderStatusConfigReply(await statusOr404(request.em, request.params.id)) }),
  );

  app.patch(
    '/configuration/order_statuses/:id',
    {
      config: write,
      schema: {
        operationId: 'shop.configuration.order_statuses.update',
        summary: 'Updates an order status\'s settings',
        description: 'Changes only the sent fields (`email` and `automatically_set` merge into the current ones). Every 422 leaves the status unchanged.',
        params: OrderStatusParams,
        body: PatchOrderStatusBody,
        response: { 200: data(OrderStatusConfigReply), ...errors },
      },
    },
    async (request) => {
      const { em } = request;
      const { id } = await statusOr404(em, request.params.id);
      const body = request.body ?? {};
      const deliveryTypeIds = body.email?.delivery_type_substitutions !== undefined ? await shopDeliveryTypeIds(em) : new Set<number>();
      const automatic = body.automatically_set ? await shopAutomaticGraph(em) : { statusIds: new Set<number>(), edges: [] };
      const senderKnown = typeof body.sender_id === 'number' && (await isShopSender(em, body.sender_id));
      const updated = await rewriteOrderStatus(em, id, (status) => statusWrite(status, body, { deliveryTypeIds, automatic }, senderKnown));
      return { data: orderStatusConfigReply(updated) };
    },
  );

  await app.register(testMailRoutes);
};
