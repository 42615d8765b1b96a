import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invoiceOfOrder, invoicesOfOrder } from '../../../db/repositories/shop/invoices.ts';
import { operatorInvoiceLink } from '../../../domain/shared/public-links.ts';
import { notFound } from '../../shared/errors.ts';
import { InvoicePdfReply, sendInvoicePdf } from '../../shared/invoice-pdf.ts';
import { publicBaseOf } from '../../shared/public-base.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../shared/schemas.ts';
import { OrderParams } from './schemas.ts';

const INT_MAX = 2_147_483_647;
const InvoiceParams = OrderParams.extend({ invoice_id: z.coerce.number().int().positive().max(INT_MAX) });

const InvoiceListItem = z
  .object({
    id: z.number(),
    kind: z.enum(['invoice', 'correction']),
    number: z.string(),
    issued_at: z.string().describe('ISO 8601 instant'),
    sale_date: z.string().describe("YYYY-MM-DD in the shop's time zone"),
    currency: z.string(),
    total: z.string().describe('gross, signed: a correction is negative'),
    corrects: z.string().nullable().describe("the corrected invoice's number"),
    url: z.string().describe('absolute link to the PDF'),
  })
  .meta({ id: 'OrderInvoice' });

/** An order's invoices and corrections (DESIGN.md section 10): the list and each one's PDF. */
export const orderInvoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { scope: 'read' } as const;

  app.get(
    '/orders/:id/invoices',
    {
      config,
      schema: {
        operationId: 'shop.orders.invoices.list',
        summary: "Lists an order's invoices",
        description: 'Invoices and corrections of the order, oldest first; 404 for an order of another shop.',
        params: OrderParams,
        response: { 200: data(z.array(InvoiceListItem)), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const invoices = await invoicesOfOrder(request.em, request.params.id);
      if (!invoices) throw notFound('order');
      const base = publicBaseOf(request);
      return {
        data: invoices.map((i) => ({
          id: i.id,
          kind: i.kind,
          number: i.number,
          issued_at: i.issuedAt.toISOString(),
          sale_date: i.document.sale_date,
          currency: i.currency,
          total: i.total,
          corrects: i.document.corrects,
          url: operatorInvoiceLink(base, request.params.id, i.id),
        })),
      };
    },
  );

  app.get(
    '/orders/:id/invoices/:invoice_id',
    {
      config,
      schema: {
        operationId: 'shop.orders.invoices.read',
        summary: 'Reads an invoice as a PDF',
        description: 'The invoice or correction as a PDF document; 404 for an order of another shop.',
        params: InvoiceParams,
        produces: ['application/pdf'],
        response: { 200: InvoicePdfReply, 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const invoice = await invoiceOfOrder(request.em, request.params.id, request.params.invoice_id);
      if (!invoice) throw notFound('invoice');
      return sendInvoicePdf(reply, invoice.document);
    },
  );
};
