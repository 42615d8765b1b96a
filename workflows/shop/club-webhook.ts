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
 * address the SSRF rules refuse, or not sent).
 */
export async function deliverClubWebhook({ shopId, deliveryId, manual = false }: DeliverClubWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const status = await attemptUntilSettled(() => clubWebhookAttempts.attemptClubWebhookDelivery({ shopId, deliveryId, manual }));
  await clubWebhooks.recordClubWebhookOutcome({ shopId, deliveryId });
  return { deliveryId, status };
}
