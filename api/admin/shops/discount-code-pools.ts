import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createPool, findPool } from '../../../db/repositories/shop/discount-code-pools.ts';
import { takenCodes } from '../../../db/repositories/shop/discount-codes.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, unprocessable, validationErrorHandler } from '../../shared/validation-errors.ts';
import { CreatePoolBody, PoolReply } from '../../shop/discount-code-pools/schemas.ts';
import { poolReply } from '../../shop/discount-code-pools/routes.ts';
import { discountWriteProblems } from '../../shop/discount-codes/routes.ts';
import { discountCodeValues } from '../../shop/discount-codes/serialize.ts';
import { ShopParams } from './schemas.ts';
import { shopOf } from './routes.ts';

/** Codes sent more than once in one request, ignoring case. */
function repeated(codes: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const code of codes) {
    const key = code.toLowerCase();
    if (seen.has(key)) twice.add(code);
    seen.add(key);
  }
  return [...twice];
}

/**
 * Discount code pools are made in the panel only (spec); the operator API stands in for it:
 * `POST /admin/v1/shops/:shop_id/discount_code_pools` (DESIGN.md section 8).
 */
export const shopDiscountPoolAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.post(
    '/shops/:shop_id/discount_code_pools',
    {
      schema: {
        operationId: 'admin.shops.discount_code_pools.create',
        summary: 'Creates a discount code pool',
        params: ShopParams,
        body: CreatePoolBody,
        response: { 201: data(PoolReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const { em } = request;
      const shop = await shopOf(em, request.params.shop_id);
      const { name, activate_on_draw: activateOnDraw, codes, ...settings } = request.body;
      const values = { ...discountCodeValues(settings), name };
      const problems = await discountWriteProblems(em, null, values);
      const twice = repeated(codes);
      if (twice.length > 0) (problems.codes ??= []).push(`sent more than once (ignoring case): ${twice.slice(0, 20).join(', ')}`);
      const taken = [...(await takenCodes(em, shop.id, codes))];
      if (taken.length > 0) (problems.codes ??= []).push(`already discount codes of this shop (ignoring case): ${taken.slice(0, 20).join(', ')}`);
      if (Object.keys(problems).length > 0) throw unprocessable(problems);
      let pool;
      try {
        pool = await createPool(em, shop.id, { name, activateOnDraw }, codes, values);
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) {
          throw unprocessable({ codes: ['a code was taken meanwhile by another discount code of this shop'] });
        }
        throw error;
      }
      return reply.code(201).send({ data: poolReply((await findPool(em, shop.id, pool.id))!) });
    },
  );
};
