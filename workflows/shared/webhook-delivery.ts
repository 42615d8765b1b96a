import { patched, sleep } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import type { DeliverWebhookInput } from './contracts.ts';
import { attemptUntilSettled } from './steps/attempt-until-settled.ts';
import type { WebhookActivities } from '../../activities/webhooks/delivery.ts';
import { activitiesOf } from './activities-of.ts';
import { WEBHOOK_ATTEMPT } from './activity-profiles.ts';

const webhooks = activitiesOf<WebhookActivities>(WEBHOOK_ATTEMPT);

export type { DeliverWebhookInput };

/**
 * Webhook delivery: pending -> succeeded | failed | disabled (spec: States and transitions).
 * The attempt activity decides the wait before the next attempt (the retry schedule with its
 * jitter, or the receiver's `Retry-After`), so the jitter is recorded in history and replays
 * deterministically. Since a delivery's first attempt is made by the workflow that raised its
 * event (`webhook-inline-first`), this workflow runs for the deliveries that need a retry (and
 * manual redeliveries).
 */
export async function deliverWebhook({ platformId, webhookId, eventId, manual = false, ...first }: DeliverWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  // Its first attempt was the raising workflow's (steps/dispatch-events.ts): the retries only.
  // Marked: a run of this input that an older worker began opened and attempted at once, as its history holds.
  if (first.deliveryId && first.nextAttemptInMs !== undefined && patched('delivery-after-first-attempt')) {
    const { deliveryId } = first;
    await sleep(first.nextAttemptInMs);
    return { deliveryId, status: await attemptUntilSettled(() => webhooks.attemptWebhookDelivery({ platformId, deliveryId })) };
  }
  const { deliveryId } = await webhooks.openWebhookDelivery({ platformId, webhookId, eventId });
  return { deliveryId, status: await attemptUntilSettled(() => webhooks.attemptWebhookDelivery({ platformId, deliveryId, manual })) };
}
