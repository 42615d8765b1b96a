import type { DeliverMailInput, DeliveryOutcome } from '../../activities/mail/delivery.ts';
import { mail } from './activity-proxies.ts';

/** Delivers one recorded mail through the platform's transport (retries: the `mail` profile). */
export async function mailDelivery(input: DeliverMailInput): Promise<DeliveryOutcome> {
  return mail.deliverMail(input);
}
