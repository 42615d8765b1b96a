import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findOrderDetail } from '../../../db/repositories/shop/orders.ts';
import { listOrders, type OrderListFilters } from '../../../db/repositories/shop/order-list.ts';
import { copyUrl } from '../../../domain/shop/cart.ts';
import { nextDay, startOfDayIn } from '../../../domain/shared/time-zones.ts';
import { notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { precompiledSerializer } from '../../shared/precompiled-serializer.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../shared/schemas.ts';
import { shopKeyOf } from '../auth.ts';
import { OrderDetailWithCopyReply, OrderListItemReply, OrderListQuery, OrderParams, type OrderListQueryInput } from './schemas.ts';
import { orderDetail, orderListItem } from '../../../domain/shop/order-document.ts';

/** The list query as repository filters; dates are whole days in the shop's time zone, date_to inclusive. */
function filtersOf(query: OrderListQueryInput, timeZone: string): OrderListFilters {
  return {
    statusId: query.status,
    internalStatus: query.internal_status,
    paid: query.payment_status === undefined ? undefined : query.payment_status === 'paid',
    placedFrom: query.date_from ? startOfDayIn(query.date_from, timeZone) : undefined,
    placedBefore: query.date_to ? startOfDayIn(nextDay(query.date_to), timeZone) : undefined,
    email: query.customer_email?.trim().toLowerCase(),
    ordinalNumber: query.search,
    productIds: query.product_id,
    skus: query.sku,
  };
}

/** Orders (spec: Endpoints/Orders): the list with every filter of the list query, and the detail. */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { scope: 'read' } as const;
  // The list's page is built from our own statement: written by fast-json-stringify, not a zod pass (issue 26).
  const serializerCompiler = precompiledSerializer([200]);

  app.get(
    '/orders',
    {
      config,
      serializerCompiler,
      schema: {
        operationId: 'shop.orders.list',
        summary: 'Lists orders',
        description: 'Orders of the shop, newest first (placed_at). Dates are whole days in the shop\'s time zone, both inclusive. Unknown query parameters are refused (422).',
        querystring: OrderListQuery,
        response: { 200: pageOf(OrderListItemReply), 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const [orders, total] = await listOrders(request.em, shopKeyOf(request).shopId, filtersOf(request.query, shopKeyOf(request).timeZone), pageWindow(request.query));
      return { data: orders.map(orderListItem), meta: pageMeta(request.query, total) };
    },
  );

  app.get(
    '/orders/:id',
    { config, schema: { operationId: 'shop.orders.read', summary: 'Reads an order', params: OrderParams, response: { 200: data(OrderDetailWithCopyReply), 404: ErrorBody, 422: ValidationErrorBody } } },
    async (request) => {
      const found = await findOrderDetail(request.em, request.params.id);
      if (!found) throw notFound('order');
      return { data: { ...orderDetail(found.order, found.items), copy_url: copyUrl(app.storefrontUrl(shopKeyOf(request).subdomain), found.order.uuid) } };
    },
  );
};
