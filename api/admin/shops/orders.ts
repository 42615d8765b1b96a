import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findOrderDetail } from '../../../db/repositories/shop/orders.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { placeOrder } from '../../shop/placement/place-order.ts';
import { PlaceOrderBody } from '../../shop/placement/schemas.ts';
import { OrderDetailReply } from '../../shop/orders/schemas.ts';
import { orderDetail } from '../../../domain/shop/order-document.ts';
import { ShopParams } from './schemas.ts';
import { shopOf } from './routes.ts';

/**
 * Operator order placement `POST /admin/v1/shops/:shop_id/orders` (DESIGN.md section 8): the
 * use case `placeOrder` (api/shop/placement/), which the storefront's checkout calls too.
 */
export const shopOrderAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.post(
    '/shops/:shop_id/orders',
    {
      schema: {
        operationId: 'admin.shops.orders.place',
        summary: 'Places an order priced by the shop\'s rules',
        description:
          'Places an order at catalogue prices (or the buyer\'s price for allow_price_change products), starting placed, unpaid, at the New status. ' +
          '`discount_code` (unknown, not issued, inactive, outside its dates, used up in total or by this customer, or below its minimum: 422) is applied by its rules and its use counted with the order. ' +
          'Automatic discounts (email address, email domain, newsletter consent, time-limited) apply by their rules, the best one per line; `combine_with_other_discount` of the code decides whether it stacks on them. ' +
          '`product_set_id` orders a product set at its price (pool mode: the picks in `items`). ' +
          'Checkout data (`delivery_point_code`, `invoice_recipient_name`, `order_attributes`) and the buyer\'s GA4 `analytics_client_id` are kept on the order as sent; each shows in the order detail but the client id, which only the purchase event reports.',
        params: ShopParams,
        body: PlaceOrderBody,
        response: { 201: data(OrderDetailReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { id: orderId } = await placeOrder({ workflows: app.workflows }, request.em, shop, request.body);
      const placed = await findOrderDetail(request.em, orderId);
      return reply.code(201).send({ data: orderDetail(placed!.order, placed!.items) });
    },
  );
};
