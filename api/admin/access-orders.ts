import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findAccessOrder } from '../../db/repositories/access/orders.ts';
import { filesOfOrder } from '../../domain/access/order-files.ts';
import { notFound } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { usePlatform } from './platform-scope.ts';
import { AccessOrderParams, AccessOrderReply, data } from './schemas.ts';

/** The operator's read of an order registered through `POST /api/orders` (issue 40 item 5: its gift code and files). */
export const accessOrderAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/platforms/:platform_id/orders/:order_id',
    {
      schema: {
        operationId: 'admin.platforms.orders.get',
        summary: 'An order registered through the access interface',
        description: 'The order as registered (the first registration of its `external_id`), its status and times, its gift code and its files. 404 for an unknown order or another platform\'s.',
        params: AccessOrderParams,
        response: { 200: data(AccessOrderReply), 400: ValidationErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await usePlatform(request.em, request.params.platform_id);
      const order = await findAccessOrder(request.em, request.params.order_id);
      if (!order) throw notFound('order');
      return {
        data: {
          id: order.id,
          external_id: order.externalId,
          email: order.email,
          ordinal_number: order.ordinalNumber ?? null,
          gift_code: order.giftCode ?? null,
          status: order.status,
          ordered_contents: order.orderedContents,
          files: filesOfOrder(order.orderedContents),
          created_at: order.createdAt.toISOString(),
          fulfilled_at: order.fulfilledAt?.toISOString() ?? null,
          cancelled_at: order.cancelledAt?.toISOString() ?? null,
        },
      };
    },
  );
};
