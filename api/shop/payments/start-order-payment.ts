/**
 * The use case "pay an order" (issue 23), for every entry point: the operator API
 * (`POST /admin/v1/shops/:shop_id/orders/:order_id/payment`) and the storefront's checkout. It
 * answers what a client needs to confirm the payment with Stripe.js (the PaymentIntent's client
 * secret). Called with an entity manager scoped to the shop (useShop); a repeat answers the same
 * PaymentIntent (stored per order, and the same idempotency key at Stripe).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { stripeAdapter } from '../../../adapters/payments/stripe.ts';
import { freshOrder } from '../../../db/repositories/shop/orders.ts';
import { paymentOfOrder, recordOrderPayment, storedStripeCustomer, storeStripeCustomer } from '../../../db/repositories/shop/integrations.ts';
import { gatewaySettings, subscriptionLinksOf } from '../../../db/repositories/shop/subscriber-billing.ts';
import { loadOrderFacts } from '../../../db/repositories/shop/order-facts.ts';
import { openSecret } from '../../../adapters/secrets/secret-box.ts';
import { HttpError, notFound } from '../../shared/errors.ts';

export interface OrderPaymentStart {
  provider: 'stripe';
  payment_intent_id: string;
  client_secret: string;
  amount: string;
  currency: string;
}

export interface PaymentDeps {
  secretsKey: Buffer;
  /** `STRIPE_API_URL` (stripe-mock in tests); Stripe's own API when unset. */
  stripeApiUrl?: string;
}

const conflict = (message: string) => new HttpError(409, message);

export async function startOrderPayment(em: EntityManager, deps: PaymentDeps, { shopId, orderId }: { shopId: string; orderId: number }): Promise<OrderPaymentStart> {
  const order = await freshOrder(em, orderId);
  if (!order) throw notFound('order');
  if (order.paid) throw conflict('the order is already paid');
  if (order.internalStatus !== 'placed') throw conflict('only a placed order can be paid');
  if (Number(order.total) <= 0) throw conflict('the order total is zero: there is nothing to pay');
  const settings = await gatewaySettings(em);
  if (settings.mode !== 'stripe' || !settings.secretKeySealed) throw conflict('the shop takes no payments: its payment gateway is not Stripe');
  const stripe = stripeAdapter({ secretKey: openSecret(settings.secretKeySealed, deps.secretsKey), apiUrl: deps.stripeApiUrl });

  const answer = (paymentIntentId: string, clientSecret: string, amount: string, currency: string): OrderPaymentStart => ({
    provider: 'stripe',
    payment_intent_id: paymentIntentId,
    client_secret: clientSecret,
    amount,
    currency,
  });
  const known = await paymentOfOrder(em, orderId);
  if (known) {
    const intent = await stripe.retrievePayment(known.paymentIntentId);
    return answer(known.paymentIntentId, intent.clientSecret, known.amount, known.currency);
  }

  const email = order.email.toLowerCase();
  const customerId =
    (await storedStripeCustomer(em, email)) ?? (await storeStripeCustomer(em, shopId, email, await stripe.customerFor(email, `customer/${shopId}/${email}`)));
  const facts = await loadOrderFacts(em, orderId);
  const productIds = (facts?.items ?? []).map((item) => item.productId).filter((id): id is number => id != null);
  // A subscription that renews automatically is charged off-session: the card is saved for it at this payment.
  const saveForLater = (await subscriptionLinksOf(em, shopId, productIds)).some((link) => link.automaticRenewal);
  const started = await stripe.startPayment({
    amount: order.total,
    currency: order.currency,
    customerId,
    saveForLater,
    description: `Order ${order.ordinalNumber}`,
    metadata: { shop_id: shopId, order_id: String(orderId) },
    idempotencyKey: `order-payment/${shopId}/${orderId}`,
  });
  const stored = await recordOrderPayment(em, { shopId, orderId, provider: 'stripe', paymentIntentId: started.paymentIntentId, amount: order.total, currency: order.currency, customerId, saveForLater });
  if (stored.paymentIntentId !== started.paymentIntentId) {
    // A concurrent start stored its intent first: answer that one.
    const intent = await stripe.retrievePayment(stored.paymentIntentId);
    return answer(stored.paymentIntentId, intent.clientSecret, stored.amount, stored.currency);
  }
  return answer(started.paymentIntentId, started.clientSecret, order.total, order.currency);
}
