/**
 * The payment a storefront checkout answers (integration of issues 23 and 24): the Stripe payment
 * of the order when the shop's gateway is Stripe and there is something to pay; null otherwise
 * (the order waits for PATCH .../clear, or needs no payment). A repeated checkout answers the same
 * PaymentIntent (startOrderPayment stores it per order), also once the webhook has paid the order.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { stripeAdapter } from '../../../adapters/payments/stripe.ts';
import { freshOrder } from '../../../db/repositories/shop/orders.ts';
import { paymentOfOrder } from '../../../db/repositories/shop/integrations.ts';
import { gatewaySettings, stripeGatewayOn } from '../../../db/repositories/shop/subscriber-billing.ts';
import { openSecret } from '../../../adapters/secrets/secret-box.ts';
import { startOrderPayment, type OrderPaymentStart, type PaymentDeps } from './start-order-payment.ts';

/** `stripeGateway`: whether the gateway is Stripe, when the caller read it already (a new order's placement does). */
export async function checkoutPayment(em: EntityManager, deps: PaymentDeps, shopId: string, orderId: number, stripeGateway?: boolean): Promise<OrderPaymentStart | null> {
  if (!(stripeGateway ?? (await stripeGatewayOn(em, shopId)))) return null;
  const settings = await gatewaySettings(em);
  if (settings.mode !== 'stripe' || !settings.secretKeySealed) return null;
  const order = await freshOrder(em, orderId);
  if (!order || Number(order.total) <= 0) return null;
  if (!order.paid && order.internalStatus === 'placed') return startOrderPayment(em, deps, { shopId, orderId: order.id });
  // Paid (or moved on) since: the payment it was paid with, when it was paid through Stripe.
  const known = await paymentOfOrder(em, order.id);
  if (!known) return null;
  const stripe = stripeAdapter({ secretKey: openSecret(settings.secretKeySealed, deps.secretsKey), apiUrl: deps.stripeApiUrl });
  const intent = await stripe.retrievePayment(known.paymentIntentId);
  return { provider: 'stripe', payment_intent_id: known.paymentIntentId, client_secret: intent.clientSecret, amount: known.amount, currency: known.currency };
}
