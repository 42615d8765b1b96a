import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequiredEntityData } from '@mikro-orm/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IDiscountCode } from '../../../db/entities/shop/index.ts';
import {
  createDiscountCode,
  deleteDiscountCode,
  existingReferenceIds,
  findDiscountCode,
  listDiscountCodes,
  takenCodes,
  updateDiscountCode,
  type DiscountReference,
} from '../../../db/repositories/shop/discount-codes.ts';
import { discountSettingsProblems } from '../../../domain/shop/discount-rules.ts';
import { pathId, unknownIds } from '../../../domain/shop/product-rules.ts';
import { notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import {
  CreateDiscountCodeBody,
  DeleteDiscountCodeReply,
  DiscountCodeListQuery,
  DiscountCodeParams,
  DiscountCodeReply,
  PatchDiscountCodeBody,
} from './schemas.ts';
import { discountCodeReply, discountCodeValues, settingsAfter } from './serialize.ts';

const REFERENCES: DiscountReference[] = ['product_ids', 'product_category_ids', 'delivery_type_ids'];

/**
 * Every problem of a discount code's write (one 422): the rules of its settings after the write
 * (domain/shop/discount-rules.ts) and ids the shop does not have, named by their field.
 */
export async function discountWriteProblems(em: EntityManager, current: Partial<IDiscountCode> | null, values: Partial<IDiscountCode>): Promise<FieldErrors> {
  const problems = fieldErrorMap();
  Object.assign(problems, discountSettingsProblems(settingsAfter(current, values)));
  const sent = { product_ids: values.productIds, product_category_ids: values.productCategoryIds, delivery_type_ids: values.deliveryTypeIds };
  for (const field of REFERENCES) {
    const ids = sent[field];
    if (!ids?.length) continue;
    const missing = unknownIds(ids, await existingReferenceIds(em, field, ids));
    if (missing.length > 0) (problems[field] ??= []).push(`unknown ids: ${missing.join(', ')}`);
  }
  return problems;
}

export const CODE_TAKEN = 'is already a discount code of this shop (codes are unique ignoring case)';

/** A code made one by one of the key's shop; 404 for anything else (a malformed id, a pool's code). */
async function codeOr404(em: EntityManager, segment: string): Promise<IDiscountCode> {
  const id = pathId(segment);
  const code = id === null ? null : await findDiscountCode(em, id);
  if (!code) throw notFound('discount code');
  return code;
}

/** A code taken between the check and the write (the unique index) is the 422 the check gives. */
const codeTaken = () => unprocessable({ code: [CODE_TAKEN] });

/** Discount codes (spec: Endpoints / Discount codes). Reads need `read`, writes `write_data`. */
export const discountCodeRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_data' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

  app.get(
    '/discount_codes',
    { config: read, schema: { operationId: 'shop.discount_codes.list', summary: 'Lists discount codes', querystring: DiscountCodeListQuery, response: { 200: pageOf(DiscountCodeReply), ...errors } } },
    async (request) => {
      const { discount_type: discountType, active, search } = request.query;
      const [rows, total] = await listDiscountCodes(request.em, { discountType, active, search: search || undefined }, pageWindow(request.query));
      return { data: rows.map(discountCodeReply), meta: pageMeta(request.query, total) };
    },
  );

  app.get('/discount_codes/:id', { config: read, schema: { operationId: 'shop.discount_codes.read', summary: 'Reads a discount code', params: DiscountCodeParams, response: { 200: data(DiscountCodeReply), ...errors } } }, async (request) => ({
    data: discountCodeReply(await codeOr404(request.em, request.params.id)),
  }));

  app.post(
    '/discount_codes',
    { config: write, schema: { operationId: 'shop.discount_codes.create', summary: 'Creates a discount code', body: CreateDiscountCodeBody, response: { 201: data(DiscountCodeReply), ...errors } } },
    async (request, reply) => {
      const { shopId } = shopKeyOf(request);
      const { em } = request;
      const values = discountCodeValues(request.body);
      const problems = await discountWriteProblems(em, null, values);
      if ((await takenCodes(em, shopId, [request.body.code])).size > 0) (problems.code ??= []).push(CODE_TAKEN);
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      const code = await createDiscountCode(em, { ...values, shop: shopId } as RequiredEntityData<IDiscountCode>);
      if (!code) throw codeTaken();
      return reply.code(201).send({ data: discountCodeReply(code) });
    },
  );

  app.patch(
    '/discount_codes/:id',
    { config: write, schema: { operationId: 'shop.discount_codes.update', summary: 'Updates a discount code', params: DiscountCodeParams, body: PatchDiscountCodeBody, response: { 200: data(DiscountCodeReply), ...errors } } },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const { em } = request;
      const code = await codeOr404(em, request.params.id);
      const body = request.body ?? {};
      const values = discountCodeValues(body);
      const problems = await discountWriteProblems(em, code, values);
      if (body.code !== undefined && (await takenCodes(em, shopId, [body.code], code.id)).size > 0) (problems.code ??= []).push(CODE_TAKEN);
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      if (!(await updateDiscountCode(em, code, values))) throw codeTaken();
      return { data: discountCodeReply(code) };
    },
  );

  app.delete(
    '/discount_codes/:id',
    {
      config: write,
      schema: {
        operationId: 'shop.discount_codes.delete',
        summary: 'Deletes a discount code',
        params: DiscountCodeParams,
        description: 'Deletes the code; orders placed with it keep `discount_code` (the text) and lose only the link.',
        response: { 200: DeleteDiscountCodeReply, ...errors },
      },
    },
    async (request) => {
      const code = await codeOr404(request.em, request.params.id);
      const { id } = code;
      await deleteDiscountCode(request.em, code);
      return { data: { id, deleted: true as const } };
    },
  );
};
