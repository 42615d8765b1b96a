import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ISubscriber } from '../../../db/entities/shop/index.ts';
import { visibleProductIds } from '../../../db/repositories/shop/item-products.ts';
import { cataloguePrices, findSubscriber, listSubscribers, moveLatestPeriod, periodsOf, updateSubscriber } from '../../../db/repositories/shop/subscribers.ts';
import { startOfDayIn } from '../../../domain/shared/time-zones.ts';
import { pathId, unknownIds } from '../../../domain/shop/product-rules.ts';
import { intervalProblem, latestPeriod, renewalItemsProblems, signalsFor, type FieldProblem } from '../../../domain/shop/subscription-rules.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import { refusedFields } from '../shared/field-problems.ts';
import { rowOr404 } from '../shared/path-rows.ts';
import { PatchPeriodBody, PatchSubscriberBody, PeriodReply, SubscriberDetailReply, SubscriberListQuery, SubscriberParams, SubscriberReply, type SubscriberPatch } from './schemas.ts';
import { periodReply, subscriberReply } from './serialize.ts';

/** Subscribers as replied, given the end of each one's latest period, at `now`. */
async function repliesOf(em: EntityManager, subscribers: readonly ISubscriber[], latestEnds: ReadonlyMap<number, Date>, now: Date) {
  const prices = await cataloguePrices(em, subscribers.flatMap((s) => s.renewalItems.map((item) => item.product_id)));
  return subscribers.map((s) => subscriberReply(s, latestEnds.get(s.id) ?? null, prices, now));
}

/** One subscriber as replied, with its periods (oldest first). */
async function withPeriods(em: EntityManager, subscriber: ISubscriber) {
  const periods = await periodsOf(em, [subscriber.id]);
  const latest = latestPeriod(periods);
  const [reply] = await repliesOf(em, [subscriber], new Map(latest ? [[subscriber.id, latest.endsAt]] : []), new Date());
  return { reply: reply!, periods };
}

/** Every rule a subscriber PATCH breaks (PATCH rules 1 and 2; products of the shop). */
async function patchProblems(em: EntityManager, shopId: string, body: SubscriberPatch): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  if (body.renewal_items) {
    problems.push(...renewalItemsProblems(body.renewal_items));
    const sent = body.renewal_items.map((item) => item.product_id);
    const known = await visibleProductIds(em, shopId, sent, { lock: false });
    sent.forEach((productId, index) => {
      if (unknownIds([productId], known).length > 0) problems.push({ field: `renewal_items.${index}.product_id`, message: `unknown product id: ${productId}` });
    });
  }
  const interval = body.renewal_interval_days;
  if (typeof interval === 'number') {
    const problem = intervalProblem(interval);
    if (problem) problems.push({ field: 'renewal_interval_days', message: problem });
  }
  return problems;
}

/**
 * Subscribers (spec: Endpoints / Subscribers). Every route needs `write_subscriptions`, reads too:
 * nothing else opens subscribers (Authentication item 5, DESIGN.md section 7), and that key opens
 * nothing else. After a write commits, the subscriber's renewal workflow is signalled (or started,
 * for a subscription a period move made active again).
 */
