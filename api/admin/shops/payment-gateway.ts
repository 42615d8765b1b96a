import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sealSecret } from '../../../adapters/secrets/secret-box.ts';
import { gatewaySettings, saveGatewaySettings, type GatewaySettings } from '../../../db/repositories/shop/subscriber-billing.ts';
import { GATEWAY_MODES, TEST_GATEWAY_MODES } from '../../../domain/shop/payment-gateway.ts';
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
  .object({
    mode: z.enum(GATEWAY_MODES),
    dunning_days: z.array(z.int()),
    secret_key_configured: z.boolean().optional().describe('mode `stripe` only: the secret key is stored (it is never shown)'),
    webhook_secret_configured: z.boolean().optional().describe('mode `stripe` only: the webhook signing secret is stored (it is never shown)'),
    webhook_path: z.string().optional().describe('mode `stripe` only: where Stripe sends this shop\'s payment events (`POST`)'),
  })
  .meta({ id: 'ShopPaymentGateway' });

const PaymentGatewayBody = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.enum([...TEST_GATEWAY_MODES, 'none']), dunning_days: DunningDays.optional() }),
  z.strictObject({
    mode: z.literal('stripe'),
    secret_key: z.string().regex(/^(sk|rk)_[A-Za-z0-9_]{1,250}$/, 'must be a Stripe secret or restricted key (sk_... or rk_...)').describe('write-only, sealed'),
    webhook_secret: z.string().regex(/^whsec_[A-Za-z0-9+/=_-]{1,250}$/, 'must be a Stripe webhook signing secret (whsec_...)').describe('write-only, sealed'),
    dunning_days: DunningDays.optional(),
  }),
]);

const reply = (shopId: string, settings: GatewaySettings) => ({
  data: {
    mode: settings.mode,
    dunning_days: settings.dunningDays,
    ...(settings.mode === 'stripe' && {
      secret_key_configured: settings.secretKeySealed !== null,
      webhook_secret_configured: settings.webhookSecretSealed !== null,
      webhook_path: `/webhooks/stripe/${shopId}`,
    }),
  },
});

/**
 * The shop's payment gateway (DESIGN.md sections 8 and 10): `none` (never set) charges nothing; the
 * built-in test gateway approves or declines every renewal charge as set here; `stripe` charges through the shop's own Stripe account (order
 * payments, off-session renewals, signed payment webhooks). `dunning_days` is the retry schedule.
 * The Stripe keys are sealed with `SECRETS_KEY` and never shown.
 */
export const shopPaymentGatewayAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.get(
    '/shops/:shop_id/payment_gateway',
    { schema: { operationId: 'admin.shops.payment_gateway.read', summary: 'Reads the shop\'s payment gateway', params: ShopParams, response: { 200: data(PaymentGatewayReply), 404: ErrorBody } } },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return reply(shop.id, await gatewaySettings(request.em));
    },
  );

  app.put(
    '/shops/:shop_id/payment_gateway',
    {
      schema: {
        operationId: 'admin.shops.payment_gateway.replace',
        summary: 'Sets the payment gateway (test gateway or Stripe) and the dunning schedule',
        description:
          'A shop never set has none (`none`): nothing is charged, and a due renewal places its order unpaid at New, its period starting when the order is cleared; retries after 1, 3 and 5 days. `dunning_days` left out keeps the schedule it had. `stripe` takes the secret key and the webhook signing secret (both write-only); a test-gateway mode drops them.',
        params: ShopParams,
        body: PaymentGatewayBody,
        response: { 200: data(PaymentGatewayReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const current = await gatewaySettings(request.em);
      const body = request.body;
      const settings: GatewaySettings = {
        mode: body.mode,
        dunningDays: body.dunning_days ?? current.dunningDays,
        secretKeySealed: body.mode === 'stripe' ? sealSecret(body.secret_key, app.secretsKey) : null,
        webhookSecretSealed: body.mode === 'stripe' ? sealSecret(body.webhook_secret, app.secretsKey) : null,
      };
      await saveGatewaySettings(request.em, shop.id, settings);
      return reply(shop.id, settings);
    },
  );
};
