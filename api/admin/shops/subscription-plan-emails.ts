import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findPlan } from '../../../db/repositories/shop/subscriptions.ts';
import { savePlanEmail } from '../../../db/repositories/shop/subscription-plan-emails.ts';
import { PLAN_EMAIL_KINDS, SUBSCRIBER_MAIL_TAGS } from '../../../domain/shop/subscription-mails.ts';
import { notFound } from '../../shared/errors.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const PlanEmailParams = ShopParams.extend({ plan_id: z.coerce.number().int().positive().max(2_147_483_647), kind: z.enum(PLAN_EMAIL_KINDS) });

const tags = SUBSCRIBER_MAIL_TAGS.map((tag) => `{{${tag}}}`).join(', ');

const PlanEmailBody = z.strictObject({
  subject: z.string().trim().min(1).max(255).describe(`plain text; tags ${tags}`),
  content: z.string().trim().min(1).max(100_000).describe(`HTML; tags ${tags} (values HTML-escaped; {{DATA_WAZNOSCI}} is the period end, a day in the shop's time zone written as 05.12.2026)`),
});

const PlanEmailReply = z
  .object({ plan_id: z.int(), kind: z.enum(PLAN_EMAIL_KINDS), subject: z.string(), content: z.string(), updated_at: z.string() })
  .meta({ id: 'SubscriptionPlanEmail' });

/**
 * A plan's subscriber mail texts (DESIGN.md section 10): what the panel sets; a kind never set
 * sends the built-in Polish text (domain/shop/subscription-mails.ts).
 */
export const subscriptionPlanEmailAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.put(
    '/shops/:shop_id/subscription_plans/:plan_id/emails/:kind',
    {
      schema: {
        operationId: 'admin.shops.subscription_plans.emails.replace',
        summary: "Sets a subscription plan's text of one subscriber mail",
        description:
          "`kind`: `activation`, `renewal`, `expiration_in_one_week` or `expiration_in_one_day`. The plan's mails of that kind use this subject and content from now on (when the plan's `send_email_about_...` flag is on); a kind never set sends the built-in Polish text. 404 for a plan of another shop.",
        params: PlanEmailParams,
        body: PlanEmailBody,
        response: { 200: data(PlanEmailReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const plan = await findPlan(request.em, request.params.plan_id);
      if (!plan) throw notFound('subscription plan');
      const row = await savePlanEmail(request.em, shop.id, plan.id, request.params.kind, request.body);
      return { data: { plan_id: plan.id, kind: row.kind, subject: row.subject, content: row.content, updated_at: row.updatedAt.toISOString() } };
    },
  );
};
