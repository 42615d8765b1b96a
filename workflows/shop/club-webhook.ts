import { patched, sleep } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { attemptUntilSettled } from '../shared/steps/attempt-until-settled.ts';
import type { DeliverClubWebhookInput } from './contracts.ts';
import type { ClubWebhookActivities } from '../../activities/shop/club-webhook.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP, WEBHOOK_ATTEMPT } from '../shared/activity-profiles.ts';

const clubWebhookAttempts = activitiesOf<ClubWebhookActivities>(WEBHOOK_ATTEMPT);
const clubWebhooks = activitiesOf<ClubWebhookActivities>(DB_STEP);

export type { DeliverClubWebhookInput };

/**
 * The club webhook's delivery: the platform's attempt loop on the club's tables; once it is over,
 * the order's `club_webhook` effect says what happened (delivered, failed with the reason, e.g. an
 * address the SSRF rules refuse, or not sent). When the clearing made the first attempt
 * (`nextAttemptInMs`), the retries only, after the wait that attempt asked for; marked, since a run
 * of such an input that an older worker began attempted at once, as its history holds.
 */
export async function deliverClubWebhook({ shopId, deliveryId, manual = false, nextAttemptInMs }: DeliverClubWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  if (nextAttemptInMs !== undefined && patched('club-delivery-after-first-attempt')) await sleep(nextAttemptInMs);
  const status = await attemptUntilSettled(() => clubWebhookAttempts.attemptClubWebhookDelivery({ shopId, deliveryId, manual }));
  await clubWebhooks.recordClubWebhookOutcome({ shopId, deliveryId });
  return { deliveryId, status };
}
