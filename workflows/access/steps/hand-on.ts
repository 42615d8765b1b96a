import type { Onboarding } from '../../../activities/access/grants.ts';
import { startWebhookDeliveries } from '../../shared/steps/dispatch-events.ts';
import { deliverNowOrInBackground } from '../../shared/steps/deliver-mail.ts';

/** The deliveries a grant step leaves: its invitation (one attempt now, retries in the background) and its events' webhooks. */
export async function handOn(platformId: string, step: Onboarding): Promise<void> {
  await Promise.all([deliverNowOrInBackground(platformId, step.invitationMailId), startWebhookDeliveries(platformId, step.webhookDeliveries)]);
}
