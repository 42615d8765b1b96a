import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import type { DeliverCustomerErasedInput } from './contracts.ts';
import { attemptUntilSettled } from './steps/attempt-until-settled.ts';
import type { PersonalDataActivities } from '../../activities/shared/personal-data.ts';
import type { ShopWebhookActivities } from '../../activities/webhooks/shop.ts';
import { activitiesOf } from './activities-of.ts';
import { ERASURE_STEP, WEBHOOK_ATTEMPT } from './activity-profiles.ts';

const personalData = activitiesOf<PersonalDataActivities>(ERASURE_STEP);
const shopWebhooks = activitiesOf<ShopWebhookActivities>(WEBHOOK_ATTEMPT);

/** One `customer_erased` delivery to one shop webhook: opened once, then the platform's signed attempts and retries. */
export async function deliverCustomerErased(input: DeliverCustomerErasedInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const { deliveryId } = await personalData.openCustomerErasedDelivery(input);
  return { deliveryId, status: await attemptUntilSettled(() => shopWebhooks.attemptShopWebhookDelivery({ shopId: input.tenantId, deliveryId })) };
}
