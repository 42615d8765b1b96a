import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { existingIds } from '../../../db/repositories/shop/products.ts';
import {
  categoryAncestors,
  deleteOrderStatus,
  deleteProductCategory,
  deleteSender,
  editDeliveryType,
  editOrderStatus,
  editPaymentType,
  editProductCategory,
  editSender,
  type DeleteOutcome,
} from '../../../db/repositories/shop/reference-edits.ts';
import { HttpError, notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, unprocessable, validationErrorHandler } from '../../shared/validation-errors.ts';
import { shopOf } from './routes.ts';
import {
  CategoryReply,
  DeletedReply,
  DeliveryTypeAdminReply,
  IdParams,
  OrderStatusAdminReply,
  PatchCategoryBody,
  PatchDeliveryTypeBody,
  PatchOrderStatusBody,
  PatchPaymentTypeBody,
  PatchSenderBody,
  PaymentTypeAdminReply,
  SenderReply,
} from './schemas.ts';

const found = <T>(row: T | null, what: string): T => {
  if (!row) throw notFound(what);
  return row;
};

/** 200 `{id, deleted: true}`, 404 for another shop's or an unknown id, 409 naming what still uses it. */
function deletedReply(outcome: DeleteOutcome, id: number, what: string) {
  if (outcome.kind === 'missing') throw notFound(what);
  if (outcome.kind === 'in_use') throw new HttpError(409, outcome.reason);
  return { data: { id, deleted: true as const } };
}

const chargeTypeReply = (t: { id: number; name: string; nameDisplayed: string; defaultPrice: string; vatRate: number; active: boolean }) => ({
  id: t.id,
  name: t.name,
  name_displayed: t.nameDisplayed,
  default_price: t.defaultPrice,
  vat_rate: t.vatRate,
  active: t.active,
});

const schema = <Extra extends object>(operationId: string, summary: string, description: string, extra: Extra) => ({ schema: { operationId, summary, description, params: IdParams, ...extra } });
const errors = { 404: ErrorBody, 422: ValidationErrorBody };
const deleteErrors = { 404: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody };

/**
 * The panel's edits of the shop's reference lists (DESIGN.md section 10): each PATCH takes any
 * field of its POST (checked as there, nothing reset to a default); categories, senders and user
 * statuses are deleted unless in use (409 naming the use). Carts and placements read the types as
 * they are now (a switched-off type is refused there, a new price applies there); placed orders
 * keep the name and price they stored.
 */
export const shopReferenceEditAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.patch(
    '/shops/:shop_id/delivery_types/:id',
    schema('admin.shops.delivery_types.update', 'Changes a delivery type', 'Any field of the POST. A new price reaches new carts and placements; `active: false` takes it out of carts and placements (422 naming `delivery_type_id`); placed orders keep theirs.', {
      body: PatchDeliveryTypeBody,
      response: { 200: data(DeliveryTypeAdminReply), ...errors },
    }),
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      const { name, name_displayed, default_price, vat_rate, active, domestic } = request.body;
      const type = found(await editDeliveryType(request.em, request.params.id, { name, nameDisplayed: name_displayed, defaultPrice: default_price, vatRate: vat_rate, active, domestic }), 'delivery type');
      return { data: { ...chargeTypeReply(type), domestic: type.domestic } };
    },
  );

  app.patch(
    '/shops/:shop_id/payment_types/:id',
    schema('admin.shops.payment_types.update', 'Changes a payment type', 'Any field of the POST; as a delivery type\'s PATCH (`active: false`: 422 naming `payment_type_id` in carts and placements).', {
      body: PatchPaymentTypeBody,
      response: { 200: data(PaymentTypeAdminReply), ...errors },
    }),
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      const { name, name_displayed, default_price, vat_rate, cash_on_delivery, active } = request.body;
      const type = found(
        await editPaymentType(request.em, request.params.id, { name, nameDisplayed: name_displayed, defaultPrice: default_price, vatRate: vat_rate, cashOnDelivery: cash_on_delivery, active }),
        'payment type',
      );
      return { data: { ...chargeTypeReply(type), cash_on_delivery: type.cashOnDelivery } };
    },
  );

  app.patch(
    '/shops/:shop_id/product_categories/:id',
    schema('admin.shops.product_categories.update', 'Changes a product category', '`parent_id` must be another category of the shop that is not below this one (`null`: top level).', {
      body: PatchCategoryBody,
      response: { 200: data(CategoryReply), ...errors },
    }),
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      const { id } = request.params;
      const { name, parent_id: parentId } = request.body;
      if (parentId != null) {
        if (!(await existingIds(request.em, 'product_categories', [parentId])).has(parentId)) throw unprocessable({ parent_id: ['is not a category of this shop'] });
        if (parentId === id || (await categoryAncestors(request.em, parentId)).includes(id)) throw unprocessable({ parent_id: ['is this category or one below it'] });
      }
      const category = found(await editProductCategory(request.em, id, { name, parentId }), 'product category');
      return { data: { id: category.id, name: category.name, parent_id: category.parentId ?? null } };
    },
  );

  app.delete(
    '/shops/:shop_id/product_categories/:id',
    schema('admin.shops.product_categories.delete', 'Deletes a product category', '409 while a product (not deleted) lists it or is fed under it, or while it has sub-categories.', { response: { 200: data(DeletedReply), ...deleteErrors } }),
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return deletedReply(await deleteProductCategory(request.em, shop.id, request.params.id), request.params.id, 'product category');
    },
  );

  app.patch(
    '/shops/:shop_id/senders/:id',
    schema('admin.shops.senders.update', 'Changes a mail sender', 'Mails sent from now on use the new name and address.', { body: PatchSenderBody, response: { 200: data(SenderReply), ...errors } }),
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      const { name, email } = request.body;
      const sender = found(await editSender(request.em, request.params.id, { name, email: email?.toLowerCase() }), 'sender');
      return { data: { id: sender.id, name: sender.name, email: sender.email } };
    },
  );

  app.delete(
    '/shops/:shop_id/senders/:id',
    schema('admin.shops.senders.delete', 'Deletes a mail sender', '409 while an order status\'s mail or a mail sequence sends from it.', { response: { 200: data(DeletedReply), ...deleteErrors } }),
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return deletedReply(await deleteSender(request.em, shop.id, request.params.id), request.params.id, 'sender');
    },
  );

  app.patch(
    '/shops/:shop_id/order_statuses/:id',
    schema('admin.shops.order_statuses.update', 'Changes an order status', 'Renames it or shows/hides it; a built-in status keeps its kind (what placing, clearing and canceling do with it).', {
      body: PatchOrderStatusBody,
      response: { 200: data(OrderStatusAdminReply), ...errors },
    }),
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      const { name, visible } = request.body;
      const status = found(await editOrderStatus(request.em, request.params.id, { name, visible }), 'order status');
      return { data: { id: status.id, name: status.name, kind: status.kind, visible: status.visible } };
    },
  );

  app.delete(
    '/shops/:shop_id/order_statuses/:id',
    schema(
      'admin.shops.order_statuses.delete',
      'Deletes a user order status',
      '409 for a built-in status (never deleted), and for a user status while orders are at it, the club integration sends at it, another status\'s automatic rule follows it or a mail sequence is triggered by it.',
      { response: { 200: data(DeletedReply), ...deleteErrors } },
    ),
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return deletedReply(await deleteOrderStatus(request.em, shop.id, request.params.id), request.params.id, 'order status');
    },
  );
};
