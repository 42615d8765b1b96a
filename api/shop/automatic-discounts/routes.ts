import { LockMode, type FilterQuery, type RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IAutomaticDiscount } from '../../../db/entities/shop/index.ts';
import {
  createAutomaticDiscount,
  deleteDiscountRestoringPrices,
  findAutomaticDiscount,
  listAutomaticDiscounts,
  updateAutomaticDiscount,
} from '../../../db/repositories/shop/automatic-discounts.ts';
import { existingReferenceIds } from '../../../db/repositories/shop/discount-codes.ts';
import { automaticDiscountProblems, isPriceHistoryType } from '../../../domain/shop/automatic-discount-rules.ts';
import { pathId, unknownIds } from '../../../domain/shop/product-rules.ts';
import { notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { data, ErrorBody, ValidationErrorBody } from '../../shared/schemas.ts';
import { unprocessable, type FieldErrors } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import type { RecordedStart } from '../../shared/workflow-starts/index.ts';
import type { StoredSchedule } from '../../shared/workflow-starts/shop-discounts.ts';
import { AUTOMATIC_DISCOUNT_RESOURCES, type AutomaticDiscountResource } from './resources.ts';
import {
  AutomaticDiscountParams,
  createBody,
  DeleteAutomaticDiscountReply,
  listQuery,
  patchBody,
  replySchema,
  type AutomaticDiscountListQuery,
} from './schemas.ts';
import { automaticDiscountReply, automaticDiscountValues, settingsAfter } from './serialize.ts';

/** Every problem of a write (one 422): the rules of the settings after it, and ids the shop does not have. */
async function writeProblems(
  em: EntityManager,
  resource: AutomaticDiscountResource,
  current: IAutomaticDiscount | null,
  values: Partial<IAutomaticDiscount>,
  at: { now: Date; timeZone: string },
): Promise<FieldErrors> {
  const startChanged = values.startDate !== undefined && values.startDate?.getTime() !== current?.startDate?.getTime();
  const problems: FieldErrors = automaticDiscountProblems(settingsAfter(resource, current, values), at.now, startChanged || !current, at.timeZone);
  const sent = { product_ids: values.productIds, product_category_ids: values.productCategoryIds } as const;
  for (const field of ['product_ids', 'product_category_ids'] as const) {
    const ids = sent[field];
    if (!ids?.length) continue;
    const missing = unknownIds(ids, await existingReferenceIds(em, field, ids));
    if (missing.length > 0) (problems[field] ??= []).push(`unknown ids: ${missing.join(', ')}`);
  }
  return problems;
}

/** The list filter of the resource, as a query on its rows. */
function listWhere(query: AutomaticDiscountListQuery): FilterQuery<IAutomaticDiscount> {
  if (query.email !== undefined) return { email: query.email };
  if (query.email_domain !== undefined) return { emailDomain: query.email_domain };
  // The reply's own `active` (the switch); where a time-limited discount stands in its window is `future`/`past`.
  if (query.active !== undefined) return { active: query.active };
  return {};
}

/**
 * The five routes of one automatic-discount resource (spec: Endpoints, Automatic discounts): the
 * resource descriptor says what differs (kind, path, own fields, list filter); the code is one.
 * Reads need `read`, writes `write_data`. A time-limited discount's write records its schedule for
 * its price workflow in the write's transaction (`app.workflows.shop`, the outbox of
 * api/shared/workflow-starts/), sent after the commit; its DELETE restores the prices in its own
 * transaction and tells the workflow only to end.
 */
function resourceRoutes(resource: AutomaticDiscountResource): FastifyPluginAsyncZod {
  return async (app) => {
    const read = { scope: 'read' } as const;
    const write = { scope: 'write_data' } as const;
    const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };
    const Reply = replySchema(resource);
    const { kind, path } = resource;
    const operationId = (action: string) => `shop.${path.slice(1)}.${action}`;
    const one = `${/^[aeiou]/.test(resource.name) ? 'an' : 'a'} ${resource.name}`;

    /** The discount of the path; `locked` reads it FOR UPDATE, fresh (inside a transaction). */
    async function discountOr404(em: EntityManager, segment: string, locked = false): Promise<IAutomaticDiscount> {
      const id = pathId(segment);
      const discount = id === null ? null : await findAutomaticDiscount(em, kind, id, locked ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {});
      if (!discount) throw notFound(resource.name);
      return discount;
    }

    /**
     * In the transaction `tx` of a write of a time-limited discount whose prices are (or were)
     * recalculated: records the schedule for its price workflow (sent after the commit by
     * `app.workflows.startRecorded`, later when Temporal is down). The row is the one this write
     * commits (its revision grew under the row lock when anything changed, so of two writes the
     * later carries the higher revision).
     */
    function recordSchedule(tx: EntityManager, shopId: string, discount: IAutomaticDiscount, typeBefore: string | null): Promise<RecordedStart> | null {
      if (kind !== 'time_limited') return null;
      if (!isPriceHistoryType(discount.discountType) && !(typeBefore && isPriceHistoryType(typeBefore))) return null;
      const stored: StoredSchedule = { revision: discount.revision, startDate: discount.startDate!, endDate: discount.endDate!, discountType: discount.discountType };
      return app.workflows.shop.discountScheduleChanged(tx, { shopId, discountId: discount.id }, stored);
    }

    app.get(path, { config: read, schema: { operationId: operationId('list'), summary: `Lists ${resource.name}s`, querystring: listQuery(resource), response: { 200: pageOf(Reply), ...errors } } }, async (request) => {
      const { query } = request;
      const now = new Date();
      const [rows, total] = await listAutomaticDiscounts(request.em, kind, listWhere(query), pageWindow(query));
      return { data: rows.map((row) => automaticDiscountReply(resource, row, now)), meta: pageMeta(query, total) };
    });

    app.get(`${path}/:id`, { config: read, schema: { operationId: operationId('read'), summary: `Reads ${one}`, params: AutomaticDiscountParams, response: { 200: data(Reply), ...errors } } }, async (request) => ({
      data: automaticDiscountReply(resource, await discountOr404(request.em, request.params.id), new Date()),
    }));

    app.post(path, { config: write, schema: { operationId: operationId('create'), summary: `Creates ${one}`, body: createBody(resource), response: { 201: data(Reply), ...errors } } }, async (request, reply) => {
      const { shopId, timeZone } = shopKeyOf(request);
      const now = new Date();
      const values = automaticDiscountValues(request.body);
      const { discount, recorded } = await request.em.transactional(async (tx) => {
        const problems = await writeProblems(tx, resource, null, values, { now, timeZone });
        if (Object.keys(problems).length > 0) throw unprocessable(problems);
        const created = await createAutomaticDiscount(tx, { ...values, kind, shop: shopId } as RequiredEntityData<IAutomaticDiscount>);
        return { discount: created, recorded: await recordSchedule(tx, shopId, created, null) };
      });
      await app.workflows.startRecorded(recorded);
      return reply.code(201).send({ data: automaticDiscountReply(resource, discount, now) });
    });

    app.patch(`${path}/:id`, { config: write, schema: { operationId: operationId('update'), summary: `Updates ${one}`, params: AutomaticDiscountParams, body: patchBody(resource), response: { 200: data(Reply), ...errors } } }, async (request) => {
      const { shopId, timeZone } = shopKeyOf(request);
      const now = new Date();
      const values = automaticDiscountValues(request.body ?? {});
      // The row is locked while the write is checked against it: two PATCHes at once are checked
      // one after the other, each against the row the other left.
      const { discount, recorded } = await request.em.transactional(async (tx) => {
        const current = await discountOr404(tx, request.params.id, true);
        const before = current.discountType;
        const problems = await writeProblems(tx, resource, current, values, { now, timeZone });
        if (Object.keys(problems).length > 0) throw unprocessable(problems);
        updateAutomaticDiscount(tx, current, values);
        return { discount: current, recorded: await recordSchedule(tx, shopId, current, before) };
      });
      await app.workflows.startRecorded(recorded);
      return { data: automaticDiscountReply(resource, discount, now) };
    });

    app.delete(
      `${path}/:id`,
      {
        config: write,
        schema: {
          operationId: operationId('delete'),
          summary: `Deletes ${one}`,
          params: AutomaticDiscountParams,
          description: 'Deletes the discount; a time-limited one restores the product prices it changed.',
          response: { 200: DeleteAutomaticDiscountReply, ...errors },
        },
      },
      async (request) => {
        const { shopId } = shopKeyOf(request);
        const discount = await discountOr404(request.em, request.params.id);
        const { id } = discount;
        const deletedType = await deleteDiscountRestoringPrices(request.em, shopId, discount, new Date());
        if (deletedType === null) throw notFound(resource.name);
        if (kind === 'time_limited' && isPriceHistoryType(deletedType)) await app.workflows.startRecorded(await app.workflows.shop.discountRemoved(request.em, { shopId, discountId: id }));
        return { data: { id, deleted: true as const } };
      },
    );
  };
}

/** The four automatic-discount resources, one descriptor each. */
export const automaticDiscountRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const resource of AUTOMATIC_DISCOUNT_RESOURCES) await app.register(resourceRoutes(resource));
};
