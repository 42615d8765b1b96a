import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { EraseBody, ErasureParams, ErasureReply, ErasureStartedReply, PersonEmailQuery, PersonalDataExportReply, erasureReply, personalDataExport, requestPersonalDataErasure } from '../personal-data.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

/** A customer's data on request (DESIGN.md section 8, issue 29): export, erasure, the erasure's result. */
export const shopCustomerDataAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.get(
    '/shops/:shop_id/customers/export',
    {
      schema: {
        operationId: 'admin.shops.customers.export',
        summary: 'Everything the shop holds about one person',
        description:
          'Orders with addresses and lines, download codes, subscribers with periods and charges, saved payment methods, newsletter consent, discount codes drawn for them, e-mail discounts, mails sent and webhook payloads about their orders; the e-mail compared without letter case. An unknown person gets the same document with every list empty.',
        params: ShopParams,
        querystring: PersonEmailQuery,
        response: { 200: data(PersonalDataExportReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return { data: await personalDataExport(request.em, 'shop', shop.id, request.query.email) };
    },
  );

  app.post(
    '/shops/:shop_id/customers/erase',
    {
      schema: {
        operationId: 'admin.shops.customers.erase',
        summary: "Erases a customer's personal data, as a workflow",
        description:
          'Starts the erasure (`shop/<id>/customer-erasure/<hash of the e-mail>`): orders kept for tax law (numbers, lines, amounts, invoice numbers, dates) with the personal fields replaced; consent, drawn codes and pending mails removed; subscribers ended and their payment method detached; download codes revoked; mails, payloads and the audit log redacted; `customer_erased` to the webhooks. Concurrent and repeated requests make one erasure; read its result at `.../customers/erasures/:erasure_id`.',
        params: ShopParams,
        body: EraseBody,
        response: { 202: data(ErasureStartedReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const started = await requestPersonalDataErasure({ em: request.em, workflows: app.workflows, secretsKey: app.secretsKey }, 'shop', shop.id, request.body.email);
      return reply.code(202).send({ data: started });
    },
  );

  app.get(
    '/shops/:shop_id/customers/erasures/:erasure_id',
    {
      schema: {
        operationId: 'admin.shops.customers.erasures.get',
        summary: "An erasure's status and what it changed per kind of data",
        params: ShopParams.extend(ErasureParams.shape),
        response: { 200: data(ErasureReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return { data: await erasureReply(request.em, 'shop', shop.id, request.params.erasure_id) };
    },
  );
};
