import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addOrderNote, editOrder } from '../../../db/repositories/shop/order-edits.ts';
import { findOrderDetail } from '../../../db/repositories/shop/orders.ts';
import { notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { OrderDetailReply } from '../../shop/orders/schemas.ts';
import { CheckoutDataFields } from '../../shop/placement/schemas.ts';
import { orderDetail } from '../../../domain/shop/order-document.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const OrderParams = ShopParams.extend({ order_id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The columns are varchar(255). */
const text255 = z.string().trim().max(255);
const httpUrl = z.url({ protocol: /^https?$/ }).max(255);

export const EditOrderBody = z
  .strictObject({
    tracking_number: text255.optional().describe('fills `{{NUMER_PACZKI}}` in status mails; "" clears it'),
    tracking_url: z.union([z.literal(''), httpUrl]).optional().describe('an http(s) address, or "" to clear it'),
    delivery_point_code: CheckoutDataFields.delivery_point_code.nullable().optional(),
    invoice_recipient_name: CheckoutDataFields.invoice_recipient_name.optional(),
    transaction_id: text255.nullable().optional(),
    order_attributes: CheckoutDataFields.order_attributes.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field' });

const NoteBody = z.strictObject({ content: z.string().trim().min(1).max(10_000) });
const NoteReply = z.object({ content: z.string(), created_at: z.string() });

/**
 * The panel's edits of an order (DESIGN.md section 8): tracking, delivery point, invoice
 * recipient, transaction id and attributes, and admin notes. Neither changes the status nor runs
 * an effect; a later status mail reads the new values (`{{NUMER_PACZKI}}`).
 */
export const shopOrderEditAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.patch(
    '/shops/:shop_id/orders/:order_id',
    {
      schema: {
        operationId: 'admin.shops.orders.update',
        summary: 'Edits an order\'s tracking, delivery point, invoice recipient, transaction id or attributes.',
        description: 'Writes only the fields sent (`order_attributes` replaces the list). No status change, no effect; 404 for an unknown shop or order.',
        params: OrderParams,
        body: EditOrderBody,
        response: { 200: data(OrderDetailReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const b = request.body;
      const edited = await editOrder(request.em, shop.id, request.params.order_id, {
        trackingNumber: b.tracking_number,
        trackingUrl: b.tracking_url,
        deliveryPointCode: b.delivery_point_code,
        invoiceRecipientName: b.invoice_recipient_name,
        transactionId: b.transaction_id,
        orderAttributes: b.order_attributes,
      });
      if (!edited) throw notFound('order');
      const found = await findOrderDetail(request.em, request.params.order_id);
      return { data: orderDetail(found!.order, found!.items) };
    },
  );

  app.post(
    '/shops/:shop_id/orders/:order_id/notes',
    {
      schema: {
        operationId: 'admin.shops.orders.notes.create',
        summary: 'Adds an admin note to an order.',
        description: 'The note is appended to the order\'s `notes`; concurrent notes all stay.',
        params: OrderParams,
        body: NoteBody,
        response: { 201: data(NoteReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const note = await addOrderNote(request.em, shop.id, request.params.order_id, request.body.content, new Date());
      if (!note) throw notFound('order');
      return reply.code(201).send({ data: note });
    },
  );
};
