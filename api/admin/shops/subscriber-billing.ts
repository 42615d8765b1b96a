import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chargesOf } from '../../../db/repositories/shop/subscriber-billing.ts';
import { findSubscriber } from '../../../db/repositories/shop/subscribers.ts';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { SubscriberRenewalState } from '../../../workflows/shop/subscription-signals.ts';
import { ErrorBody, data } from '../../shared/schemas.ts';
import { notFound } from '../../shared/errors.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const SubscriberParams = ShopParams.extend({ subscriber_id: z.coerce.number().int().positive().max(2_147_483_647) });

const ChargeReply = z.object({
  attempt: z.int(),
  period_id: z.int(),
  amount: z.string(),
  currency: z.string(),
  status: z.enum(['approved', 'declined', 'unpaid']),
  gateway_reference: z.string().nullable(),
  decline_reason: z.string().nullable(),
  order_id: z.int().nullable().describe('the renewal order an approved charge paid for, or (no gateway) the unpaid renewal order an attempt waits for'),
  at: z.string(),
});
const BillingReply = z
  .object({
    workflow_id: z.string(),
    state: z
      .object({
        status: z.enum(['active', 'paused', 'dunning', 'expired', 'finished']),
        paused: z.boolean(),
        period_end: z.string(),
        next_charge_at: z.string().nullable(),
        renewals_done: z.int(),
        failed_attempts: z.int(),
      })
      .nullable()
      .describe("the renewal workflow's answer; null when it is not running or did not answer in 2 s"),
    charges: z.array(ChargeReply).describe('every renewal charge attempt, oldest first (dunning retries included)'),
  })
  .meta({ id: 'ShopSubscriberBilling' });

const stateReply = (s: SubscriberRenewalState) => ({
  status: s.status,
  paused: s.paused,
  period_end: s.periodEnd,
  next_charge_at: s.nextChargeAt,
  renewals_done: s.renewalsDone,
  failed_attempts: s.failedAttempts,
});

/** A subscriber's billing as operators see it (issue 12): the charge history and the renewal workflow's state. */
export const shopSubscriberBillingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/shops/:shop_id/subscribers/:subscriber_id/billing',
    {
      schema: {
        operationId: 'admin.shops.subscribers.billing.read',
        summary: 'Reads a subscriber\'s billing state',
        params: SubscriberParams,
        response: { 200: data(BillingReply), 404: ErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const subscriber = await findSubscriber(request.em, request.params.subscriber_id);
      if (!subscriber) throw notFound('subscriber');
      const workflowId = subscriberWorkflowId({ shopId: shop.id, subscriberId: subscriber.id });
      const [state, charges] = await Promise.all([
        app.workflows.shop.subscriberState({ shopId: shop.id, subscriberId: subscriber.id }),
        chargesOf(request.em, subscriber.id),
      ]);
      return {
        data: {
          workflow_id: workflowId,
          state: state && stateReply(state),
          charges: charges.map((c) => ({
            attempt: c.attempt,
            period_id: c.period.id,
            amount: c.amount,
            currency: c.currency,
            status: c.status,
            gateway_reference: c.gatewayReference ?? null,
            decline_reason: c.declineReason ?? null,
            order_id: c.order?.id ?? null,
            at: c.at.toISOString(),
          })),
        },
      };
    },
  );
};
