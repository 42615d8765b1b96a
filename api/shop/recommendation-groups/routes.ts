import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IProductRecommendationGroup } from '../../../db/entities/shop/index.ts';
import { findRecommendationGroup, listRecommendationGroups, saveRecommendationGroup } from '../../../db/repositories/shop/recommendation-groups.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import { ItemListParams, ItemListQuery, deleteRowOr404, lockedRowOr404, sentItemProblems, writeThenRead } from '../shared/item-list.ts';
import { DeletedReply, rowOr404 } from '../shared/path-rows.ts';
import { wrappedFieldNames } from '../shared/wrapped-body.ts';
import { CreateRecommendationGroupBody, PatchRecommendationGroupBody, RecommendationGroupReply, type RecommendationGroupWrite } from './schemas.ts';
import { groupItemValues, recommendationGroupReply, recommendationGroupValues } from './serialize.ts';

/** Writes the sent fields and, when `items` is sent, replaces the items; 422 for a product or item id the shop does not have. */
async function writeGroup(tx: EntityManager, shopId: string, group: IProductRecommendationGroup | null, body: RecommendationGroupWrite) {
  if (body.items) {
    const problems = await sentItemProblems(tx, shopId, body.items, new Set(group?.items.getItems().map((item) => item.id) ?? []));
    if (Object.keys(problems).length > 0) throw unprocessable(problems);
  }
  return saveRecommendationGroup(tx, shopId, group, recommendationGroupValues(body), groupItemValues(body.items));
}

/** Upsell groups (spec: Endpoints / Upsell groups). Reads need `read`, writes `write_data`. */
export const recommendationGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_data' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };
  const errorHandler = wrappedFieldNames('product_recommendation_group');
  const what = 'product recommendation group';

  app.get(
    '/product_recommendation_groups',
    { config: read, schema: { operationId: 'shop.product_recommendation_groups.list', summary: 'Lists upsell groups', querystring: ItemListQuery, response: { 200: pageOf(RecommendationGroupReply), ...errors } } },
    async (request) => {
      const { active, product_id: productId, search } = request.query;
      const [rows, total] = await listRecommendationGroups(request.em, { active, productId, search: search || undefined }, pageWindow(request.query));
      return { data: rows.map(recommendationGroupReply), meta: pageMeta(request.query, total) };
    },
  );

  app.get(
    '/product_recommendation_groups/:id',
    { config: read, schema: { operationId: 'shop.product_recommendation_groups.read', summary: 'Reads an upsell group', params: ItemListParams, response: { 200: data(RecommendationGroupReply), ...errors } } },
    async (request) => ({ data: recommendationGroupReply(await rowOr404(request.em, request.params.id, findRecommendationGroup, what)) }),
  );

  app.post(
    '/product_recommendation_groups',
    { config: write, errorHandler, schema: { operationId: 'shop.product_recommendation_groups.create', summary: 'Creates an upsell group', body: CreateRecommendationGroupBody, response: { 201: data(RecommendationGroupReply), ...errors } } },
    async (request, reply) => {
      const { shopId } = shopKeyOf(request);
      const body = request.body.product_recommendation_group;
      const group = await writeThenRead(
        request.em,
        (tx) => writeGroup(tx, shopId, null, body),
        findRecommendationGroup,
        what,
      );
      return reply.code(201).send({ data: recommendationGroupReply(group) });
    },
  );

  app.patch(
    '/product_recommendation_groups/:id',
    { config: write, errorHandler, schema: { operationId: 'shop.product_recommendation_groups.update', summary: 'Updates an upsell group', params: ItemListParams, body: PatchRecommendationGroupBody, response: { 200: data(RecommendationGroupReply), ...errors } } },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const group = await writeThenRead(
        request.em,
        async (tx) => {
          const stored = await lockedRowOr404(tx, 'shop_recommendation_groups', shopId, request.params.id, findRecommendationGroup, what);
          return writeGroup(tx, shopId, stored, request.body.product_recommendation_group);
        },
        findRecommendationGroup,
        what,
      );
      return { data: recommendationGroupReply(group) };
    },
  );

  app.delete(
    '/product_recommendation_groups/:id',
    { config: write, schema: { operationId: 'shop.product_recommendation_groups.delete', summary: 'Deletes an upsell group', params: ItemListParams, response: { 200: DeletedReply, ...errors } } },
    async (request) => deleteRowOr404(request.em, 'shop_recommendation_groups', shopKeyOf(request).shopId, request.params.id, what),
  );
};
