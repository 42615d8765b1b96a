import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ISubscriptionPlan } from '../../../db/entities/shop/index.ts';
import { deletePlan, findPlan, linksOf, listPlans, savePlan, type PlanWrite } from '../../../db/repositories/shop/subscriptions.ts';
import { planLinkProblems, supersededPlanProblem, type FieldProblem } from '../../../domain/shop/subscription-rules.ts';
import { notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import { shopKeyOf } from '../auth.ts';
import { refusedFields } from '../shared/field-problems.ts';
import { PathParams } from '../shared/fields.ts';
import { DeletedReply, readBackOr404, rowOr404 } from '../shared/path-rows.ts';
import { wrappedFieldNames } from '../shared/wrapped-body.ts';
import { CreatePlanBody, PatchPlanBody, PlanListQuery, PlanReply } from './schemas.ts';
import { planReply, planWrite } from './serialize.ts';

const what = 'subscription plan';

/** The rules a write breaks on its own, before the shop's rows are read. */
function ownProblems(planId: number | null, write: PlanWrite): FieldProblem[] {
  const problems = write.links ? planLinkProblems(write.links) : [];
  const self = supersededPlanProblem(planId, write.values.supersededPlan ?? null);
  return self ? [...problems, { field: 'superseded_subscription_plan_id', message: self }] : problems;
}

/** Saves the write and reads the plan back (404 when a DELETE removed it right after the commit). */
async function saved(em: EntityManager, shopId: string, planId: number | null, write: PlanWrite): Promise<ISubscriptionPlan> {
  const problems = ownProblems(planId, write);
  if (problems.length > 0) throw refusedFields(problems);
  const result = await savePlan(em, shopId, planId, write);
  if (result.kind === 'missing') throw notFound(what);
  if (result.kind === 'refused') throw refusedFields(result.problems);
  return readBackOr404(em, result.planId, findPlan, what);
}

/**
 * Subscription plans (spec: Endpoints / Subscription plans). Reads need `read`; writes need
 * `write_data`: a plan is part of the shop's offer like a product, while `write_subscriptions`
 * opens only subscribers and their periods (Authentication item 5; docs/decisions/). Error keys
 * name the fields inside the `subscription_plan` wrapper, like product sets and upsell groups.
 */
export const subscriptionPlanRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { scope: 'read' } as const;
  const write = { scope: 'write_data' } as const;
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };
  const errorHandler = wrappedFieldNames('subscription_plan');
  const one = async (em: EntityManager, plan: ISubscriptionPlan) => planReply(plan, await linksOf(em, [plan.id]));

  app.get(
    '/subscription_plans',
    { config: read, schema: { operationId: 'shop.subscription_plans.list', summary: 'Lists subscription plans', querystring: PlanListQuery, response: { 200: pageOf(PlanReply), ...errors } } },
    async (request) => {
      const { automatic_renewal: automaticRenewal, search } = request.query;
      const [plans, total] = await listPlans(request.em, { automaticRenewal, search: search || undefined }, pageWindow(request.query));
      const links = await linksOf(request.em, plans.map((plan) => plan.id));
      return { data: plans.map((plan) => planReply(plan, links)), meta: pageMeta(request.query, total) };
    },
  );

  app.get('/subscription_plans/:id', { config: read, schema: { operationId: 'shop.subscription_plans.read', summary: 'Reads a subscription plan', params: PathParams, response: { 200: data(PlanReply), ...errors } } }, async (request) => ({
    data: await one(request.em, await rowOr404(request.em, request.params.id, findPlan, what)),
  }));

  app.post(
    '/subscription_plans',
    { config: write, errorHandler, schema: { operationId: 'shop.subscription_plans.create', summary: 'Creates a subscription plan', body: CreatePlanBody, response: { 201: data(PlanReply), ...errors } } },
    async (request, reply) => {
      const plan = await saved(request.em, shopKeyOf(request).shopId, null, planWrite(request.body.subscription_plan));
      return reply.code(201).send({ data: await one(request.em, plan) });
    },
  );

  app.patch(
    '/subscription_plans/:id',
    { config: write, errorHandler, schema: { operationId: 'shop.subscription_plans.update', summary: 'Updates a subscription plan', params: PathParams, body: PatchPlanBody, response: { 200: data(PlanReply), ...errors } } },
    async (request) => {
      const current = await rowOr404(request.em, request.params.id, findPlan, what);
      const plan = await saved(request.em, shopKeyOf(request).shopId, current.id, planWrite(request.body.subscription_plan));
      return { data: await one(request.em, plan) };
    },
  );

  app.delete(
    '/subscription_plans/:id',
    {
      config: write,
      schema: {
        operationId: 'shop.subscription_plans.delete',
        summary: 'Deletes a subscription plan',
        params: PathParams,
        description: 'Removes a plan without subscribers and without a mail sequence it triggers; otherwise 422 (deletion only when safe).',
        response: { 200: DeletedReply, ...errors },
      },
    },
    async (request) => {
      const plan = await rowOr404(request.em, request.params.id, findPlan, what);
      const outcome = await deletePlan(request.em, shopKeyOf(request).shopId, plan.id);
      if (outcome === 'missing') throw notFound(what);
      if (outcome === 'has_subscribers') {
        throw unprocessable({ subscription_plan: ['the plan has subscribers: it can be deleted only in the panel'] }, 'the plan has subscribers');
      }
      if (outcome === 'has_mail_sequences') {
        throw unprocessable({ subscription_plan: ['a mail sequence is triggered by this plan: change or delete the sequence first'] }, 'the plan triggers a mail sequence');
      }
      return { data: { id: plan.id, deleted: true as const } };
    },
  );
};
