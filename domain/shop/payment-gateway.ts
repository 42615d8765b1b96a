/**
 * The payment gateway adapter (DESIGN.md sections 7 and 8): what the renewal charge asks of any
 * gateway that charges a saved payment. The built-in test gateway (activities/shop/payment-gateways)
 * answers as the operator set it; a real adapter implements the same interface.
 */

export const GATEWAY_MODES = ['approve', 'decline'] as const;
export type GatewayMode = (typeof GATEWAY_MODES)[number];

export type ChargeStatus = 'approved' | 'declined';

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
