import type { DeliverMailInput, DeliveryOutcome, MailDeliveryActivities } from '../../activities/mail/delivery.ts';
import { activitiesOf } from './activities-of.ts';
import { MAIL_ATTEMPT } from './activity-profiles.ts';

const mailDeliveries = activitiesOf<MailDeliveryActivities>(MAIL_ATTEMPT);

/** Delivers one recorded mail through the platform's transport (retries: `MAIL_ATTEMPT`). */
export async function mailDelivery(input: DeliverMailInput): Promise<DeliveryOutcome> {
  return mailDeliveries.deliverMail(input);
}
