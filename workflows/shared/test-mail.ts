import type { SendTestMailInput, CourseMailActivities } from '../../activities/access/course-mails.ts';
import { deliverInBackground } from './steps/deliver-mail.ts';
import { activitiesOf } from './activities-of.ts';
import { DB_STEP } from './activity-profiles.ts';

const courseMails = activitiesOf<CourseMailActivities>(DB_STEP);

/** `send_test` of a platform or course template (202 once this is queued). */
export async function sendTestMail(input: SendTestMailInput): Promise<{ sent: boolean }> {
  const result = await courseMails.sendTestMail(input);
  await deliverInBackground(input.platformId, result.mailId);
  return { sent: result.sent };
}
