import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { db, webhook } from '../shared/activity-proxies.ts';
import { attemptUntilSettled } from '../shared/steps/attempt-until-settled.ts';
import type { DeliverClubWebhookInput } from './contracts.ts';

export type { DeliverClubWebhookInput };

/**
 * The club webhook's delivery: the platform's attempt loop on the club's tables; once it is over,
 * the order's `club_webhook` effect says what happened (delivered, failed with the reason, e.g. an
 * address the SSRF rules refuse, or not sent).
 */
export async function deliverClubWebhook({ shopId, deliveryId, manual = false }: DeliverClubWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const status = await attemptUntilSettled(() => webhook.attemptClubWebhookDelivery({ shopId, deliveryId, manual }));
  await db.recordClubWebhookOutcome({ shopId, deliveryId });
  return { deliveryId, status };
}
