import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listActiveDeliveryTypes, listActivePaymentTypes, listProductCategories, listVisibleOrderStatuses } from '../../../db/repositories/shop/reference.ts';
import { categoryTree } from '../../../domain/shop/category-tree.ts';
import { PageQuery, pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { data } from '../../shared/schemas.ts';
import { CategoryNodeReply, DeliveryTypeReply, OrderStatusReply, PaymentTypeReply } from './schemas.ts';

/** Reference lists (spec: Reference lists): active delivery and payment types, visible statuses, the category tree. */
export const referenceListRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { scope: 'read' } as const;

  app.get('/delivery_types', { config, schema: { operationId: 'shop.delivery_types.list', summary: 'Lists the shop\'s delivery types', querystring: PageQuery, response: { 200: pageOf(DeliveryTypeReply) } } }, async (request) => {
    const [rows, total] = await listActiveDeliveryTypes(request.em, pageWindow(request.query));
    return {
      data: rows.map((t) => ({ id: t.id, name: t.name, name_displayed: t.nameDisplayed, default_price: t.defaultPrice, vat_rate: t.vatRate })),
      meta: pageMeta(request.query, total),
    };
  });

  app.get('/payment_types', { config, schema: { operationId: 'shop.payment_types.list', summary: 'Lists the shop\'s payment types', querystring: PageQuery, response: { 200: pageOf(PaymentTypeReply) } } }, async (request) => {
    const [rows, total] = await listActivePaymentTypes(request.em, pageWindow(request.query));
    return {
      data: rows.map((t) => ({
        id: t.id,
        name: t.name,
        name_displayed: t.nameDisplayed,
        default_price: t.defaultPrice,
        vat_rate: t.vatRate,
        cash_on_delivery: t.cashOnDelivery,
      })),
      meta: pageMeta(request.query, total),
    };
  });

  app.get('/order_statuses', { config, schema: { operationId: 'shop.order_statuses.list', summary: 'Lists the shop\'s order statuses', querystring: PageQuery, response: { 200: pageOf(OrderStatusReply) } } }, async (request) => {
    const [rows, total] = await listVisibleOrderStatuses(request.em, pageWindow(request.query));
    return { data: rows.map((s) => ({ id: s.id, name: s.name })), meta: pageMeta(request.query, total) };
  });

  app.get(
    '/product_categories',
    {
      config,
      schema: { operationId: 'shop.product_categories.list', summary: 'Lists the shop\'s product categories', description: 'The whole category tree: top-level categories with their sub-categories in `children`.', response: { 200: data(z.array(CategoryNodeReply)) } },
    },
    async (request) => ({ data: categoryTree(await listProductCategories(request.em)) }),
  );
};
