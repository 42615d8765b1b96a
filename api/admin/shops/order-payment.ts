import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { startOrderPayment } from '../../shop/payments/start-order-payment.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const Params = ShopParams.extend({ order_id: z.coerce.number().int().positive().max(2_147_483_647) });
const PaymentReply = z
  .object({
    provider: z.literal('stripe'),
    payment_intent_id: z.string(),
    client_secret: z.string().describe('for Stripe.js (`confirmPayment`) on the buyer\'s side'),
    amount: z.string(),
    currency: z.string(),
  })
  .meta({ id: 'ShopOrderPayment' });

/** Starts (or answers again) the Stripe payment of an order: what the buyer's client confirms. */
export const shopOrderPaymentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));
  app.post(
    '/shops/:shop_id/orders/:order_id/payment',
    {
      schema: {
        operationId: 'admin.shops.orders.payment.create',
        summary: 'Start the Stripe payment of an order',
        description:
          'A PaymentIntent for the order total, for the Stripe customer of the buyer\'s e-mail; the card is saved for off-session renewals when the order holds a subscription product. A repeat answers the same PaymentIntent. 409 when the order is paid, not placed, free, or the shop\'s gateway is not Stripe.',
        params: Params,
        response: { 200: data(PaymentReply), 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return { data: await startOrderPayment(request.em, { secretsKey: app.secretsKey, stripeApiUrl: app.integrationEndpoints.stripeApiUrl }, { shopId: shop.id, orderId: request.params.order_id }) };
    },
  );
};
