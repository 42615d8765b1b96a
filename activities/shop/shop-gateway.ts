import type { EntityManager } from '@mikro-orm/postgresql';
import { paymentGateway } from '../../adapters/payments/index.ts';
import { openSecret } from '../../adapters/secrets/secret-box.ts';
import { gatewaySettings } from '../../db/repositories/shop/subscriber-billing.ts';
import type { PaymentGateway } from '../../domain/shop/payment-gateway.ts';

/** The gateway of the shop `em` is scoped to. */
export type GatewayFor = (em: EntityManager) => Promise<PaymentGateway>;

/** The shop's gateway as its operator set it (adapters/payments/index.ts), its Stripe key opened in memory only. */
export function shopGateway(secretsKey: Buffer, stripeApiUrl?: string): GatewayFor {
  return async (em) => {
    const { mode, secretKeySealed } = await gatewaySettings(em);
    const secretKey = mode === 'stripe' && secretKeySealed ? openSecret(secretKeySealed, secretsKey) : null;
    return paymentGateway({ mode, secretKey }, stripeApiUrl);
  };
}
