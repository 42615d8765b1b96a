import { createHash } from 'node:crypto';
import type { ChargeRequest, ChargeResult, PaymentGateway } from '../../domain/shop/payment-gateway.ts';

/**
 * The built-in test gateway (DESIGN.md section 8): approves or declines every charge as the
 * operator set it (`PUT /admin/v1/shops/:shop_id/payment_gateway`). Its reference is derived from
 * the idempotency key, so the same request always gets the same answer and reference, as a real
 * gateway answers a repeated idempotency key.
 */
export function testGateway(mode: 'approve' | 'decline'): PaymentGateway {
  return {
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      if (mode === 'decline') return { status: 'declined', reason: 'declined by the test gateway' };
      return { status: 'approved', reference: `test_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}` };
    },
  };
}
