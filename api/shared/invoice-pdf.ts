import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { renderInvoicePdf } from '../../adapters/invoices/invoice-pdf.ts';
import type { InvoiceDocument } from '../../domain/shop/invoice.ts';

/** The 200 of an invoice's PDF in the OpenAPI document. */
export const InvoicePdfReply = z.any().describe('the invoice as a PDF document (application/pdf)');

/** An invoice's stored document rendered (the same bytes each time), inline, named after its number. */
export async function sendInvoicePdf(reply: FastifyReply, document: InvoiceDocument): Promise<FastifyReply> {
  const bytes = await renderInvoicePdf(document);
  return reply
    .type('application/pdf')
    .header('content-disposition', `inline; filename="${document.number.replaceAll('/', '-')}.pdf"`)
    .header('x-content-type-options', 'nosniff')
    .send(Buffer.from(bytes));
}
