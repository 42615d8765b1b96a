import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { erasureStep, webhook } from './activity-proxies.ts';
import type { DeliverCustomerErasedInput } from './contracts.ts';
import { attemptUntilSettled } from './steps/attempt-until-settled.ts';

/** One `customer_erased` delivery to one shop webhook: opened once, then the platform's signed attempts and retries. */
export async function deliverCustomerErased(input: DeliverCustomerErasedInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const { deliveryId } = await erasureStep.openCustomerErasedDelivery(input);
  return { deliveryId, status: await attemptUntilSettled(() => webhook.attemptShopWebhookDelivery({ shopId: input.tenantId, deliveryId })) };
}
