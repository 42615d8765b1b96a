import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IProductSet } from '../../../db/entities/shop/index.ts';
import { createProductSet, findProductSet, listProductSets, lockSlugsOf, slugsLike, updateProductSet } from '../../../db/repositories/shop/product-sets.ts';
import { existingIds } from '../../../db/repositories/shop/products.ts';
import { freeSlug, productSetProblems, setSlugBase } from '../../../domain/shop/product-set-rules.ts';
import { unknownIds } from '../../../domain/shop/product-rules.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import { ItemListParams, ItemListQuery, deleteRowOr404, lockedRowOr404, sentItemProblems, writeThenRead } from '../shared/item-list.ts';
import { DeletedReply, rowOr404 } from '../shared/path-rows.ts';
import { wrappedFieldNames } from '../shared/wrapped-body.ts';
import { CreateProductSetBody, PatchProductSetBody, ProductSetReply, type ProductSetWrite } from './schemas.ts';
import { draftAfter, productSetReply, productSetValues, setItemValues } from './serialize.ts';

/**
 * Every problem of a write (one 422, nothing stored): the set's rules on the set as it is after
 * the write, and ids the shop does not have, named by their field. Runs in the write's
 * transaction, where the products named are locked.
 */
async function setWriteProblems(tx: EntityManager, shopId: string, current: IProductSet | null, body: ProductSetWrite) {
  const problems = productSetProblems(draftAfter(current, body));
  if (body.items) {
    const currentIds = new Set(current?.items.getItems().map((item) => item.id) ?? []);
    Object.assign(problems, await sentItemProblems(tx, shopId, body.items, currentIds));
  }
  const paymentTypes = body.payment_type_ids ?? [];
  const missing = unknownIds(paymentTypes, await existingIds(tx, 'payment_types', paymentTypes));
  if (missing.length > 0) (problems.payment_type_ids ??= []).push(`unknown ids: ${missing.join(', ')}`);
  const category = body.product_category_id;
  if (category != null && !(await existingIds(tx, 'product_categories', [category])).has(category)) {
    (problems.product_category_id ??= []).push('is not a product category of this shop');
  }
  if (Object.keys(problems).length > 0) throw unprocessable(problems);
}

/** Product sets (spec: Endpoints / Product sets). Reads need `read`, writes `write_data`. */
export const productSetRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_data' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };
  const errorHandler = wrappedFieldNames('product_set');
  const what = 'product set';

  app.get(
    '/product_sets',
    { config: read, schema: { operationId: 'shop.product_sets.list', summary: 'Lists product sets', description: 'Sorted by priority, highest first.', querystring: ItemListQuery, response: { 200: pageOf(ProductSetReply), ...errors } } },
    async (request) => {
      const { active, product_id: productId, search } = request.query;
      const [rows, total] = await listProductSets(request.em, { active, productId, search: search || undefined }, pageWindow(request.query));
      return { data: rows.map(productSetReply), meta: pageMeta(request.query, total) };
    },
  );

  app.get('/product_sets/:id', { config: read, schema: { operationId: 'shop.product_sets.read', summary: 'Reads a product set', params: ItemListParams, response: { 200: data(ProductSetReply), ...errors } } }, async (request) => ({
    data: productSetReply(await rowOr404(request.em, request.params.id, findProductSet, what)),
  }));

  app.post(
    '/product_sets',
    { config: write, errorHandler, schema: { operationId: 'shop.product_sets.create', summary: 'Creates a product set', body: CreateProductSetBody, response: { 201: data(ProductSetReply), ...errors } } },
    async (request, reply) => {
      const { shopId } = shopKeyOf(request);
      const body = request.body.product_set;
      const set = await writeThenRead(
        request.em,
        async (tx) => {
          await setWriteProblems(tx, shopId, null, body);
          await lockSlugsOf(tx, shopId);
          const base = setSlugBase(body.name);
          const slug = freeSlug(base, await slugsLike(tx, shopId, base));
          return createProductSet(tx, shopId, { ...productSetValues(body), name: body.name, price: body.price, slug, shop: shopId }, setItemValues(body.items));
        },
        findProductSet,
        what,
      );
      return reply.code(201).send({ data: productSetReply(set) });
    },
  );

  app.patch(
    '/product_sets/:id',
    { config: write, errorHandler, schema: { operationId: 'shop.product_sets.update', summary: 'Updates a product set', params: ItemListParams, body: PatchProductSetBody, response: { 200: data(ProductSetReply), ...errors } } },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const body = request.body.product_set;
      const set = await writeThenRead(
        request.em,
        async (tx) => {
          const stored = await lockedRowOr404(tx, 'shop_product_sets', shopId, request.params.id, findProductSet, what);
          await setWriteProblems(tx, shopId, stored, body);
          return updateProductSet(tx, shopId, stored, productSetValues(body), setItemValues(body.items));
        },
        findProductSet,
        what,
      );
      return { data: productSetReply(set) };
    },
  );

  app.delete(
    '/product_sets/:id',
    { config: write, schema: { operationId: 'shop.product_sets.delete', summary: 'Deletes a product set', params: ItemListParams, response: { 200: DeletedReply, ...errors } } },
    async (request) => deleteRowOr404(request.em, 'shop_product_sets', shopKeyOf(request).shopId, request.params.id, what),
  );
};
