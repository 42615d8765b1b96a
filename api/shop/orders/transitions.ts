import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isShopOrderStatus } from '../../../db/repositories/shop/order-status-config.ts';
import { recordStatusChange } from '../../../db/repositories/shop/order-transitions.ts';
import { findOrderDetail } from '../../../db/repositories/shop/orders.ts';
import { notFound } from '../../shared/errors.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../shared/schemas.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import { clearOrder } from './clear-order.ts';
import { OrderDetailReply, OrderParams } from './schemas.ts';
import { orderDetail } from '../../../domain/shop/order-document.ts';

/** The order's list fields the clearing reports (picked by the serializer from `clearOrder`'s answer). */
const ClearReply = z.object({
  id: z.number(),
  ordinal_number: z.number(),
  internal_status: z.string(),
  order_status: z.string(),
  email: z.string(),
  total: z.string(),
  currency: z.string(),
  paid: z.boolean(),
  cleared_at: z.string().nullable(),
  delivery_method: z.string().nullable(),
  placed_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
const ClearRefusedReply = z.object({ error: z.string(), message: z.string() }).describe('`Already Cleared` for a paid order; a zero total or an order that is not placed is refused too.');
const StatusBody = z.strictObject({ order_status_id: z.number().int().positive().max(2_147_483_647) });

/**
 * Order transitions (spec: States and transitions): the status change and the clearing. The
 * database decides under concurrency (a locked row, a conditional update); the side effects then
 * run in a workflow whose id is the transition's, so a repeated request never repeats an effect.
 */
export const orderTransitionRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { scope: 'write_data' } as const;

  app.patch(
    '/orders/:id/status',
    {
      config,
      schema: {
        operationId: 'shop.orders.set_status',
        summary: 'Moves an order to another status',
        description: 'Sets the status and starts its side effects (status mail, webhooks, club webhook, sequences). The order\'s current status again changes nothing and sends nothing.',
        params: OrderParams,
        body: StatusBody,
        response: { 200: data(OrderDetailReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const orderId = request.params.id;
      const statusId = request.body.order_status_id;
      if (!(await findOrderDetail(request.em, orderId))) throw notFound('order');
      if (!(await isShopOrderStatus(request.em, statusId))) throw unprocessable({ order_status_id: ['is not an order status of this shop'] });
      // The change's effects are recorded with it (sent once committed, later when Temporal is
      // down); the status set already records nothing.
      const change = await recordStatusChange(request.em, shopId, orderId, statusId, (tx, changeId) => app.workflows.shop.changeOrderStatus(tx, { shopId, orderId, changeId, statusId }));
      await app.workflows.startRecorded(change?.recorded);
      request.em.clear();
      const found = await findOrderDetail(request.em, orderId);
      return { data: orderDetail(found!.order, found!.items) };
    },
  );

  app.patch(
    '/orders/:id/clear',
    {
      config,
      schema: {
        operationId: 'shop.orders.clear',
        summary: 'Marks an unpaid order paid and starts its clearing effects',
        description: 'Marks a placed, unpaid order with a total above zero as paid (status Paid) and starts the clearing effects. Cannot be undone here.',
        params: OrderParams,
        response: { 200: data(ClearReply), 404: ErrorBody, 422: ClearRefusedReply },
      },
    },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const orderId = request.params.id;
      const { order, recorded } = await clearOrder(request.em, (tx, ids) => app.workflows.shop.clearOrder(tx, ids), shopId, orderId);
      await app.workflows.startRecorded(recorded);
      return { data: order };
    },
  );
};
