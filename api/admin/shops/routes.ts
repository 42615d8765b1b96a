import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IShop } from '../../../db/entities/shop/index.ts';
import { createOrderStatus, listOrderStatuses } from '../../../db/repositories/shop/order-status-config.ts';
import { existingIds } from '../../../db/repositories/shop/products.ts';
import { createDeliveryType, createPaymentType, createProductCategory, createSender } from '../../../db/repositories/shop/reference.ts';
import { createShop, createShopApiKey, revokeShopApiKey, updateShop, useShop } from '../../../db/repositories/shop/shops.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { HttpError, notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, unprocessable, validationErrorHandler } from '../../shared/validation-errors.ts';
import { generateToken, hashToken, tokenPrefix } from '../../shared/tokens.ts';
import {
  CategoryReply,
  CreateCategoryBody,
  CreateDeliveryTypeBody,
  CreateOrderStatusBody,
  CreatePaymentTypeBody,
  CreateSenderBody,
  CreateShopBody,
  CreateShopKeyBody,
  DeliveryTypeAdminReply,
  OrderStatusAdminReply,
  PatchShopBody,
  PaymentTypeAdminReply,
  SenderReply,
  ShopKeyParams,
  ShopKeyReply,
  ShopParams,
  ShopReply,
} from './schemas.ts';

const shopReply = (shop: IShop) => ({
  id: shop.id,
  subdomain: shop.subdomain,
  name: shop.name,
  currency: shop.currency,
  admin_email: shop.adminEmail ?? null,
  api_enabled: shop.apiEnabled,
  automatic_invoicing: shop.automaticInvoicing,
  invoice_seller: shop.invoiceSeller ? { ...shop.invoiceSeller, bank_account: shop.invoiceSeller.bank_account ?? null } : null,
  time_zone: shop.timeZone,
});

/** The shop named by `:shop_id`, with `em` scoped to it (404 when unknown). */
export async function shopOf(em: EntityManager, shopId: string): Promise<IShop> {
  const shop = await useShop(em, shopId);
  if (!shop) throw notFound('shop');
  return shop;
}

const orderStatusReply = (s: { id: number; name: string; kind: z.infer<typeof OrderStatusAdminReply>['kind']; visible: boolean }) => ({
  id: s.id,
  name: s.name,
  kind: s.kind,
  visible: s.visible,
});

