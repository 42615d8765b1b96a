import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PageMeta, PageQuery } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { CLUB_DELIVERIES_DOC, CLUB_REDELIVER_DOC, ClubDeliveryReply, clubDeliveriesPage, redeliverClubDelivery } from '../../shop/shared/club-deliveries.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const ClubDeliveryParams = ShopParams.extend({ delivery_id: z.uuid() });

/** The shop's club webhook deliveries for the operator (issue 28): the shop's own history and redelivery, per shop. */
export const shopClubDeliveryAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.get(
    '/shops/:shop_id/club/deliveries',
    {
      schema: {
        operationId: 'admin.shops.club.deliveries.list',
        summary: "Lists the club webhook's deliveries",
        description: CLUB_DELIVERIES_DOC,
        params: ShopParams,
        querystring: PageQuery.pick({ page: true }),
        response: { 200: z.object({ data: z.array(ClubDeliveryReply), meta: PageMeta }), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      return clubDeliveriesPage(request.em, request.query.page);
    },
  );

  app.post(
    '/shops/:shop_id/club/deliveries/:delivery_id/redeliver',
    {
      schema: {
        operationId: 'admin.shops.club.deliveries.redeliver',
        summary: 'Delivers a club webhook event again',
        description: CLUB_REDELIVER_DOC,
        params: ClubDeliveryParams,
        response: { 202: data(ClubDeliveryReply), 404: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return reply.code(202).send({ data: await redeliverClubDelivery(request.em, app.workflows, shop.id, request.params.delivery_id) });
    },
  );
};
