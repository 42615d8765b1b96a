import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { drawCodes, findPool, listPools, NotEnoughCodes, type PoolWithCounters } from '../../../db/repositories/shop/discount-code-pools.ts';
import { pathId } from '../../../domain/shop/product-rules.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { fieldErrors, QUALIFIED_400, unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import { DrawBody, DrawInput, DrawnCodeReply, MAX_VALIDITY_HOURS, PoolListQuery, PoolParams, PoolReply } from './schemas.ts';

export function poolReply({ pool, counters }: PoolWithCounters) {
  return {
    id: pool.id,
    name: pool.name,
    activate_on_draw: pool.activateOnDraw,
    codes_total: counters.codesTotal,
    codes_drawn: counters.codesDrawn,
    codes_remaining: counters.codesTotal - counters.codesDrawn,
    created_at: new Date(pool.createdAt).toISOString(),
  };
}

async function poolOr404(em: EntityManager, shopId: string, segment: string): Promise<PoolWithCounters> {
  const id = pathId(segment);
  const pool = id === null ? null : await findPool(em, shopId, id);
  if (!pool) throw notFound('discount code pool');
  return pool;
}

/** Discount code pools (spec: Endpoints / Discount code pools). Reads need `read`; a draw needs `write_data`. */
export const discountCodePoolRoutes: FastifyPluginAsyncZod = async (app) => {
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

  app.get(
    '/discount_code_pools',
    { config: { scope: 'read' }, schema: { operationId: 'shop.discount_code_pools.list', summary: 'Lists discount code pools', querystring: PoolListQuery, response: { 200: pageOf(PoolReply), ...errors } } },
    async (request) => {
      const [rows, total] = await listPools(request.em, shopKeyOf(request).shopId, request.query.search || undefined, pageWindow(request.query));
      return { data: rows.map(poolReply), meta: pageMeta(request.query, total) };
    },
  );

  app.get('/discount_code_pools/:id', { config: { scope: 'read' }, schema: { operationId: 'shop.discount_code_pools.read', summary: 'Reads a discount code pool', params: PoolParams, response: { 200: data(PoolReply), ...errors } } }, async (request) => ({
    data: poolReply(await poolOr404(request.em, shopKeyOf(request).shopId, request.params.id)),
  }));

  app.post(
    '/discount_code_pools/:id/draw',
    {
      config: { scope: 'write_data' },
      schema: {
        operationId: 'shop.discount_code_pools.draw',
        summary: 'Draws a code from a pool',
        params: PoolParams,
        body: DrawBody,
        description:
          'Activates `count` free codes of an `activate_on_draw` pool, valid from now for `validity_hours` hours; all or nothing. ' +
          '400 when count or validity_hours is not a positive integer, 404 for a pool of another shop, 422 when the pool is not in draw mode or fewer free codes remain.',
        response: { 201: data(z.array(DrawnCodeReply)), 400: ValidationErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const parsed = DrawInput.safeParse(typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {});
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({ instancePath: `/${issue.path.join('/')}`, message: issue.message }));
        throw badRequest('count and validity_hours must be positive integers', fieldErrors(undefined, issues, { ...QUALIFIED_400, fieldNames: 'as-sent' }));
      }
      const { count, validity_hours: hours } = parsed.data;
      const { shopId } = shopKeyOf(request);
      const { pool, counters } = await poolOr404(request.em, shopId, request.params.id);
      if (!pool.activateOnDraw) throw unprocessable({ id: ['the pool does not activate codes on draw'] }, 'the pool is not in draw mode');
      if (hours > MAX_VALIDITY_HOURS) throw unprocessable({ validity_hours: [`must be at most ${MAX_VALIDITY_HOURS}`] });
      const fewer = (remaining: number) => unprocessable({ count: [`only ${remaining} free codes are left to draw; nothing was drawn`] }, 'fewer free codes remain than requested');
      if (count > counters.codesTotal - counters.codesDrawn) throw fewer(counters.codesTotal - counters.codesDrawn);
      try {
        const drawn = await drawCodes(request.em, shopId, pool.id, count, new Date(), hours);
        return reply.code(201).send({
          data: drawn.map((code) => ({ id: code.id, code: code.code, valid_from: code.validFrom.toISOString(), valid_until: code.validUntil.toISOString() })),
        });
      } catch (error) {
        if (error instanceof NotEnoughCodes) throw fewer(error.got);
        throw error;
      }
    },
  );
};