/** The shop side of the operator API (DESIGN.md section 8): shops, keys and reference lists. */
export const shopAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const errors = { 404: ErrorBody, 422: ValidationErrorBody };
  // The shop's operator API answers bad fields 422 {error, errors} (DESIGN.md section 8).
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.post('/shops', { schema: { operationId: 'admin.shops.create', summary: 'Creates a shop', body: CreateShopBody, response: { 201: data(ShopReply), 409: ErrorBody, 422: ValidationErrorBody } } }, async (request, reply) => {
    const { subdomain, name, currency, admin_email } = request.body;
    const shop = await createShop(request.em, { subdomain, name, currency, adminEmail: admin_email ?? null });
    if (!shop) throw new HttpError(409, `subdomain ${subdomain} is taken`);
    return reply.code(201).send({ data: shopReply(shop) });
  });

  app.patch('/shops/:shop_id', { schema: { operationId: 'admin.shops.update', summary: 'Updates a shop', params: ShopParams, body: PatchShopBody, response: { 200: data(ShopReply), ...errors } } }, async (request) => {
    const shop = await shopOf(request.em, request.params.shop_id);
    const { name, api_enabled, automatic_invoicing, invoice_seller, time_zone } = request.body;
    try {
      await updateShop(request.em, shop, { name, apiEnabled: api_enabled, automaticInvoicing: automatic_invoicing, invoiceSeller: invoice_seller, timeZone: time_zone });
    } finally {
      // Every instance hears the switch or the zone (the cached key carries both; updateShop announces it); this one forgets at once, even when the reply fails.
      if (api_enabled !== undefined || time_zone !== undefined) app.shopKeyCache.forgetTenant(shop.id);
    }
    return { data: shopReply(shop) };
  });

  app.post(
    '/shops/:shop_id/api_keys',
    { schema: { operationId: 'admin.shops.api_keys.create', summary: 'Issues a shop API key', params: ShopParams, body: CreateShopKeyBody, response: { 201: data(ShopKeyReply), ...errors } } },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const token = generateToken('sk');
      const scopes = [...new Set(request.body.scopes)];
      const key = await createShopApiKey(request.em, shop, { name: request.body.name, scopes, prefix: tokenPrefix(token), keyHash: hashToken(token) });
      return reply.code(201).send({ data: { id: key.id, name: key.name, prefix: key.prefix, scopes, token } });
    },
  );

  app.delete(
    '/shops/:shop_id/api_keys/:key_id',
    { schema: { operationId: 'admin.shops.api_keys.revoke', summary: 'Revokes a shop API key', params: ShopKeyParams, response: { 200: data(z.object({ id: z.uuid(), revoked: z.literal(true) })), 404: ErrorBody } } },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      if (!(await revokeShopApiKey(request.em, shop.id, request.params.key_id))) throw notFound('API key');
      app.shopKeyCache.forgetTenant(shop.id);
      return { data: { id: request.params.key_id, revoked: true as const } };
    },
  );

  app.post(
    '/shops/:shop_id/product_categories',
    { schema: { operationId: 'admin.shops.product_categories.create', summary: 'Creates a product category', params: ShopParams, body: CreateCategoryBody, response: { 201: data(CategoryReply), ...errors } } },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const parentId = request.body.parent_id ?? null;
      if (parentId !== null && !(await existingIds(request.em, 'product_categories', [parentId])).has(parentId)) {
        throw unprocessable({ parent_id: ['is not a category of this shop'] });
      }
      const category = await createProductCategory(request.em, { shop, name: request.body.name, parentId });
      return reply.code(201).send({ data: { id: category.id, name: category.name, parent_id: parentId } });
    },
  );

  app.post(
    '/shops/:shop_id/delivery_types',
    { schema: { operationId: 'admin.shops.delivery_types.create', summary: 'Creates a delivery type', params: ShopParams, body: CreateDeliveryTypeBody, response: { 201: data(DeliveryTypeAdminReply), ...errors } } },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { name, name_displayed, default_price, vat_rate, active, domestic } = request.body;
      const type = await createDeliveryType(request.em, { shop, name, nameDisplayed: name_displayed ?? name, defaultPrice: default_price, vatRate: vat_rate, active, domestic });
      return reply.code(201).send({
        data: { id: type.id, name, name_displayed: type.nameDisplayed, default_price: type.defaultPrice, vat_rate: type.vatRate, active: type.active, domestic: type.domestic },
      });
    },
  );

  app.post(
    '/shops/:shop_id/payment_types',
    { schema: { operationId: 'admin.shops.payment_types.create', summary: 'Creates a payment type', params: ShopParams, body: CreatePaymentTypeBody, response: { 201: data(PaymentTypeAdminReply), ...errors } } },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { name, name_displayed, default_price, vat_rate, cash_on_delivery, active } = request.body;
      const type = await createPaymentType(request.em, {
        shop,
        name,
        nameDisplayed: name_displayed ?? name,
        defaultPrice: default_price,
        vatRate: vat_rate,
        cashOnDelivery: cash_on_delivery,
        active,
      });
      return reply.code(201).send({
        data: {
          id: type.id,
          name,
          name_displayed: type.nameDisplayed,
          default_price: type.defaultPrice,
          vat_rate: type.vatRate,
          cash_on_delivery: type.cashOnDelivery,
          active: type.active,
        },
      });
    },
  );

  app.get('/shops/:shop_id/order_statuses', { schema: { operationId: 'admin.shops.order_statuses.list', summary: 'Lists the shop\'s order statuses', params: ShopParams, response: { 200: data(z.array(OrderStatusAdminReply)), 404: ErrorBody } } }, async (request) => {
    await shopOf(request.em, request.params.shop_id);
    const statuses = (await listOrderStatuses(request.em))[0];
    return { data: statuses.map(orderStatusReply) };
  });

  app.post(
    '/shops/:shop_id/order_statuses',
    { schema: { operationId: 'admin.shops.order_statuses.create', summary: 'Creates an order status', params: ShopParams, body: CreateOrderStatusBody, response: { 201: data(OrderStatusAdminReply), ...errors } } },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const status = await createOrderStatus(request.em, shop, request.body);
      return reply.code(201).send({ data: orderStatusReply(status) });
    },
  );

  app.post(
    '/shops/:shop_id/senders',
    { schema: { operationId: 'admin.shops.senders.create', summary: 'Adds a mail sender', params: ShopParams, body: CreateSenderBody, response: { 201: data(SenderReply), ...errors } } },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const sender = await createSender(request.em, { shop, name: request.body.name, email: request.body.email.toLowerCase() });
      return reply.code(201).send({ data: { id: sender.id, name: sender.name, email: sender.email } });
    },
  );
};
