import type { GatewayMode, PaymentGateway } from '../../domain/shop/payment-gateway.ts';
import { stripeAdapter } from './stripe.ts';
import { testGateway } from './test-gateway.ts';

/** What picks a shop's gateway: its mode and, in mode `stripe`, the opened secret key (null when not set). */
export interface GatewayChoice {
  mode: GatewayMode;
  secretKey: string | null;
}

/**
 * The gateway a shop's operator set: none (never charges), the built-in test gateway (`approve`,
 * `decline`), or Stripe with the shop's own secret key (`stripeApiUrl`: stripe-mock or a stand-in in tests); Stripe
 * without a key declines every charge.
 */
export function paymentGateway({ mode, secretKey }: GatewayChoice, stripeApiUrl?: string): PaymentGateway {
  // No gateway: nothing is ever charged (the renewal places its order unpaid before asking).
  if (mode === 'none') return { charge: async () => ({ status: 'declined', reason: 'the shop has no payment gateway' }) };
  if (mode !== 'stripe') return testGateway(mode);
  if (!secretKey) return { charge: async () => ({ status: 'declined', reason: 'the Stripe secret key is not set' }) };
  return stripeAdapter({ secretKey, apiUrl: stripeApiUrl }).gateway;
}
