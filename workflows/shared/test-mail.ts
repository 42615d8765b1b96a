import type { SendTestMailInput } from '../../activities/access/course-mails.ts';
import { db } from './activity-proxies.ts';
import { deliverInBackground } from './steps/deliver-mail.ts';

/** `send_test` of a platform or course template (202 once this is queued). */
export async function sendTestMail(input: SendTestMailInput): Promise<{ sent: boolean }> {
  const result = await db.sendTestMail(input);
  await deliverInBackground(input.platformId, result.mailId);
  return { sent: result.sent };
}
