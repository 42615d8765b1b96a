import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createMailSequence, deleteMailSequence, shopHas } from '../../../db/repositories/shop/mail-sequences.ts';
import { notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, unprocessable, validationErrorHandler } from '../../shared/validation-errors.ts';
import { CreateSequenceBody, SequenceReply } from '../../shop/configuration/email-sequences/schemas.ts';
import { sequenceReply } from '../../shop/configuration/email-sequences/serialize.ts';
import { shopOf } from './routes.ts';
import { DeletedReply, IdParams, ShopParams } from './schemas.ts';

/**
 * The panel's creation and deletion of a mail sequence (DESIGN.md sections 8 and 10; the shop
 * interface only reads and changes sequences, rule 1). It starts without triggers: nothing is sent
 * until a PATCH sets one. Deleted, its runs end and their planned messages are never sent.
 */
export const shopEmailSequenceAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.post(
    '/shops/:shop_id/email_sequences',
    {
      schema: {
        operationId: 'admin.shops.email_sequences.create',
        summary: 'Creates a mail sequence',
        description: 'Creates a sequence with its messages in the order sent; `offset_unit` is `minutes`, `hours` or `days`. 201 with the sequence as `GET /api/v1/configuration/email_sequences/:id` returns it.',
        params: ShopParams,
        body: CreateSequenceBody,
        response: { 201: data(SequenceReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { name, sender_id: senderId = null, items } = request.body;
      if (senderId !== null && !(await shopHas.sender(request.em, senderId))) throw unprocessable({ sender_id: ['is not a sender of this shop'] });
      const created = await createMailSequence(request.em, shop.id, {
        name,
        senderId,
        items: items.map((item) => ({ subject: item.email.subject, content: item.email.content, offsetAmount: item.offset_amount, offsetUnit: item.offset_unit })),
      });
      return reply.code(201).send({ data: sequenceReply(created, shop.timeZone) });
    },
  );

  app.delete(
    '/shops/:shop_id/email_sequences/:id',
    {
      schema: {
        operationId: 'admin.shops.email_sequences.delete',
        summary: 'Deletes a mail sequence',
        description: 'Deletes the sequence with its messages; its running recipients\' planned messages are never sent (their runs end). Messages already sent stay in the mail log.',
        params: IdParams,
        response: { 200: data(DeletedReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      if (!(await deleteMailSequence(request.em, request.params.id))) throw notFound('mail sequence');
      await app.workflows.shop.endMailSequenceRuns(request.log, { shopId: shop.id, sequenceId: request.params.id });
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
};