export const subscriberRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { scope: 'write_subscriptions' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

  app.get(
    '/subscribers',
    {
      config,
      schema: {
        operationId: 'shop.subscribers.list',
        summary: 'Lists subscribers',
        description: 'At least one of `email`, `subscription_plan_id` or `custom_identifier` is required (400 otherwise).',
        querystring: SubscriberListQuery,
        response: { 200: pageOf(SubscriberReply), 400: ValidationErrorBody, ...errors },
      },
    },
    async (request) => {
      const { shopId, timeZone } = shopKeyOf(request);
      const q = request.query;
      const email = q.email || undefined;
      const customIdentifier = q.custom_identifier || undefined;
      if (email === undefined && customIdentifier === undefined && q.subscription_plan_id === undefined) {
        const message = 'one of email, subscription_plan_id or custom_identifier is required';
        throw badRequest(message, { email: [message], subscription_plan_id: [message], custom_identifier: [message] });
      }
      const bound = (value: string | undefined) => (value === undefined ? undefined : value.length === 10 ? startOfDayIn(value, timeZone) : new Date(value));
      const filter = { email, customIdentifier, planId: q.subscription_plan_id, active: q.active, expiresBefore: bound(q.expires_before), expiresAfter: bound(q.expires_after) };
      // One instant for the `active` filter and the replies' `active`.
      const now = new Date();
      const { subscribers, latestEnds, total } = await listSubscribers(request.em, shopId, filter, now, pageWindow(q));
      return { data: await repliesOf(request.em, subscribers, latestEnds, now), meta: pageMeta(q, total) };
    },
  );

  app.get(
    '/subscribers/:id',
    { config, schema: { operationId: 'shop.subscribers.read', summary: 'Reads a subscriber with its periods', params: SubscriberParams, response: { 200: data(SubscriberDetailReply), ...errors } } },
    async (request) => {
      // One snapshot: a renewal commits a period and the renewal count together, so must the reply.
      const { reply, periods } = await request.em.transactional(async (tx) => withPeriods(tx, await rowOr404(tx, request.params.id, findSubscriber, 'subscriber')), {
        isolationLevel: IsolationLevel.REPEATABLE_READ,
        readOnly: true,
      });
      return { data: { ...reply, periods: periods.map(periodReply) } };
    },
  );

  app.patch(
    '/subscribers/:id',
    { config, schema: { operationId: 'shop.subscribers.update', summary: 'Updates a subscriber', params: SubscriberParams, body: PatchSubscriberBody, response: { 200: data(SubscriberReply), ...errors } } },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const current = await rowOr404(request.em, request.params.id, findSubscriber, 'subscriber');
      const body = request.body ?? {};
      const problems = await patchProblems(request.em, shopId, body);
      if (problems.length > 0) throw refusedFields(problems);
      const signals = signalsFor({ renewalPaused: body.renewal_paused, itemsSent: body.renewal_items !== undefined, intervalSent: body.renewal_interval_days !== undefined });
      // The workflow's signals are recorded with the change (sent once committed, later when Temporal is down).
      const { subscriber, recorded } = await request.em.transactional(async (tx) => {
        const updated = await updateSubscriber(tx, current.id, {
          ...(body.renewal_items && { renewalItems: body.renewal_items.map((item) => ({ product_id: item.product_id, quantity: item.quantity, price: item.price ?? null })) }),
          ...(body.renewal_interval_days !== undefined && { renewalIntervalDays: body.renewal_interval_days }),
          ...(body.renewal_paused !== undefined && { renewalPaused: body.renewal_paused }),
          ...(body.custom_identifier !== undefined && { customIdentifier: body.custom_identifier }),
        });
        if (!updated) throw notFound('subscriber');
        return { subscriber: updated, recorded: await app.workflows.shop.notifySubscriber(tx, { shopId, subscriberId: updated.id }, signals.map((signal) => ({ signal }))) };
      });
      await app.workflows.startRecorded(recorded);
      // The reply is the row as this request's transaction left it (not a later write's).
      return { data: (await withPeriods(request.em, subscriber)).reply };
    },
  );

  app.patch(
    '/subscribers/:id/period',
    {
      config,
      schema: {
        operationId: 'shop.subscribers.move_period',
        summary: 'Moves a subscriber\'s current period',
        description:
          'Moves the end of the running (latest) period, whatever the status; every pending reminder and charge moves with it. A subscription that was over and now ends in the future is active again.',
        params: SubscriberParams,
        body: PatchPeriodBody,
        response: { 200: data(PeriodReply), ...errors },
      },
    },
    async (request) => {
      const { shopId } = shopKeyOf(request);
      const id = pathId(request.params.id);
      const activeUntil = request.body.active_until;
      // The workflow's signal or restart is recorded with the move (sent once committed, later when Temporal is down).
      const { moved, recorded } = await request.em.transactional(async (tx) => {
        const move = id === null ? ({ kind: 'missing' } as const) : await moveLatestPeriod(tx, id, activeUntil, new Date());
        if (move.kind !== 'moved') return { moved: move, recorded: null };
        return { moved: move, recorded: await app.workflows.shop.subscriberPeriodMoved(tx, { shopId, subscriberId: id! }, { activeUntil, reactivatedFrom: move.reactivatedFrom }) };
      });
      if (moved.kind === 'missing') throw notFound('subscriber');
      if (moved.kind === 'refused') throw unprocessable({ active_until: [moved.problem] });
      await app.workflows.startRecorded(recorded);
      return { data: periodReply(moved.period) };
    },
  );
};
