import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addClubProducts,
  clubProducts,
  findClub,
  insertClub,
  isShopOrderStatus,
  listableProductIds,
  lockShopForClubWrite,
  removeClubProduct,
  replaceClubProducts,
  updateClub,
  type ClubRow,
} from '../../../../db/repositories/shop/club.ts';
import { paidStatusId } from '../../../../db/repositories/shop/orders.ts';
import { webhookUrlWriteProblem } from '../../../../domain/shop/club-rules.ts';
import { pathId, unknownIds } from '../../../../domain/shop/product-rules.ts';
import { notFound } from '../../../shared/errors.ts';
import { PageMeta, PageQuery } from '../../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../../shared/schemas.ts';
import { CLUB_DELIVERIES_DOC, CLUB_REDELIVER_DOC, ClubDeliveryReply, clubDeliveriesPage, redeliverClubDelivery } from '../../shared/club-deliveries.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../../shared/validation-errors.ts';
import { shopKeyOf } from '../../auth.ts';
import { AddClubProductsBody, ClubDeliveryParams, ClubProductParams, ClubReply, PatchClubBody } from './schemas.ts';
import { clubValues, clubView } from './serialize.ts';

const NOT_A_STATUS = 'is not an order status of this shop';

/** Adds the `product_ids` problem when a sent id is not a product of the shop (all-or-nothing: rule 3). */
async function productProblems(tx: EntityManager, shopId: string, club: ClubRow | null, productIds: readonly number[] | undefined, problems: FieldErrors): Promise<void> {
  if (!productIds?.length) return;
  const missing = unknownIds(productIds, await listableProductIds(tx, shopId, productIds, club?.id ?? null));
  if (missing.length > 0) problems.product_ids = [`not products of this shop: ${missing.join(', ')}`];
}

function throwProblems(problems: FieldErrors): void {
  if (Object.keys(problems).length > 0) throw unprocessable(problems);
}

/**
 * The club write `change` in one transaction, with the shop's club writes serialised (the first
 * PATCH creates the row): a 4xx thrown inside rolls the whole write back.
 */
function clubWrite(em: EntityManager, shopId: string, change: (tx: EntityManager, club: ClubRow | null) => Promise<void>): Promise<void> {
  return em.transactional(async (tx) => {
    await lockShopForClubWrite(tx, shopId);
    await change(tx, await findClub(tx, shopId, true));
  });
}

/**
 * The club integration (spec: Endpoints > Club integration), `read` to read and `write_config` to
 * write. Every reply is the full settings; the address and the key are write-only.
 */
export const clubRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_config' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

  const settings = async (em: EntityManager, shopId: string) => {
    const club = await findClub(em, shopId);
    const [products, paid] = await Promise.all([club ? clubProducts(em, shopId, club.id) : [], paidStatusId(em, shopId)]);
    return { data: clubView(club, products, paid) };
  };

  app.get('/configuration/club', { config: read, schema: { operationId: 'shop.configuration.club.read', summary: 'Reads the club integration', response: { 200: data(ClubReply), ...errors } } }, async (request) =>
    settings(request.em, shopKeyOf(request).shopId),
  );

  app.get(
    '/configuration/club/deliveries',
    {
      config: read,
      schema: {
        operationId: 'shop.configuration.club.deliveries.list',
        summary: "Lists the club webhook's deliveries",
        description: CLUB_DELIVERIES_DOC,
        querystring: PageQuery.pick({ page: true }),
        response: { 200: z.object({ data: z.array(ClubDeliveryReply), meta: PageMeta }), ...errors },
      },
    },
    async (request) => clubDeliveriesPage(request.em, request.query.page),
  );

  app.post(
    '/configuration/club/deliveries/:delivery_id/redeliver',
    {
      config: write,
      schema: {
        operationId: 'shop.configuration.club.deliveries.redeliver',
        summary: 'Delivers a club webhook event again',
        description: CLUB_REDELIVER_DOC,
        params: ClubDeliveryParams,
        response: { 202: data(ClubDeliveryReply), ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(202).send({ data: await redeliverClubDelivery(request.em, app.workflows, shopKeyOf(request).shopId, request.params.delivery_id) }),
  );

  app.patch(
    '/configuration/club',
    {
      config: write,
      schema: {
        operationId: 'shop.configuration.club.update',
        summary: 'Updates the club integration',
        description:
          'Changes only the fields sent; the first PATCH creates the integration and needs `webhook_url`. A validation failure saves nothing, the product list included.',
        body: PatchClubBody,
        response: { 200: data(ClubReply), ...errors },
      },
    },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const body = request.body ?? {};
      await clubWrite(request.em, shopId, async (tx, club) => {
        const problems = fieldErrorMap();
        const urlProblem = webhookUrlWriteProblem(club !== null, body.webhook_url);
        if (urlProblem) problems.webhook_url = [urlProblem];
        if (body.order_status_id !== undefined && !(await isShopOrderStatus(tx, shopId, body.order_status_id))) problems.order_status_id = [NOT_A_STATUS];
        await productProblems(tx, shopId, club, body.product_ids, problems);
        throwProblems(problems);
        const values = clubValues(body, app.secretsKey);
        let clubId = club?.id;
        if (clubId) await updateClub(tx, shopId, clubId, values);
        else clubId = await insertClub(tx, shopId, { ...values, urlSealed: values.urlSealed!, host: values.host!, orderStatusId: values.orderStatusId ?? (await paidStatusId(tx, shopId)) });
        if (body.product_ids) await replaceClubProducts(tx, shopId, clubId, body.product_ids);
      });
      return settings(request.em, shopId);
    },
  );

  app.post(
    '/configuration/club/products',
    {
      config: write,
      schema: {
        operationId: 'shop.configuration.club.products.add',
        summary: 'Adds a product to the club',
        description: 'Adds products to the list, skipping those on it; 404 before the integration exists, 422 (nothing added) for an id that is not a product of the shop.',
        body: AddClubProductsBody,
        response: { 200: data(ClubReply), ...errors },
      },
    },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      await clubWrite(request.em, shopId, async (tx, club) => {
        if (!club) throw notFound('club integration');
        const problems = fieldErrorMap();
        await productProblems(tx, shopId, club, request.body.product_ids, problems);
        throwProblems(problems);
        await addClubProducts(tx, shopId, club.id, request.body.product_ids);
      });
      return settings(request.em, shopId);
    },
  );

  app.delete(
    '/configuration/club/products/:product_id',
    {
      config: write,
      schema: {
        operationId: 'shop.configuration.club.products.remove',
        summary: 'Removes a product from the club',
        description: 'Removes a product from the list (404 when it is not on it); without products the webhook goes for every order.',
        params: ClubProductParams,
        response: { 200: data(ClubReply), ...errors },
      },
    },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const productId = pathId(request.params.product_id);
      await clubWrite(request.em, shopId, async (tx, club) => {
        if (!club) throw notFound('club integration');
        if (productId === null || !(await removeClubProduct(tx, shopId, club.id, productId))) throw notFound('product on the club list');
      });
      return settings(request.em, shopId);
    },
  );
};
