import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { gatewaySettings, saveGatewaySettings, type GatewaySettings } from '../../../db/repositories/shop/subscriber-billing.ts';
import { GATEWAY_MODES } from '../../../domain/shop/payment-gateway.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const DunningDays = z
  .array(z.int().min(1).max(365))
  .min(1)
  .max(10)
  .refine((days) => days.every((day, i) => i === 0 || day > days[i - 1]!), 'must be ascending, each day once')
  .describe('days after a period end at which a declined renewal charge is retried; after the last the subscription expires');

const PaymentGatewayReply = z
  .object({ mode: z.enum(GATEWAY_MODES), dunning_days: z.array(z.int()) })
  .meta({ id: 'ShopPaymentGateway' });

const reply = (settings: GatewaySettings) => ({ data: { mode: settings.mode, dunning_days: settings.dunningDays } });

/**
 * The shop's payment gateway for subscription renewals (DESIGN.md section 8): the built-in test
 * gateway approves or declines every charge as set here; `dunning_days` is the retry schedule.
 */
export const shopPaymentGatewayAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.get(
    '/shops/:shop_id/payment_gateway',
    { schema: { operationId: 'admin.shops.payment_gateway.read', summary: 'Reads the shop\'s payment gateway', params: ShopParams, response: { 200: data(PaymentGatewayReply), 404: ErrorBody } } },
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      return reply(await gatewaySettings(request.em));
    },
  );

  app.put(
    '/shops/:shop_id/payment_gateway',
    {
      schema: {
        operationId: 'admin.shops.payment_gateway.replace',
        summary: 'Sets the test payment gateway and the dunning schedule',
        description: 'A shop never set approves, with retries after 1, 3 and 5 days. `dunning_days` left out keeps the schedule it had.',
        params: ShopParams,
        body: z.strictObject({ mode: z.enum(GATEWAY_MODES), dunning_days: DunningDays.optional() }),
        response: { 200: data(PaymentGatewayReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const current = await gatewaySettings(request.em);
      const settings = { mode: request.body.mode, dunningDays: request.body.dunning_days ?? current.dunningDays };
      await saveGatewaySettings(request.em, shop.id, settings);
      return reply(settings);
    },
  );
};
