import { sleep } from '@temporalio/workflow';
import type { CourseMailRolloutInput, CourseMailActivities } from '../../activities/access/course-mails.ts';
import { deliverInBackground } from '../shared/steps/deliver-mail.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const courseMails = activitiesOf<CourseMailActivities>(DB_STEP);

/**
 * A timed mail created or switched on with `notify_previous_users`, or whose `send_after` or lesson
 * changed: every participant it is still owed to gets it when due by its timing now, once each
 * (the dedupe key); a mail switched off or re-timed again before then is not sent by this run.
 */
export async function courseMailRollout(input: CourseMailRolloutInput): Promise<{ sent: number }> {
  const { lessonId, recipients } = await courseMails.courseMailRecipients(input);
  let sent = 0;
  let waitedMs = 0;
  for (const { participantId, delayMs } of recipients) {
    if (delayMs > waitedMs) {
      await sleep(delayMs - waitedMs);
      waitedMs = delayMs;
    }
    const result = await courseMails.sendCourseMail({ platformId: input.platformId, courseId: input.courseId, participantId, templateId: input.templateId, lessonId });
    await deliverInBackground(input.platformId, result.mailId);
    if (result.sent) sent += 1;
  }
  return { sent };
}
