import type { Onboarding } from '../../../activities/access/grants.ts';
import { startWebhookDeliveries } from '../../shared/steps/dispatch-events.ts';
import { deliverInBackground, deliverNowOrInBackground } from '../../shared/steps/deliver-mail.ts';

/**
 * The deliveries a grant step leaves: its invitation and its events' webhooks. The step made the
 * invitation's first attempt itself; only one that is to be retried goes to its delivery workflow.
 * A step result recorded before the step made that attempt (an older history: no
 * `invitationDelivery`) takes the older path, the attempt as a local activity of its own, so
 * those histories replay unchanged.
 */
export async function handOn(platformId: string, step: Onboarding | Omit<Onboarding, 'invitationDelivery'>): Promise<void> {
  const invitation =
    'invitationDelivery' in step
      ? step.invitationDelivery === 'retry'
        ? deliverInBackground(platformId, step.invitationMailId)
        : Promise.resolve()
      : deliverNowOrInBackground(platformId, step.invitationMailId);
  await Promise.all([invitation, startWebhookDeliveries(platformId, step.webhookDeliveries)]);
}
