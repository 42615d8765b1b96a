import type { EntityManager } from '@mikro-orm/postgresql';
import { stripeAdapter } from '../../../adapters/payments/stripe.ts';
import { gatewaySettings } from '../../../db/repositories/shop/subscriber-billing.ts';
import { openSecret } from '../../../adapters/secrets/secret-box.ts';
import type { PaymentGateway } from '../../../domain/shop/payment-gateway.ts';
import { testGateway } from './test-gateway.ts';

/** The gateway of the shop `em` is scoped to. */
export type GatewayFor = (em: EntityManager) => Promise<PaymentGateway>;

/**
 * The shop's gateway as its operator set it: the built-in test gateway (`approve`, `decline`), or
 * Stripe with the shop's own secret key (`stripeApiUrl`: stripe-mock or a stand-in in tests).
 */
export function shopGateway(secretsKey: Buffer, stripeApiUrl?: string): GatewayFor {
  return async (em) => {
    const settings = await gatewaySettings(em);
    if (settings.mode !== 'stripe') return testGateway(settings.mode);
    if (!settings.secretKeySealed) return { charge: async () => ({ status: 'declined', reason: 'the Stripe secret key is not set' }) };
    return stripeAdapter({ secretKey: openSecret(settings.secretKeySealed, secretsKey), apiUrl: stripeApiUrl }).gateway;
  };
}
