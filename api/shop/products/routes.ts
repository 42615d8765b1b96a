import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { RequiredEntityData } from '@mikro-orm/core';
import type { IProduct, IShopFile } from '../../../db/entities/shop/index.ts';
import {
  addShopFile,
  categoryNames,
  createProduct,
  deleteOrHideProduct,
  deleteUnusedFiles,
  existingIds,
  findProduct,
  listProducts,
  updateProduct,
} from '../../../db/repositories/shop/products.ts';
import { minimalPriceProblem, pathId, unknownIds } from '../../../domain/shop/product-rules.ts';
import { notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data, sniffImages, type ImageInput } from '../../shared/schemas.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import {
  CloneProductBody,
  CreateProductBody,
  DeleteProductReply,
  PatchProductBody,
  ProductListQuery,
  ProductParams,
  ProductReply,
  type ProductPatch,
} from './schemas.ts';
import { cloneProduct } from './clone-product.ts';
import { courseAccessErrors } from './course-access.ts';
import { photoUrlFor, productReply, productValues } from './serialize.ts';

/** A photo of 5 MB in base64 is about 6.7 MB of JSON. */
const PHOTO_BODY_LIMIT = 8 * 1024 * 1024;

const REFERENCE_FIELDS = [
  ['delivery_type_ids', 'delivery_types'],
  ['payment_type_ids', 'payment_types'],
  ['product_category_ids', 'product_categories'],
] as const;

/** 422 for ids the shop does not have (unknown or another shop's), named by their field. */
async function referenceErrors(em: EntityManager, body: ProductPatch, errors: FieldErrors): Promise<void> {
  for (const [field, entity] of REFERENCE_FIELDS) {
    const sent = body[field];
    if (!sent?.length) continue;
    const missing = unknownIds(sent, await existingIds(em, entity, sent));
    if (missing.length > 0) (errors[field] ??= []).push(`unknown ids: ${missing.join(', ')}`);
  }
  const feed = body.product_category_id;
  if (typeof feed === 'number' && !(await existingIds(em, 'product_categories', [feed])).has(feed)) {
    (errors.product_category_id ??= []).push(`unknown id: ${feed}`);
  }
}

/** A visible product of the key's shop, 404 for anything else (also a malformed id). */
async function productOr404(em: EntityManager, segment: string): Promise<IProduct> {
  const id = pathId(segment);
  const product = id === null ? null : await findProduct(em, id);
  if (!product) throw notFound('product');
  return product;
}

