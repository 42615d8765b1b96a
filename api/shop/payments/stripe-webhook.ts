import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toMinorUnits, verifyStripeWebhook, type VerifiedEvent } from '../../../adapters/payments/stripe.ts';
import { markPaymentSucceeded, paymentByIntent } from '../../../db/repositories/shop/integrations.ts';
import { markOrderCleared } from '../../../db/repositories/shop/order-transitions.ts';
import { recordOrderTransactionId } from '../../../db/repositories/shop/orders.ts';
import { useShop } from '../../../db/repositories/shop/shops.ts';
import { gatewaySettings } from '../../../db/repositories/shop/subscriber-billing.ts';
import { openSecret } from '../../../adapters/secrets/secret-box.ts';
import { HttpError, notFound } from '../../shared/errors.ts';
import { ErrorBody } from '../../shared/schemas.ts';

const Params = z.object({ shop_id: z.uuid() });
const Received = z.object({ received: z.boolean(), outcome: z.string() });

/**
 * Stripe's payment events for one shop (`POST /webhooks/stripe/:shop_id`, the endpoint the shop
 * registers in its Stripe dashboard). The raw body is verified against `Stripe-Signature` with the
 * shop's webhook secret (HMAC, 5 minutes' tolerance: forged, altered and replayed bodies get 400).
 * `payment_intent.succeeded` of a payment started for an order clears it as `PATCH
 * /api/v1/orders/:id/clear` does, with `transaction_id` = the PaymentIntent id; a repeated or
 * late event finds the order paid and changes nothing more (the clearing workflow's id joins).
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  // The signature covers the bytes as sent: this route keeps them unparsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  async function handle(em: Parameters<typeof useShop>[0], shopId: string, event: VerifiedEvent): Promise<string> {
    if (event.type !== 'payment_intent.succeeded' || !event.paymentIntent) return `ignored ${event.type}`;
    const intent = event.paymentIntent;
    const payment = await paymentByIntent(em, intent.id);
    if (!payment) return 'ignored: not a payment of this shop';
    if (intent.amount !== toMinorUnits(payment.amount, payment.currency) || intent.currency.toUpperCase() !== payment.currency.toUpperCase()) {
      return 'ignored: amount or currency differs from the order payment';
    }
    const orderId = payment.order.id;
    const now = new Date();
    // The clearing's workflow is recorded with it (the outbox), also when it was cleared before: it
    // joins (or re-runs, a no-op) the clearing's workflow.
    const { cleared, recorded } = await em.transactional(async (tx) => {
      await markPaymentSucceeded(tx, shopId, intent.id, payment.saveForLater ? intent.paymentMethod : null, now);
      await recordOrderTransactionId(tx, shopId, orderId, intent.id);
      return { cleared: await markOrderCleared(tx, shopId, orderId, now), recorded: await app.workflows.shop.clearOrder(tx, { shopId, orderId }) };
    });
    await app.workflows.startRecorded(recorded);
    return cleared ? `order ${orderId} cleared` : `order ${orderId} was already paid`;
  }

  app.post(
    '/webhooks/stripe/:shop_id',
    {
      schema: {
        operationId: 'public.payments.stripe_webhook.receive',
        summary: 'Receive a signed Stripe payment event for the shop',
        description: 'Verified with the shop\'s webhook signing secret (`Stripe-Signature`). `payment_intent.succeeded` clears the order once; other events are acknowledged and ignored.',
        params: Params,
        response: { 200: Received, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const shop = await useShop(request.em, request.params.shop_id);
      if (!shop) throw notFound('shop');
      const settings = await gatewaySettings(request.em);
      if (settings.mode !== 'stripe' || !settings.webhookSecretSealed) throw notFound('Stripe webhook endpoint');
      const signature = request.headers['stripe-signature'];
      const body = request.body;
      if (typeof signature !== 'string' || !Buffer.isBuffer(body)) throw new HttpError(400, 'a signed Stripe event is required (Stripe-Signature)');
      let event: VerifiedEvent;
      try {
        event = verifyStripeWebhook(body, signature, openSecret(settings.webhookSecretSealed, app.secretsKey));
      } catch {
        throw new HttpError(400, 'the Stripe-Signature does not match the body, or the event is too old');
      }
      const outcome = await handle(request.em, shop.id, event);
      request.log.info({ stripeEvent: event.id, type: event.type, outcome }, 'stripe event');
      return { received: true, outcome };
    },
  );
};
