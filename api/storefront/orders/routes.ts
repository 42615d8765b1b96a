import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderByUuid } from '../../../db/repositories/shop/storefront.ts';
import { copyUrl } from '../../../domain/shop/cart.ts';
import { buyerOrder } from '../../../domain/shop/order-document.ts';
import { invoiceOfOrder, invoicesOfOrder } from '../../../db/repositories/shop/invoices.ts';
import { buyerInvoiceLink } from '../../../domain/shared/public-links.ts';
import { notFound } from '../../shared/errors.ts';
import { InvoicePdfReply, sendInvoicePdf } from '../../shared/invoice-pdf.ts';
import { publicBaseOf } from '../../shared/public-base.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { storefrontShop } from '../shop.ts';
import { BuyerOrderReply, OrderInvoiceParams, OrderUuidParams } from './schemas.ts';

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
      const base = publicBaseOf(request);
      const invoices = ((await invoicesOfOrder(request.em, order.id)) ?? []).map((i) => ({ id: i.id, kind: i.kind, number: i.number, url: buyerInvoiceLink(base, shop.subdomain, order.uuid, i.id) }));
      return { data: { ...buyerOrder(order, items), copy_url: copyUrl(app.storefrontUrl(shop.subdomain), order.uuid), invoices } };
    },
  );

  app.get(
    '/orders/:uuid/invoices/:invoice_id',
    {
      schema: {
        operationId: 'storefront.orders.invoices.read',
        summary: "Reads an invoice of the buyer's order as a PDF",
        description: 'The invoice or correction as a PDF document; 404 when it is not of this order of this shop.',
        params: OrderInvoiceParams,
        produces: ['application/pdf'],
        response: { 200: InvoicePdfReply, 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      await storefrontShop(request);
      const found = await orderByUuid(request.em, request.params.uuid);
      const invoice = found && (await invoiceOfOrder(request.em, found.order.id, request.params.invoice_id));
      if (!invoice) throw notFound('invoice');
      return sendInvoicePdf(reply, invoice.document);
    },
  );
};