/** Products (spec: Endpoints / Products). Reads need `read`, writes `write_data`. */
export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_data' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };
  const storage = app.fileStorage;

  const replyOf = async (request: FastifyRequest, products: IProduct[]) => {
    const names = await categoryNames(request.em, products.flatMap((p) => p.productCategoryIds.slice(0, 1)));
    return products.map((p) => productReply(p, names, photoUrlFor(request)));
  };
  const one = async (request: FastifyRequest, product: IProduct) => ({ data: (await replyOf(request, [product]))[0]! });

  /** Puts the photo's bytes in the storage and adds its file row (flushed with the product). */
  const storePhoto = async (em: EntityManager, shopId: string, photo: ImageInput) => {
    const storageKey = `shop/${shopId}/photos/${randomUUID()}`;
    await storage.put(storageKey, photo.bytes, photo.bytes.length, photo.contentType);
    return addShopFile(em, shopId, { storageKey, filename: photo.filename, contentType: photo.contentType, byteSize: photo.bytes.length });
  };
  /** Drops rows of files nothing uses any more, then (after the commit) their bytes. */
  const discardUnused = async (em: EntityManager, candidates: IShopFile[]) => {
    const unused = await deleteUnusedFiles(em, candidates);
    await Promise.all(unused.map((file) => storage.delete(file.storageKey)));
  };

  /** Checks a write: the photo's type from its bytes, then the ids against the shop and the product's state after it (one 422 with every problem). */
  const checkedWrite = async (em: EntityManager, shopId: string, sent: ProductPatch, current: IProduct | null) => {
    const body = await sniffImages(sent, ['photo']);
    const photo = body.photo as ImageInput | null | undefined;
    const problems = fieldErrorMap();
    await referenceErrors(em, body, problems);
    await courseAccessErrors(em, shopId, body, problems);
    const values = productValues(body);
    const after = { ...current, ...values } as IProduct;
    const priceProblem = minimalPriceProblem({
      price: after.price,
      allowPriceChange: after.allowPriceChange ?? false,
      minimalPrice: after.minimalPrice ?? null,
      allowZeroMinimalPrice: after.allowZeroMinimalPrice ?? false,
    });
    if (priceProblem) (problems.minimal_price ??= []).push(priceProblem);
    if (Object.keys(problems).length > 0) throw unprocessable(problems);
    return { values, photo };
  };

  app.get(
    '/products',
    { config: read, schema: { operationId: 'shop.products.list', summary: 'Lists products', querystring: ProductListQuery, response: { 200: pageOf(ProductReply), ...errors } } },
    async (request) => {
      const { active, category_id: categoryId, search } = request.query;
      const [rows, total] = await listProducts(request.em, { active, categoryId, search: search || undefined }, pageWindow(request.query));
      return { data: await replyOf(request, rows), meta: pageMeta(request.query, total) };
    },
  );

  app.get('/products/:id', { config: read, schema: { operationId: 'shop.products.read', summary: 'Reads a product', params: ProductParams, response: { 200: data(ProductReply), ...errors } } }, async (request) =>
    one(request, await productOr404(request.em, request.params.id)),
  );

  app.post(
    '/products',
    { config: write, bodyLimit: PHOTO_BODY_LIMIT, schema: { operationId: 'shop.products.create', summary: 'Creates a product', body: CreateProductBody, response: { 201: data(ProductReply), ...errors } } },
    async (request, reply) => {
      const { shopId } = shopKeyOf(request);
      const { em } = request;
      const { values, photo } = await checkedWrite(em, shopId, request.body, null);
      const photoFile = photo ? await storePhoto(em, shopId, photo) : undefined;
      const product = await createProduct(em, { ...values, shop: shopId } as RequiredEntityData<IProduct>, photoFile);
      return reply.code(201).send(await one(request, product));
    },
  );

  app.patch(
    '/products/:id',
    { config: write, bodyLimit: PHOTO_BODY_LIMIT, schema: { operationId: 'shop.products.update', summary: 'Updates a product', params: ProductParams, body: PatchProductBody, response: { 200: data(ProductReply), ...errors } } },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const { em } = request;
      const product = await productOr404(em, request.params.id);
      const { values, photo } = await checkedWrite(em, shopId, request.body ?? {}, product);
      const previousPhoto = photo !== undefined ? product.photo?.getEntity() : undefined;
      const photoFile = photo === undefined ? undefined : photo ? await storePhoto(em, shopId, photo) : null;
      await updateProduct(em, product, values, photoFile);
      if (previousPhoto) await discardUnused(em, [previousPhoto]);
      return one(request, product);
    },
  );

  app.delete(
    '/products/:id',
    {
      config: write,
      schema: {
        operationId: 'shop.products.delete',
        summary: 'Deletes a product',
        params: ProductParams,
        description: 'Removes a product without orders (`deleted: true`); one with orders is hidden instead (`deleted: false, hidden: true`).',
        response: { 200: DeleteProductReply, ...errors },
      },
    },
    async (request) => {
      const { em } = request;
      const product = await productOr404(em, request.params.id);
      const { id } = product;
      const outcome = await deleteOrHideProduct(em, shopKeyOf(request).shopId, product);
      if (outcome.hidden) return { data: { id, deleted: false, hidden: true, message: 'the product has orders, so it was hidden instead of deleted' } };
      await Promise.all(outcome.removedFiles.map((file) => storage.delete(file.storageKey)));
      return { data: { id, deleted: true, hidden: false } };
    },
  );

  app.post(
    '/products/:id/clone',
    { config: write, schema: { operationId: 'shop.products.clone', summary: 'Copies a product', params: ProductParams, body: CloneProductBody, response: { 201: data(ProductReply), ...errors } } },
    async (request, reply) => {
      const source = await productOr404(request.em, request.params.id);
      const clone = await cloneProduct(request.em, source, request.body);
      return reply.code(201).send(await one(request, clone));
    },
  );
};
