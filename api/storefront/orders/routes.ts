import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderByUuid } from '../../../db/repositories/shop/storefront.ts';
import { copyUrl } from '../../../domain/shop/cart.ts';
import { buyerOrder } from '../../../domain/shop/order-document.ts';
import { notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { storefrontShop } from '../shop.ts';
import { BuyerOrderReply, OrderUuidParams } from './schemas.ts';

/** The buyer's order, reached only through its secret uuid. */
export const storefrontOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/orders/:uuid',
    {
      schema: {
        operationId: 'storefront.orders.get',
        summary: "Reads the buyer's view of an order",
        description: 'Status, items, totals and the copy link; 404 for an uuid of no order of this shop.',
        params: OrderUuidParams,
        response: { 200: data(BuyerOrderReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await storefrontShop(request);
      const found = await orderByUuid(request.em, request.params.uuid);
      if (!found) throw notFound('order');
      const { order, items } = found;
      return { data: { ...buyerOrder(order, items), copy_url: copyUrl(app.storefrontUrl(shop.subdomain), order.uuid) } };
    },
  );
};
