/**
 * The payment gateway adapter (DESIGN.md sections 7 and 8): what the renewal charge asks of any
 * gateway that charges a saved payment. The built-in test gateway (adapters/payments/test-gateway.ts)
 * answers as the operator set it; a real adapter implements the same interface.
 */

/** The built-in test gateway's modes. */
export const TEST_GATEWAY_MODES = ['approve', 'decline'] as const;
/**
 * Every mode: the test gateway's, `stripe` (adapters/payments/stripe.ts), and `none`, a shop that
 * never set one: nothing is charged; a due renewal places its order unpaid (DESIGN.md section 10).
 */
export const GATEWAY_MODES = [...TEST_GATEWAY_MODES, 'stripe', 'none'] as const;
export type GatewayMode = (typeof GATEWAY_MODES)[number];
export const NO_GATEWAY: GatewayMode = 'none';

/** A renewal attempt: charged, refused, or (no gateway) its renewal order awaiting payment. */
export type ChargeStatus = 'approved' | 'declined' | 'unpaid';

/**
 * The saved payment of a subscriber charged by Stripe, as kept in `payment_reference`:
 * `stripe:<customer id>:<payment method id>`. Any other reference is not a Stripe payment method.
 */
export function stripePaymentReference(customerId: string, paymentMethodId: string): string {
  return `stripe:${customerId}:${paymentMethodId}`;
}

export function parseStripePaymentReference(reference: string): { customerId: string; paymentMethodId: string } | null {
  const match = /^stripe:([^:]+):([^:]+)$/.exec(reference);
  return match ? { customerId: match[1]!, paymentMethodId: match[2]! } : null;
}

export interface ChargeRequest {
  /** Same key, same charge: a gateway answers a repeated request with the first answer, never charging twice. */
  idempotencyKey: string;
  /** Gross amount, "49.00". */
  amount: string;
  currency: string;
  /** The gateway's opaque token of the customer's saved payment (never logged or shown). */
  paymentReference: string;
  description: string;
}

export type ChargeResult = { status: 'approved'; reference: string } | { status: 'declined'; reason: string };

export interface PaymentGateway {
  charge(request: ChargeRequest): Promise<ChargeResult>;
}
